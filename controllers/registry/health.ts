// The pure part of registry health checks (decisions 114, 128): where an
// auditor's health is probed (the auditor contract's GET /health) and a
// model's (GET /models of its OpenAI-compatible base URL), what a probe's
// answer means, the `Healthy` condition, and when the next probe is due. The
// probe itself sits behind `HealthProbe`, so this module never does I/O.
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import type { EndpointRequest, RegistrationAuth } from '../../base/registry-auth.ts';
import { notReady, ready, readyCondition, readyFrom } from '../common/ready.ts';

/** The CRD's default of `spec.healthCheckIntervalSeconds`. */
export const DEFAULT_HEALTH_INTERVAL_SECONDS = 30;
/** A probe never waits longer than this, nor longer than the interval. */
export const MAX_PROBE_TIMEOUT_MS = 10_000;
const MAX_DETAIL = 1024;

/** What a GET of the health URL gave: an HTTP answer (body parsed as JSON if it was) or a failure. */
export type ProbeResult =
  { kind: 'answer'; status: number; body: unknown } | { kind: 'failed'; error: string };

export interface HealthProbe {
  get(url: string, request: EndpointRequest, timeoutMs: number): Promise<ProbeResult>;
}

/** What the probe reads of an AuditorRegistration or a ModelRegistration. */
export interface ProbedRegistration {
  metadata: { name?: string; generation?: number };
  spec: {
    endpoint?: string;
    healthCheckIntervalSeconds?: number;
    workspaces?: string[];
    auth?: RegistrationAuth;
  };
  status?: { observedGeneration?: number; health?: { checkedAt?: string } };
}

/** Where a kind is probed and what a good answer is. */
export interface ProbeRule {
  path: string;
  /** Why the answer is not healthy; undefined when it is. */
  problem(status: number, body: unknown): string | undefined;
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
export const inWatchScope = (workspaces: readonly string[], watchNamespace: string | undefined): boolean =>
  !watchNamespace || workspaces.includes(watchNamespace);

/** A model states no interval: the auditors' default. */
export const intervalMs = (reg: ProbedRegistration): number =>
  (reg.spec.healthCheckIntervalSeconds ?? DEFAULT_HEALTH_INTERVAL_SECONDS) * 1000;

export const probeTimeoutMs = (reg: ProbedRegistration): number =>
  Math.min(intervalMs(reg), MAX_PROBE_TIMEOUT_MS);

/** `https://a.example/base/` → `https://a.example/base/health`; undefined without a usable endpoint. */
export function healthUrl(reg: ProbedRegistration, path = AUDITOR_PROBE.path): string | undefined {
  const endpoint = reg.spec.endpoint;
  if (!endpoint) return undefined;
  try {
    const url = new URL(endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
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

/** An auditor's GET /health: the contract's `healthy` and the troubleshooting step's `ok` both count. */
export const AUDITOR_PROBE: ProbeRule = {
  path: '/health',
  problem(status, body) {
    if (status !== 200) return `GET /health answered HTTP ${status}`;
    const said = field(body, 'status');
    if (said !== 'healthy' && said !== 'ok')
      return `GET /health answered status ${JSON.stringify(said ?? null)}`;
    if (field(body, 'ready') === false) return 'GET /health answered ready: false';
    return undefined;
  },
};

/** A model's GET /models (decision 128): the OpenAI-compatible list, `{data: [...]}`. */
export const MODEL_PROBE: ProbeRule = {
  path: '/models',
  problem(status, body) {
    if (status !== 200) return `GET /models answered HTTP ${status}`;
    if (!Array.isArray(field(body, 'data'))) return 'GET /models answered no model list (data[])';
    return undefined;
  },
};

export function healthFromProbe(result: ProbeResult, now: Date, rule: ProbeRule = AUDITOR_PROBE): Health {
  const checkedAt = now.toISOString();
  if (result.kind === 'failed') {
    return { status: 'unhealthy', checkedAt, detail: clean(`GET ${rule.path} failed: ${result.error}`) };
  }
  const problem = rule.problem(result.status, result.body);
  return problem
    ? { status: 'unhealthy', checkedAt, detail: clean(problem) }
    : { status: 'healthy', checkedAt, detail: `GET ${rule.path} answered healthy` };
}

export function healthCondition(health: Health): DesiredCondition {
  return health.status === 'healthy'
    ? { type: 'Healthy', status: 'True', reason: 'ProbeSucceeded', message: health.detail }
    : { type: 'Healthy', status: 'False', reason: 'ProbeFailed', message: health.detail };
}

/**
 * Ready of a registration: with an endpoint, what its last probe said (Ready
 * follows Healthy); without one it is a sidecar, which the kubelet probes in
 * each agent pod, so Ready; an endpoint that is no http(s) URL never will be.
 */
export function registrationReady(
  reg: ProbedRegistration,
  health: Health | undefined,
  path: string,
): DesiredCondition {
  if (!reg.spec.endpoint) {
    return ready('Sidecar', 'runs as a sidecar in each agent pod; the kubelet probes it there');
  }
  if (!healthUrl(reg, path)) {
    return notReady('InvalidEndpoint', `endpoint ${clean(reg.spec.endpoint)} is not an http(s) URL`);
  }
  if (!health) return readyCondition('Unknown', 'NotProbed', `GET ${path} has not been probed yet`);
  return readyFrom(healthCondition(health));
}

/**
 * How long until the next probe is due: now when never probed or when the
 * spec changed since (a new endpoint or interval), else the rest of the
 * interval since the last probe. Status writes wake the controller too; this
 * keeps them from probing early.
 */
export function probeDueInMs(reg: ProbedRegistration, now: Date): number {
  const last = reg.status?.health?.checkedAt;
  if (!last || reg.status?.observedGeneration !== reg.metadata?.generation) return 0;
  const elapsed = now.getTime() - Date.parse(last);
  if (!Number.isFinite(elapsed) || elapsed < 0) return 0;
  return Math.max(0, intervalMs(reg) - elapsed);
}
