// Prometheus metrics of the webhook role: admission outcomes with the reason
// code, request latency, notarization lookups and certificate expiry; and the
// standard `leader_election_master_status` and `rest_client_requests_total`.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import {
  leaderStatusMetric,
  restClientRequestsMetric,
  type LeaderStatus,
  type RestClientRequests,
} from '../base/controller/standard-metrics.ts';

export class WebhookMetrics {
  readonly mutations: Counter<'result' | 'reason'>;
  readonly validations: Counter<'result'>;
  readonly requestSeconds: Histogram<'path' | 'code'>;
  readonly notaryLookups: Counter<'result'>;
  readonly certExpiry: Gauge<'certificate'>;
  readonly leaderStatus: LeaderStatus;
  readonly restClient: RestClientRequests;

  constructor(registry: Registry) {
    const registers = [registry];
    this.leaderStatus = leaderStatusMetric(registry);
    this.restClient = restClientRequestsMetric(registry);
    this.mutations = new Counter({
      name: 'platform_webhook_mutations_total',
      help: 'Pods seen by /mutate by result (injected, skipped, invalid, error) and reason code',
      labelNames: ['result', 'reason'],
      registers,
    });
    this.validations = new Counter({
      name: 'platform_webhook_validations_total',
      help: 'Objects seen by /validate (pods) and /validate-policy (AuditorPolicies) by result (allowed, warned, denied, error)',
      labelNames: ['result'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'platform_webhook_request_duration_seconds',
      help: 'Admission request handling time by path and HTTP status (client_closed: the client left before the answer)',
      labelNames: ['path', 'code'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1, 5],
      registers,
    });
    this.notaryLookups = new Counter({
      name: 'platform_webhook_notary_lookups_total',
      help: 'Verifier registry checks by result (notarized, not-notarized, error, cached)',
      labelNames: ['result'],
      registers,
    });
    this.certExpiry = new Gauge({
      name: 'platform_webhook_certificate_expiry_timestamp_seconds',
      help: 'notAfter of the webhook CA and serving certificate, Unix seconds',
      labelNames: ['certificate'],
      registers,
    });
  }
}
