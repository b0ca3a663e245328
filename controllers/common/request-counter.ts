// Counts every request a KubeConfig's clients send: client-node 1.x calls
// `applySecurityAuthentication` once per API call and `applyToFetchOptions`
// once per watch, on the KubeConfig instance, so wrapping both counts them all
// (the benchmark's "API requests per agent" comes from here).
import type * as k8s from '@kubernetes/client-node';
import type { ControllerMetrics } from '../runtime/metrics.ts';

type ApplyAuth = k8s.KubeConfig['applySecurityAuthentication'];
type ApplyFetch = k8s.KubeConfig['applyToFetchOptions'];

export function countApiRequests(kc: k8s.KubeConfig, metrics: ControllerMetrics): void {
  const applyAuth: ApplyAuth = kc.applySecurityAuthentication.bind(kc);
  const applyFetch: ApplyFetch = kc.applyToFetchOptions.bind(kc);
  kc.applySecurityAuthentication = (context) => {
    metrics.apiRequests.inc({ method: String(context.getHttpMethod()) });
    return applyAuth(context);
  };
  kc.applyToFetchOptions = (opts) => {
    metrics.apiRequests.inc({ method: 'WATCH' });
    return applyFetch(opts);
  };
}
