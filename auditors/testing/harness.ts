// Shared by the auditors' unit tests: an audit context answering declared
// defaults, and a definition loaded and wrapped in an in-process engine the
// way `startAuditor` does it, without HTTP.
import { createEngine, type Engine } from '../sdk/engine.ts';
import { buildSettingsTable, resolveConfiguration } from '../sdk/settings.ts';
import type { AuditContext, AuditorDefinition, AuditorRuntime, SettingValue } from '../sdk/types.ts';

/** Loads `def` under `env` and returns an engine for it (5 s deadline, 4 concurrent). */
export async function loadedEngine(def: AuditorDefinition, env: NodeJS.ProcessEnv = {}): Promise<Engine> {
  const configuration = resolveConfiguration(def, env).values;
  const runtime: AuditorRuntime = {
    env,
    timeoutMs: 5000,
    config: <T>(k: string) => configuration[k] as T,
    log: { info: () => undefined, warn: () => undefined },
  };
  await def.load?.(runtime);
  return createEngine({
    def,
    auditorId: def.id,
    timeoutMs: 5000,
    maxConcurrent: 4,
    settings: buildSettingsTable(def, env).table,
    configuration,
  });
}

/** A context whose `setting()` is `overrides[key]`, else the declared default (undeclared throws). */
export function defaultsContext(
  def: Pick<AuditorDefinition, 'vocabulary'>,
  overrides: Record<string, SettingValue> = {},
): AuditContext {
  return {
    setting: <T extends SettingValue>(claim: string, key: string): T => {
      if (key in overrides) return overrides[key] as T;
      const decl = def.vocabulary.find((v) => v.name === claim)?.settings?.find((s) => s.key === key);
      if (!decl) throw new Error(`undeclared ${claim}.${key}`);
      return decl.default as T;
    },
    signal: new AbortController().signal,
    emit: () => {},
  };
}
