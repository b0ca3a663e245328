// Request metrics of the API role.
import { Counter, Histogram, type Registry } from 'prom-client';

export class ApiMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;
  readonly authFailures: Counter<'reason'>;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'platform_api_requests_total',
      help: 'API requests by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'platform_api_request_duration_seconds',
      help: 'API request duration',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    this.authFailures = new Counter({
      name: 'platform_api_auth_failures_total',
      help: 'Rejected credentials by reason',
      labelNames: ['reason'],
      registers: [registry],
    });
  }

  observe(method: string, route: string, status: number, ms: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.duration.observe({ method, route }, ms / 1000);
  }
}
