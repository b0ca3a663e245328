// Counts every request a KubeConfig's clients send: client-node 1.x calls
// `applySecurityAuthentication` once per API call and `applyToFetchOptions`
// once per watch, on the KubeConfig instance, so wrapping both counts them all
// (the benchmark's "API requests per agent" comes from here). Every role that
// talks to the API also counts `rest_client_requests_total` by response code
// (`countRestClientRequests`, below).
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import type * as k8s from '@kubernetes/client-node';
import type { ControllerMetrics } from './metrics.ts';
import type { RestClientRequests } from './standard-metrics.ts';

type ApplyAuth = k8s.KubeConfig['applySecurityAuthentication'];
type ApplyFetch = k8s.KubeConfig['applyToFetchOptions'];

/** The resource a request URL addresses (`pods`, `platformagents`, `namespaces`…), for a bounded label. */
export function resourceOf(url: string): string {
  const path = url.replace(/^[a-z]+:\/\/[^/]+/, '').split('?')[0] ?? '';
  const parts = path.split('/').filter(Boolean);
  const ns = parts.indexOf('namespaces');
  if (ns >= 0 && parts.length > ns + 2) return parts[ns + 2] ?? 'unknown';
  if (ns >= 0) return 'namespaces';
  const start = parts[0] === 'api' ? 2 : 3; // /api/v1/<r> or /apis/<group>/<version>/<r>
  return parts[start] ?? 'unknown';
}

export function countApiRequests(kc: k8s.KubeConfig, metrics: ControllerMetrics): void {
  const applyAuth: ApplyAuth = kc.applySecurityAuthentication.bind(kc);
  const applyFetch: ApplyFetch = kc.applyToFetchOptions.bind(kc);
  kc.applySecurityAuthentication = (context) => {
    metrics.apiRequests.inc({
      method: String(context.getHttpMethod()),
      resource: resourceOf(context.getUrl()),
    });
    return applyAuth(context);
  };
  kc.applyToFetchOptions = (opts) => {
    metrics.apiRequests.inc({ method: 'WATCH', resource: 'watch' });
    return applyFetch(opts);
  };
}

type CreateAgent = (cluster: k8s.Cluster | null, options: Record<string, unknown>) => Agent;
type AddRequest = (req: ClientRequest, options: Record<string, unknown>) => void;

/** The `host` label: the request's Host header (host:port), as client-go's `req.URL().Host`. */
function hostOf(req: ClientRequest): string {
  const header = req.getHeader('host');
  return typeof header === 'string' && header !== '' ? header : req.host;
}

/** Counts each request the agent sends, by the status of its response (`<error>` when none came). */
function countThrough(agent: Agent, counter: RestClientRequests, counted: WeakSet<Agent>): void {
  if (counted.has(agent)) return;
  counted.add(agent);
  const target = agent as unknown as { addRequest: AddRequest };
  const addRequest = target.addRequest.bind(agent);
  target.addRequest = (req, options) => {
    let seen = false;
    const count = (code: string): void => {
      if (seen) return;
      seen = true;
      counter.inc({ code, method: req.method, host: hostOf(req) });
    };
    req.once('response', (res: IncomingMessage) => count(String(res.statusCode ?? '<error>')));
    req.once('error', () => count('<error>'));
    addRequest(req, options);
  };
}

/**
 * `rest_client_requests_total{code,method,host}` for every request a
 * KubeConfig's clients send, watches included: client-node hands each request
 * an agent from `createAgent` (connection-reuse.ts may cache them), and the
 * agent sees the request and its response.
 */
export function countRestClientRequests(kc: k8s.KubeConfig, counter: RestClientRequests): void {
  const target = kc as unknown as { createAgent: CreateAgent };
  const create = target.createAgent.bind(kc);
  const counted = new WeakSet<Agent>();
  target.createAgent = (cluster, options) => {
    const agent = create(cluster, options);
    countThrough(agent, counter, counted);
    return agent;
  };
}
