// Serves an AuditorDefinition: checks the definition and the environment,
// listens, loads models in the background (`ready` turns true when done),
// self-registers with the gateway without waiting for it, and registers its
// stop steps on the role lifecycle for a graceful SIGTERM.
import { createServer } from 'node:http';
import { closeGracefully, HTTP_GRACE_MS } from '../../base/close.ts';
import { listen } from '../../base/listen.ts';
import { hostname } from 'node:os';
import { ConfigError } from '../../base/config.ts';
import type { Logger } from '../../base/log.ts';
import type { RoleContext } from '../../base/role.ts';
import { definitionProblems, vocabularyDeclaration } from './definition.ts';
import { createEngine } from './engine.ts';
import { loadAuditorEnv, type AuditorEnv } from './env.ts';
import { createRequestListener, type ReadyState } from './http.ts';
import { createAuditorMetrics } from './metrics.ts';
import { selfRegister, type RegisterResult } from './register.ts';
import { buildSettingsTable, resolveConfiguration } from './settings.ts';
import type { AuditorDefinition, AuditorRuntime, SettingValue } from './types.ts';
import { DEFAULT_MAX_DEPTH } from './validate-request.ts';

export interface StartOptions {
  log: Logger;
  env: NodeJS.ProcessEnv;
  flags?: Record<string, string | undefined>;
  /** First registration retry delay (tests shorten it). */
  registerInitialDelayMs?: number;
}

export interface RunningAuditor {
  port: number;
  /** `http://127.0.0.1:<port>` when bound to all interfaces, else the bound host. */
  url: string;
  state: ReadyState;
  /** Settles when registration succeeded, was refused, or stopped; undefined when disabled. */
  registration?: Promise<RegisterResult>;
  /** Resolves when loading finished (successfully or not). */
  loaded: Promise<void>;
  close(): Promise<void>;
}

function prepare(def: AuditorDefinition, env: NodeJS.ProcessEnv, flags: Record<string, string | undefined>) {
  const defProblems = definitionProblems(def);
  if (defProblems.length > 0) throw new ConfigError(defProblems.map((p) => `auditor ${def.id}: ${p}`));
  const auditorEnv = loadAuditorEnv(env, flags);
  const { table, problems } = buildSettingsTable(def, env);
  const config = resolveConfiguration(def, env);
  if (problems.length + config.problems.length > 0) throw new ConfigError([...problems, ...config.problems]);
  return { auditorEnv, table, configuration: config.values };
}

function endpointOf(auditorEnv: AuditorEnv, port: number): string {
  return auditorEnv.endpoint ?? `http://${auditorEnv.podIp ?? hostname()}:${port}`;
}

async function load(
  def: AuditorDefinition,
  runtime: AuditorRuntime,
  state: ReadyState,
  log: Logger,
): Promise<void> {
  const started = performance.now();
  try {
    await def.load?.(runtime);
    state.ready = true;
    log.info({ loadMs: Math.round(performance.now() - started) }, 'auditor ready');
  } catch (err) {
    state.loadError = (err as Error).message || 'load failed';
    log.error({ err }, 'auditor failed to load; /readyz and /healthz report it');
  }
}

/** The provenance every claim carries about the TEE it was produced in. */
function teeProvenance(auditorEnv: AuditorEnv): Record<string, unknown> {
  const provenance: Record<string, unknown> = { tee_provider: auditorEnv.teeProvider };
  if (auditorEnv.teeProvider === 'MOCK') provenance.hardware_attested = false;
  return provenance;
}

/** A host to show in the URL: loopback when bound to all interfaces. */
const shownHostOf = (host: string): string => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);

interface RegistrationInput {
  def: AuditorDefinition;
  auditorEnv: AuditorEnv;
  auditorId: string;
  port: number;
  options: StartOptions;
  signal: AbortSignal;
}

/** Self-registers with the gateway in the background; settles as `selfRegister` does. */
function startRegistration(input: RegistrationInput): Promise<RegisterResult> {
  const { def, auditorEnv, auditorId, port, options } = input;
  const endpoint = endpointOf(auditorEnv, port);
  return selfRegister({
    gatewayUrl: auditorEnv.gatewayUrl,
    registration: {
      auditor_id: auditorId,
      endpoint,
      vocabulary_url: `${endpoint}/vocabulary`,
      health_check_interval: 30,
      supported_phases: [...def.phases],
    },
    ...(auditorEnv.apiKey ? { apiKey: auditorEnv.apiKey } : {}),
    signal: input.signal,
    ...(options.registerInitialDelayMs ? { initialDelayMs: options.registerInitialDelayMs } : {}),
    log: options.log,
  });
}

/** Starts an auditor server; the building block of `serveAuditor`, also used by tests and benchmarks. */
export async function startAuditor(def: AuditorDefinition, options: StartOptions): Promise<RunningAuditor> {
  const { log, env } = options;
  const { auditorEnv, table, configuration } = prepare(def, env, options.flags ?? {});
  const auditorId = auditorEnv.auditorId ?? def.id;
  const engine = createEngine({
    def,
    auditorId,
    timeoutMs: auditorEnv.timeoutMs,
    maxConcurrent: auditorEnv.maxConcurrent,
    settings: table,
    configuration,
    extraProvenance: teeProvenance(auditorEnv),
    onInternalError: (err, problems) =>
      log.error({ err, problems }, 'claims request failed inside the auditor'),
  });
  const metrics = createAuditorMetrics(auditorId);
  const state: ReadyState = { ready: false };
  const vocabulary = vocabularyDeclaration(def, auditorId);
  const listener = createRequestListener(
    {
      engine,
      metrics,
      state,
      vocabulary,
      maxBodyBytes: auditorEnv.maxBodyBytes,
      maxDepth: DEFAULT_MAX_DEPTH,
      maxBatchItems: 100,
    },
    (err) => log.error({ err }, 'request handling failed'),
  );
  const server = createServer(listener);
  server.requestTimeout = auditorEnv.timeoutMs + 30_000;
  const port = await listen(server, auditorEnv.port, auditorEnv.host);
  const shownHost = shownHostOf(auditorEnv.host);
  log.info({ auditorId, version: def.version, port, host: auditorEnv.host }, 'auditor listening');

  const runtime: AuditorRuntime = {
    env,
    timeoutMs: auditorEnv.timeoutMs,
    log,
    config: <T extends SettingValue>(key: string) => configuration[key] as T,
  };
  const loaded = load(def, runtime, state, log);
  const stopRegistering = new AbortController();
  const registration = auditorEnv.register
    ? startRegistration({ def, auditorEnv, auditorId, port, options, signal: stopRegistering.signal })
    : undefined;
  const close = async (): Promise<void> => {
    stopRegistering.abort();
    await closeGracefully(server, HTTP_GRACE_MS);
    await registration;
  };
  const running: RunningAuditor = { port, url: `http://${shownHost}:${port}`, state, loaded, close };
  if (registration) running.registration = registration;
  return running;
}

/** `platform run auditor <name>`: starts the auditor and registers its graceful stop. */
export async function serveAuditor(def: AuditorDefinition, context: RoleContext): Promise<void> {
  const running = await startAuditor(def, { log: context.log, env: context.env, flags: context.flags });
  context.lifecycle.onStop(`auditor ${def.id} http server`, () => running.close());
}
