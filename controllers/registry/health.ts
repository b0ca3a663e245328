// The pure part of registry health checks (decision 114): where an auditor's
// health is probed (the auditor contract's GET /health), what a probe's answer
// means, the `Healthy` condition, and when the next probe is due. The probe
// itself sits behind `HealthProbe`, so this module never does I/O.
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';

/** The CRD's default of `spec.healthCheckIntervalSeconds`. */
export const DEFAULT_HEALTH_INTERVAL_SECONDS = 30;
/** A probe never waits longer than this, nor longer than the interval. */
export const MAX_PROBE_TIMEOUT_MS = 10_000;
const MAX_DETAIL = 1024;

/** What a GET of the health URL gave: an HTTP answer (body parsed as JSON if it was) or a failure. */
export type ProbeResult =
  { kind: 'answer'; status: number; body: unknown } | { kind: 'failed'; error: string };

export interface HealthProbe {
  get(url: string, timeoutMs: number): Promise<ProbeResult>;
}

export interface Health {
  status: 'healthy' | 'unhealthy';
  checkedAt: string;
  detail: string;
}

/**
 * An operator limited to one namespace (PLATFORM_WATCH_NAMESPACE) probes only
 * the registrations made for that workspace; cluster-wide ones belong to the
 * cluster-wide operator.
 */
export const inWatchScope = (reg: AuditorRegistration, watchNamespace: string | undefined): boolean =>
  !watchNamespace || (reg.spec.workspaces ?? []).includes(watchNamespace);

export const intervalMs = (reg: AuditorRegistration): number =>
  (reg.spec.healthCheckIntervalSeconds ?? DEFAULT_HEALTH_INTERVAL_SECONDS) * 1000;

export const probeTimeoutMs = (reg: AuditorRegistration): number =>
  Math.min(intervalMs(reg), MAX_PROBE_TIMEOUT_MS);

/** `https://a.example/base/` → `https://a.example/base/health`; undefined without a usable endpoint. */
export function healthUrl(reg: AuditorRegistration): string | undefined {
  const endpoint = reg.spec.endpoint;
  if (!endpoint) return undefined;
  try {
    const url = new URL(endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/health`;
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return undefined;
  }
}

/** Control characters out (the CRD's free-text pattern), bounded length. */
const clean = (s: string): string =>
  // eslint-disable-next-line no-control-regex
  s.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ').slice(0, MAX_DETAIL);

const field = (body: unknown, key: string): unknown =>
  body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;

/** Why the answer is not healthy; undefined when it is. The contract's `healthy` and the troubleshooting step's `ok` both count. */
function answerProblem(status: number, body: unknown): string | undefined {
  if (status !== 200) return `GET /health answered HTTP ${status}`;
  const said = field(body, 'status');
  if (said !== 'healthy' && said !== 'ok')
    return `GET /health answered status ${JSON.stringify(said ?? null)}`;
  if (field(body, 'ready') === false) return 'GET /health answered ready: false';
  return undefined;
}

export function healthFromProbe(result: ProbeResult, now: Date): Health {
  const checkedAt = now.toISOString();
  if (result.kind === 'failed') {
    return { status: 'unhealthy', checkedAt, detail: clean(`GET /health failed: ${result.error}`) };
  }
  const problem = answerProblem(result.status, result.body);
  return problem
    ? { status: 'unhealthy', checkedAt, detail: clean(problem) }
    : { status: 'healthy', checkedAt, detail: 'GET /health answered healthy' };
}

export function healthCondition(health: Health): DesiredCondition {
  return health.status === 'healthy'
    ? { type: 'Healthy', status: 'True', reason: 'ProbeSucceeded', message: health.detail }
    : { type: 'Healthy', status: 'False', reason: 'ProbeFailed', message: health.detail };
}

/**
 * How long until the next probe is due: now when never probed or when the
 * spec changed since (a new endpoint or interval), else the rest of the
 * interval since the last probe. Status writes wake the controller too; this
 * keeps them from probing early.
 */
export function probeDueInMs(reg: AuditorRegistration, now: Date): number {
  const last = reg.status?.health?.checkedAt;
  if (!last || reg.status?.observedGeneration !== reg.metadata?.generation) return 0;
  const elapsed = now.getTime() - Date.parse(last);
  if (!Number.isFinite(elapsed) || elapsed < 0) return 0;
  return Math.max(0, intervalMs(reg) - elapsed);
}
