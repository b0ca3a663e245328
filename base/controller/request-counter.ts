// Counts every request a KubeConfig's clients send: client-node 1.x calls
// `applySecurityAuthentication` once per API call and `applyToFetchOptions`
// once per watch, on the KubeConfig instance, so wrapping both counts them all
// (the benchmark's "API requests per agent" comes from here).
import type * as k8s from '@kubernetes/client-node';
import type { ControllerMetrics } from './metrics.ts';

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
