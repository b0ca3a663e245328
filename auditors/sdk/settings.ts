// Setting resolution (spec: AuditorPolicy; CLARIFICATIONS "setting names").
// A claim's setting resolves, highest first: the per-claim override from
// `platform_context.detection_overrides`, the auditor's environment variable
// `<AUDITOR>_<KEY>`, the declared default. Pure: the environment is read once
// into a table at start-up.
import { camelToSnake, envName, parseSettingText, settingValueMatches } from './setting-names.ts';
import type { AuditorDefinition, SettingDeclaration, SettingValue } from './types.ts';

export type Overrides = Record<string, Record<string, SettingValue>>;

export interface SettingsTable {
  /** claim name → setting key → declaration */
  declared: ReadonlyMap<string, ReadonlyMap<string, SettingDeclaration>>;
  /** setting key → value from the environment (only keys whose variable is set) */
  fromEnv: ReadonlyMap<string, SettingValue>;
}

function readEnv(
  auditorId: string,
  decl: { key: string; type: SettingDeclaration['type'] },
  env: NodeJS.ProcessEnv,
): { value?: SettingValue; problem?: string } {
  const variable = envName(auditorId, decl.key);
  const raw = env[variable];
  if (raw === undefined || raw === '') return {};
  const parsed = parseSettingText(decl.type, raw);
  return parsed.ok
    ? { value: parsed.value }
    : { problem: `${variable}=${JSON.stringify(raw)}: ${parsed.problem}` };
}

/**
 * Reads every declared setting's environment variable (prefix from the
 * definition's id; a key shared by several claims has one variable). Returns
 * every problem at once.
 */
export function buildSettingsTable(
  def: Pick<AuditorDefinition, 'id' | 'vocabulary'>,
  env: NodeJS.ProcessEnv,
): { table: SettingsTable; problems: string[] } {
  const declared = new Map<string, Map<string, SettingDeclaration>>();
  const fromEnv = new Map<string, SettingValue>();
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const entry of def.vocabulary) {
    const byKey = new Map<string, SettingDeclaration>();
    for (const s of entry.settings ?? []) {
      byKey.set(s.key, s);
      if (seen.has(s.key)) continue;
      seen.add(s.key);
      const { value, problem } = readEnv(def.id, s, env);
      if (problem) problems.push(problem);
      else if (value !== undefined) fromEnv.set(s.key, value);
    }
    declared.set(entry.name, byKey);
  }
  return { table: { declared, fromEnv }, problems };
}

function overrideFor(
  overrides: Overrides | undefined,
  claimName: string,
  key: string,
): SettingValue | undefined {
  const forClaim = overrides?.[claimName];
  if (!forClaim) return undefined;
  if (Object.hasOwn(forClaim, key)) return forClaim[key];
  for (const [k, v] of Object.entries(forClaim)) if (camelToSnake(k) === key) return v;
  return undefined;
}

/** The effective value of one declared setting. Throws for an undeclared one (a bug in the auditor). */
export function resolveSetting(
  table: SettingsTable,
  claimName: string,
  key: string,
  overrides?: Overrides,
): SettingValue {
  const decl = table.declared.get(claimName)?.get(key);
  if (!decl) throw new Error(`setting '${key}' is not declared for claim '${claimName}'`);
  const override = overrideFor(overrides, claimName, key);
  if (override !== undefined) return override;
  const fromEnv = table.fromEnv.get(key);
  return fromEnv !== undefined ? fromEnv : decl.default;
}

/** Every declared setting of a claim with its effective value: what `provenance.settings` carries. */
export function effectiveSettings(
  table: SettingsTable,
  claimName: string,
  overrides?: Overrides,
): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const key of table.declared.get(claimName)?.keys() ?? [])
    out[key] = resolveSetting(table, claimName, key, overrides);
  return out;
}

/**
 * Overrides whose value has the wrong type for a declared setting. Overrides
 * for claims or keys this auditor does not declare are ignored: a policy
 * carries overrides for every auditor of the chain.
 */
export function overrideProblems(table: SettingsTable, overrides: Overrides | undefined): string[] {
  const problems: string[] = [];
  for (const [claim, settings] of Object.entries(overrides ?? {})) {
    const byKey = table.declared.get(claim);
    if (!byKey) continue;
    for (const [rawKey, value] of Object.entries(settings)) {
      const decl = byKey.get(camelToSnake(rawKey));
      if (decl && !settingValueMatches(decl.type, value)) {
        problems.push(
          `platform_context.detection_overrides.${claim}.${rawKey} must be of type ${decl.type} (got ${JSON.stringify(value)})`,
        );
      }
    }
  }
  return problems;
}

/** Auditor-level configuration, resolved once: `<AUDITOR>_<KEY>` env > declared default. */
export function resolveConfiguration(
  def: Pick<AuditorDefinition, 'id' | 'configuration'>,
  env: NodeJS.ProcessEnv,
): { values: Record<string, SettingValue>; problems: string[] } {
  const values: Record<string, SettingValue> = {};
  const problems: string[] = [];
  for (const [key, decl] of Object.entries(def.configuration ?? {})) {
    const { value, problem } = readEnv(def.id, { key, type: decl.type }, env);
    if (problem) problems.push(problem);
    values[key] = value !== undefined ? value : decl.default;
  }
  return { values, problems };
}
