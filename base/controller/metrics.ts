// Prometheus metrics of the controller layer, registered once per registry.
// Gauges that mirror live state (queue depth, informer age) are sampled at
// scrape time from the sources registered with `track*`.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface QueueSource {
  readonly length: number;
  readonly inFlight: number;
}

export interface InformerSource {
  readonly resource: string;
  isSynced(): boolean;
  lastEventAgeMs(): number;
}

/** Leader election: how often leadership changed, and whether this process leads (0 until it does). */
function leaderMetrics(registers: Registry[]): { transitions: Counter; isLeader: Gauge } {
  const transitions = new Counter({
    name: 'platform_leader_transitions_total',
    help: 'Times this process became or stopped being the leader.',
    registers,
  });
  const isLeader = new Gauge({
    name: 'platform_leader_is_leader',
    help: '1 while this process holds the lease.',
    registers,
  });
  isLeader.set(0);
  return { transitions, isLeader };
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
  private readonly leaderGauge: Gauge;
  private readonly queues = new Map<string, QueueSource>();
  private readonly informers = new Set<InformerSource>();

  constructor(registry: Registry) {
    const registers = [registry];
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
    this.apiRequests = new Counter({
      name: 'platform_operator_api_requests_total',
      help: 'Requests this process sent to the Kubernetes API (watches counted once, when opened).',
      labelNames: ['method', 'resource'],
      registers,
    });
    this.informerRestarts = new Counter({
      name: 'platform_informer_restarts_total',
      help: 'Informer restarts by cause (error, relist, stale).',
      labelNames: ['resource', 'cause'],
      registers,
    });
    ({ transitions: this.leaderTransitions, isLeader: this.leaderGauge } = leaderMetrics(registers));
    this.registerSampledGauges(registers);
  }

  setLeader(leading: boolean): void {
    this.leaderGauge.set(leading ? 1 : 0);
    this.leaderTransitions.inc();
  }

  trackQueue(controller: string, queue: QueueSource): void {
    this.queues.set(controller, queue);
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
