// Ties informers to a work queue and a reconcile function. Every informer
// event enqueues the key of the object it maps to; workers take keys one at a
// time per key and call `reconcile(key)`. A result with `requeueAfterMs`
// schedules the key again (deadlines such as TTLs, never polling); a thrown
// error re-queues with per-item exponential backoff; success forgets the
// backoff. A periodic resync re-enqueues every cached key.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from '../log.ts';
import type { ChangeFilter } from './filters.ts';
import type { InformerEventType, ResilientInformer } from './informer.ts';
import { objectKey } from './keys.ts';
import type { ControllerMetrics, ReconcileOutcome } from './metrics.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { WorkQueue } from './work-queue.ts';

export interface ReconcileResult {
  /** Reconcile this key again after this long (e.g. when a TTL elapses). */
  requeueAfterMs?: number;
}

export type Reconcile = (key: string) => Promise<ReconcileResult | void>;

export interface WatchSource {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  informer: ResilientInformer<any>;
  /** Keys to enqueue for an object event; default: the object's own key. */
  mapToKeys?: (obj: KubernetesObject, type: InformerEventType) => string[];
  /** Which events matter (see filters.ts); default: all. */
  filter?: ChangeFilter;
}

export interface ControllerOptions {
  name: string;
  /** The primary informer: its keys are resynced periodically. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  primary: ResilientInformer<any>;
  /** Secondary watches (owned pods, Secrets…) that map to primary keys. */
  watches?: WatchSource[];
  reconcile: Reconcile;
  log: Logger;
  metrics?: ControllerMetrics;
  workers?: number;
  /** Re-enqueue every primary key this often; 0 disables. Default 10 min. */
  resyncIntervalMs?: number;
  rateLimiter?: RateLimiter<string>;
}

export class Controller {
  readonly name: string;
  /** A fresh queue per start, so a controller can stop and start again (leadership). */
  queue: WorkQueue<string>;
  private readonly workers: Promise<void>[] = [];
  private resyncTimer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(private readonly options: ControllerOptions) {
    this.name = options.name;
    this.queue = this.newQueue();
    const enqueue =
      ({ mapToKeys, filter }: Omit<WatchSource, 'informer'>) =>
      (type: InformerEventType, obj: KubernetesObject, old?: KubernetesObject) => {
        if (!this.running || (filter && !filter({ type, obj, old }))) return;
        for (const key of mapToKeys ? mapToKeys(obj, type) : [objectKey(obj)]) this.queue.add(key);
      };
    options.primary.on(enqueue({}));
    for (const w of options.watches ?? []) w.informer.on(enqueue(w));
  }

  /** Starts the workers and enqueues every object already in the primary cache. */
  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.queue.isShuttingDown) this.queue = this.newQueue();
    this.options.metrics?.trackQueue(this.name, this.queue);
    this.resync();
    const workers = this.options.workers ?? 2;
    for (let i = 0; i < workers; i++) this.workers.push(this.work());
    const resyncMs = this.options.resyncIntervalMs ?? 600_000;
    if (resyncMs > 0) {
      this.resyncTimer = setInterval(() => this.resync(), resyncMs);
      this.resyncTimer.unref();
    }
    this.options.log.info({ controller: this.name, workers }, 'controller started');
  }

  /** Stops taking work; resolves once in-flight reconciles finished. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.resyncTimer);
    await this.queue.shutdown();
    await Promise.all(this.workers.splice(0));
    this.options.log.info({ controller: this.name }, 'controller stopped');
  }

  private newQueue(): WorkQueue<string> {
    const metrics = this.options.metrics?.workqueue.sink(this.options.name);
    return new WorkQueue<string>(this.options.rateLimiter, metrics ? { metrics } : {});
  }

  /** Enqueues every key of the primary cache. */
  resync(): void {
    for (const key of this.options.primary.keys()) this.queue.add(key);
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.processOne(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  private async processOne(key: string): Promise<void> {
    const startedMs = performance.now();
    let outcome: ReconcileOutcome = 'success';
    try {
      const result = await this.options.reconcile(key);
      this.queue.forget(key);
      if (result?.requeueAfterMs !== undefined) {
        this.queue.addAfter(key, result.requeueAfterMs);
        outcome = 'requeue';
      }
    } catch (err) {
      outcome = 'error';
      const retries = this.queue.retries(key);
      this.options.log.warn(
        { controller: this.name, key, retries, err },
        'reconcile failed; retrying with backoff',
      );
      this.queue.addRateLimited(key);
    } finally {
      this.options.metrics?.recordReconcile(this.name, outcome, (performance.now() - startedMs) / 1000);
    }
  }
}
