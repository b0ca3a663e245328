// The series controller-runtime and client-go publish, under their names and
// labels, so dashboards and alerts written for Go operators work unchanged:
// `workqueue_*` (label `name`: the controller), `controller_runtime_reconcile_*`,
// `leader_election_master_status` and `rest_client_requests_total`. They sit
// beside the `platform_*` series (metrics.ts), which stay as documented.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { QueueMetricsSink } from './queue-timing.ts';

/** A queue as the scrape-time gauges read it. */
export interface TimedQueueSource {
  readonly length: number;
  unfinishedWorkSeconds(): number;
  longestRunningProcessorSeconds(): number;
}

/** client-go's work-queue buckets: 10 ns to 10 s, ×10 each. */
const QUEUE_BUCKETS = Array.from({ length: 10 }, (_, i) => 1e-8 * 10 ** i);
/** controller-runtime's reconcile_time_seconds buckets. */
const RECONCILE_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5,
  1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/** controller-runtime's result label values. */
export const RECONCILE_RESULTS = ['success', 'error', 'requeue', 'requeue_after'] as const;
export type ReconcileResultLabel = (typeof RECONCILE_RESULTS)[number];

/** A sampled gauge labelled by queue name. */
function queueGauge(
  registers: Registry[],
  queues: ReadonlyMap<string, TimedQueueSource>,
  spec: { name: string; help: string; read: (q: TimedQueueSource) => number },
): void {
  new Gauge({
    name: spec.name,
    help: spec.help,
    labelNames: ['name'],
    registers,
    collect() {
      this.reset();
      for (const [name, q] of queues) this.set({ name }, spec.read(q));
    },
  });
}

export class WorkQueueSeries {
  private readonly adds: Counter<'name'>;
  private readonly retries: Counter<'name'>;
  private readonly queueDuration: Histogram<'name'>;
  private readonly workDuration: Histogram<'name'>;

  constructor(registers: Registry[], queues: ReadonlyMap<string, TimedQueueSource>) {
    const counter = (name: string, help: string): Counter<'name'> =>
      new Counter({ name, help, labelNames: ['name'], registers });
    const histogram = (name: string, help: string): Histogram<'name'> =>
      new Histogram({ name, help, labelNames: ['name'], buckets: QUEUE_BUCKETS, registers });
    this.adds = counter('workqueue_adds_total', 'Total number of adds handled by workqueue');
    this.retries = counter('workqueue_retries_total', 'Total number of retries handled by workqueue');
    this.queueDuration = histogram(
      'workqueue_queue_duration_seconds',
      'How long in seconds an item stays in workqueue before being requested',
    );
    this.workDuration = histogram(
      'workqueue_work_duration_seconds',
      'How long in seconds processing an item from workqueue takes',
    );
    queueGauge(registers, queues, {
      name: 'workqueue_depth',
      help: 'Current depth of workqueue',
      read: (q) => q.length,
    });
    queueGauge(registers, queues, {
      name: 'workqueue_unfinished_work_seconds',
      help: 'How many seconds of work has been done that is in progress and hasn’t been observed by work_duration',
      read: (q) => q.unfinishedWorkSeconds(),
    });
    queueGauge(registers, queues, {
      name: 'workqueue_longest_running_processor_seconds',
      help: 'How many seconds has the longest running processor for workqueue been running',
      read: (q) => q.longestRunningProcessorSeconds(),
    });
  }

  /** The sink one controller's queue reports to; its counters start at 0 so rates exist from the first scrape. */
  sink(name: string): QueueMetricsSink {
    this.adds.inc({ name }, 0);
    this.retries.inc({ name }, 0);
    return {
      added: () => this.adds.inc({ name }),
      retried: () => this.retries.inc({ name }),
      queued: (seconds) => this.queueDuration.observe({ name }, seconds),
      worked: (seconds) => this.workDuration.observe({ name }, seconds),
    };
  }
}

export class ReconcileSeries {
  readonly total: Counter<'controller' | 'result'>;
  readonly errors: Counter<'controller'>;
  readonly time: Histogram<'controller'>;

  constructor(registers: Registry[]) {
    this.total = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers,
    });
    this.errors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    });
    this.time = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      buckets: RECONCILE_BUCKETS,
      registers,
    });
  }

  /** Every result of `controller` at 0, as controller-runtime does when a controller starts. */
  initialize(controller: string): void {
    for (const result of RECONCILE_RESULTS) this.total.inc({ controller, result }, 0);
    this.errors.inc({ controller }, 0);
  }

  record(controller: string, result: ReconcileResultLabel, seconds: number): void {
    this.total.inc({ controller, result });
    if (result === 'error') this.errors.inc({ controller });
    this.time.observe({ controller }, seconds);
  }
}

/** Whether this process leads the lease `name` (1) or not (0). */
export interface LeaderStatus {
  set(name: string, leading: boolean): void;
}

export function leaderStatusMetric(registry: Registry): LeaderStatus {
  const gauge = new Gauge({
    name: 'leader_election_master_status',
    help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.",
    labelNames: ['name'],
    registers: [registry],
  });
  return { set: (name, leading) => gauge.set({ name }, leading ? 1 : 0) };
}

export type RestClientRequests = Counter<'code' | 'method' | 'host'>;

/** Requests to the Kubernetes API by HTTP status code (`<error>` when none came), method and host. */
export function restClientRequestsMetric(registry: Registry): RestClientRequests {
  return new Counter({
    name: 'rest_client_requests_total',
    help: 'Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: ['code', 'method', 'host'],
    registers: [registry],
  });
}
