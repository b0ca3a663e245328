// Prometheus metrics of an auditor (spec: GET /metrics): claims produced per
// claim name, answers per endpoint and error code, and a latency histogram.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ClaimsResponse } from './types.ts';

export interface AuditorMetrics {
  registry: Registry;
  /** Records one `/claims` answer (or one `/batch` item) and its latency. */
  observe(endpoint: 'claims' | 'batch', response: ClaimsResponse, seconds: number): void;
  inflight: Gauge;
}

export function createAuditorMetrics(auditorId: string): AuditorMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ role: 'auditor', auditor: auditorId });
  collectDefaultMetrics({ register: registry });
  const claims = new Counter({
    name: 'auditor_claims_total',
    help: 'Claims produced, by claim name.',
    labelNames: ['claim'],
    registers: [registry],
  });
  const answers = new Counter({
    name: 'auditor_requests_total',
    help: 'Answers by endpoint, status and error code.',
    labelNames: ['endpoint', 'status', 'code'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'auditor_request_duration_seconds',
    help: 'Time to answer, by endpoint.',
    labelNames: ['endpoint'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const inflight = new Gauge({
    name: 'auditor_inflight_requests',
    help: 'Requests being processed.',
    registers: [registry],
  });
  return {
    registry,
    inflight,
    observe: (endpoint, response, seconds) => {
      const code = response.status === 'error' ? response.error.code : '';
      answers.inc({ endpoint, status: response.status, code });
      latency.observe({ endpoint }, seconds);
      for (const claim of response.claims) claims.inc({ claim: claim.name });
    },
  };
}
