// The proxy's Prometheus metrics, in the role's registry. Labels are bounded
// sets (kind, outcome, direction); destinations go to the log, never to a
// label, so an agent cannot blow up the series count.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export type Outcome =
  /** Tunnel or request relayed and closed normally. */
  | 'ok'
  /** /healthz, /readyz or /metrics answered here. */
  | 'local'
  | 'upstream-error'
  | 'denied'
  | 'bad-request'
  | 'no-sni'
  | 'malformed'
  | 'unsupported'
  | 'timeout'
  | 'too-large'
  | 'client-closed'
  | 'loop'
  | 'idle-timeout'
  | 'shutdown'
  | 'over-limit'
  /** A bug: the handler threw. */
  | 'error';

export type MetricKind = 'tls' | 'connect' | 'http' | 'local' | 'unknown';

export interface ProxyMetrics {
  connections: Counter<'kind' | 'outcome'>;
  bytes: Counter<'direction'>;
  connectSeconds: Histogram<'kind'>;
  active: Gauge;
}

export function proxyMetrics(registry: Registry): ProxyMetrics {
  return {
    connections: new Counter({
      name: 'platform_proxy_connections_total',
      help: 'Client connections by how they reached the proxy and how they ended',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
    bytes: new Counter({
      name: 'platform_proxy_bytes_total',
      help: 'Bytes relayed: up (client to destination) and down (destination to client)',
      labelNames: ['direction'],
      registers: [registry],
    }),
    connectSeconds: new Histogram({
      name: 'platform_proxy_upstream_connect_seconds',
      help: 'Time to open the upstream connection (DNS and TCP)',
      labelNames: ['kind'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    active: new Gauge({
      name: 'platform_proxy_active_connections',
      help: 'Client connections open now',
      registers: [registry],
    }),
  };
}
