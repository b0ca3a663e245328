// Prometheus metrics of the controller layer, registered once per registry.
// Gauges that mirror live state (queue depth, informer age) are sampled at
// scrape time from the sources registered with `track*`. Beside the
// `platform_*` series, the standard ones of controller-runtime and client-go
// (standard-metrics.ts).
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import {
  leaderStatusMetric,
  ReconcileSeries,
  restClientRequestsMetric,
  WorkQueueSeries,
  type LeaderStatus,
  type RestClientRequests,
  type TimedQueueSource,
} from './standard-metrics.ts';

export interface QueueSource extends TimedQueueSource {
  readonly inFlight: number;
}

/** How one reconcile ended: `requeue` is a success with `requeueAfterMs`. */
export type ReconcileOutcome = 'success' | 'requeue' | 'error';

export interface InformerSource {
  readonly resource: string;
  isSynced(): boolean;
  lastEventAgeMs(): number;
}

export class ControllerMetrics {
  readonly reconciles: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  readonly reconcileDuration: Histogram<'controller'>;
  readonly statusWrites: Counter<'controller' | 'outcome'>;
  readonly events: Counter<'controller' | 'reason'>;
  readonly objectWrites: Counter<'controller' | 'kind' | 'verb'>;
  readonly apiRequests: Counter<'method' | 'resource'>;
  readonly informerRestarts: Counter<'resource' | 'cause'>;
  readonly leaderTransitions: Counter;
  /** `workqueue_*`, label `name` = the controller. */
  readonly workqueue: WorkQueueSeries;
  /** `controller_runtime_reconcile_*`. */
  readonly reconcile: ReconcileSeries;
  /** `leader_election_master_status{name}`. */
  readonly leaderStatus: LeaderStatus;
  /** `rest_client_requests_total{code,method,host}` (request-counter.ts). */
  readonly restClient: RestClientRequests;
  private readonly leaderGauge: Gauge;
  private readonly queues = new Map<string, QueueSource>();
  private readonly informers = new Set<InformerSource>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.workqueue = new WorkQueueSeries(registers, this.queues);
    this.reconcile = new ReconcileSeries(registers);
    this.leaderStatus = leaderStatusMetric(registry);
    this.restClient = restClientRequestsMetric(registry);
    this.reconciles = new Counter({
      name: 'platform_controller_reconcile_total',
      help: 'Reconciles by controller and result (success, requeue, error).',
      labelNames: ['controller', 'result'],
      registers,
    });
    this.reconcileErrors = new Counter({
      name: 'platform_controller_reconcile_errors_total',
      help: 'Reconciles that threw and were re-queued with backoff.',
      labelNames: ['controller'],
      registers,
    });
    this.reconcileDuration = new Histogram({
      name: 'platform_controller_reconcile_duration_seconds',
      help: 'Time spent in one reconcile.',
      labelNames: ['controller'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.statusWrites = new Counter({
      name: 'platform_controller_status_writes_total',
      help: 'Status subresource writes (outcome written) and writes avoided because nothing changed (outcome unchanged).',
      labelNames: ['controller', 'outcome'],
      registers,
    });
    this.events = new Counter({
      name: 'platform_controller_events_total',
      help: 'Kubernetes Events emitted by reason.',
      labelNames: ['controller', 'reason'],
      registers,
    });
    this.objectWrites = new Counter({
      name: 'platform_controller_object_writes_total',
      help: 'Creates, patches and deletes of owned objects (pods, ServiceAccounts, Secrets, ConfigMaps, agents…).',
      labelNames: ['controller', 'kind', 'verb'],
      registers,
    });
    const process = processMetrics(registers);
    this.apiRequests = process.apiRequests;
    this.informerRestarts = process.informerRestarts;
    this.leaderTransitions = process.leaderTransitions;
    this.leaderGauge = process.leaderGauge;
    this.leaderGauge.set(0);
    this.registerSampledGauges(registers);
  }

  setLeader(leading: boolean): void {
    this.leaderGauge.set(leading ? 1 : 0);
    this.leaderTransitions.inc();
  }

  /** One reconcile, in the `platform_controller_*` and the `controller_runtime_*` series. */
  recordReconcile(controller: string, outcome: ReconcileOutcome, seconds: number): void {
    this.reconciles.inc({ controller, result: outcome });
    if (outcome === 'error') this.reconcileErrors.inc({ controller });
    this.reconcileDuration.observe({ controller }, seconds);
    this.reconcile.record(controller, outcome === 'requeue' ? 'requeue_after' : outcome, seconds);
  }

  trackQueue(controller: string, queue: QueueSource): void {
    this.queues.set(controller, queue);
    this.reconcile.initialize(controller);
  }

  trackInformer(informer: InformerSource): void {
    this.informers.add(informer);
  }

  untrackInformer(informer: InformerSource): void {
    this.informers.delete(informer);
  }

  private registerSampledGauges(registers: Registry[]): void {
    const queues = this.queues;
    const informers = this.informers;
    new Gauge({
      name: 'platform_controller_queue_depth',
      help: 'Items waiting in the work queue.',
      labelNames: ['controller'],
      registers,
      collect() {
        this.reset();
        for (const [controller, q] of queues) this.set({ controller }, q.length);
      },
    });
    new Gauge({
      name: 'platform_controller_in_flight',
      help: 'Items being reconciled now.',
      labelNames: ['controller'],
      registers,
      collect() {
        this.reset();
        for (const [controller, q] of queues) this.set({ controller }, q.inFlight);
      },
    });
    new Gauge({
      name: 'platform_informer_last_event_age_seconds',
      help: 'Seconds since the informer last saw a watch event or completed a list.',
      labelNames: ['resource'],
      registers,
      collect() {
        this.reset();
        for (const i of informers) this.set({ resource: i.resource }, i.lastEventAgeMs() / 1000);
      },
    });
    new Gauge({
      name: 'platform_informer_synced',
      help: '1 when the informer has completed its list and is watching.',
      labelNames: ['resource'],
      registers,
      collect() {
        this.reset();
        for (const i of informers) this.set({ resource: i.resource }, i.isSynced() ? 1 : 0);
      },
    });
  }
}

/** What the process as a whole reports: its API requests, informer restarts and leadership. */
function processMetrics(registers: Registry[]): {
  apiRequests: Counter<'method' | 'resource'>;
  informerRestarts: Counter<'resource' | 'cause'>;
  leaderTransitions: Counter;
  leaderGauge: Gauge;
} {
  const apiRequests = new Counter({
    name: 'platform_operator_api_requests_total',
    help: 'Requests this process sent to the Kubernetes API (watches counted once, when opened).',
    labelNames: ['method', 'resource'],
    registers,
  });
  const informerRestarts = new Counter({
    name: 'platform_informer_restarts_total',
    help: 'Informer restarts by cause (error, relist, stale).',
    labelNames: ['resource', 'cause'],
    registers,
  });
  const leaderTransitions = new Counter({
    name: 'platform_leader_transitions_total',
    help: 'Times this process became or stopped being the leader.',
    registers,
  });
  const leaderGauge = new Gauge({
    name: 'platform_leader_is_leader',
    help: '1 while this process holds the lease.',
    registers,
  });
  return { apiRequests, informerRestarts, leaderTransitions, leaderGauge };
}
