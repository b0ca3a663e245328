// A rate-limited work queue with client-go's semantics: an item queued twice is
// processed once (de-duplication); an item being processed is never handed to
// a second worker (one reconcile at a time per key) and, when re-added while in
// flight, is queued again only after `done`; `addAfter` schedules an item
// (keeping the earliest time when scheduled twice); `addRateLimited` backs off.
// With a metrics sink it reports client-go's `workqueue_*` figures (queue-timing.ts).
import { QueueTiming, type QueueMetricsSink } from './queue-timing.ts';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.ts';

export interface WorkQueueOptions {
  /** Where adds, retries and the queue and work durations are reported. */
  metrics?: QueueMetricsSink;
  /** The clock of those durations, in milliseconds (default `performance.now`). */
  nowMs?: () => number;
}

export interface ShutdownOptions {
  /** Hand out the items already queued before stopping (default false: drop them). */
  drainQueued?: boolean;
}

interface Delayed {
  readyAtMs: number;
  timer: NodeJS.Timeout;
}

export class WorkQueue<K> {
  private readonly queue: K[] = [];
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly delayed = new Map<K, Delayed>();
  private readonly waiters: ((item: K | undefined) => void)[] = [];
  private readonly idleWaiters: (() => void)[] = [];
  private shuttingDown = false;
  private draining = false;
  private readonly timing: QueueTiming<K>;

  constructor(
    readonly rateLimiter: RateLimiter<K> = defaultControllerRateLimiter<K>(),
    options: WorkQueueOptions = {},
  ) {
    this.timing = new QueueTiming<K>(options.metrics, options.nowMs);
  }

  /** Items waiting to be processed (not counting delayed or in-flight ones). */
  get length(): number {
    return this.queue.length;
  }

  get inFlight(): number {
    return this.processing.size;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** The in-flight items' processing times so far, summed, in seconds. */
  unfinishedWorkSeconds(): number {
    return this.timing.unfinishedWorkSeconds();
  }

  /** How long the longest-running in-flight item has been processed, in seconds. */
  longestRunningProcessorSeconds(): number {
    return this.timing.longestRunningProcessorSeconds();
  }

  add(item: K): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.cancelDelayed(item);
    this.timing.added(item);
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.enqueue(item);
  }

  /** Adds `item` after `delayMs`; a pending earlier schedule wins over a later one. */
  addAfter(item: K, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(item);
    const readyAtMs = Date.now() + delayMs;
    const existing = this.delayed.get(item);
    if (existing && existing.readyAtMs <= readyAtMs) return;
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(item);
      this.add(item);
    }, delayMs);
    timer.unref();
    this.delayed.set(item, { readyAtMs, timer });
  }

  /** Re-adds `item` after the rate limiter's backoff (after a failure). */
  addRateLimited(item: K): void {
    if (!this.shuttingDown) this.timing.retried();
    this.addAfter(item, this.rateLimiter.whenMs(item));
  }

  /** Clears the backoff history of `item` (after a success). */
  forget(item: K): void {
    this.rateLimiter.forget(item);
  }

  retries(item: K): number {
    return this.rateLimiter.retries(item);
  }

  /** Waits for the next item; undefined once the queue is shut down. */
  get(): Promise<K | undefined> {
    const next = this.take();
    if (next !== undefined || this.isClosed()) return Promise.resolve(next);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks `item` processed; re-queues it when it was added meanwhile. */
  done(item: K): void {
    if (this.processing.has(item)) this.timing.finished(item);
    this.processing.delete(item);
    if (this.dirty.has(item)) {
      if (!this.shuttingDown || this.draining) this.enqueue(item);
      else this.drop(item);
    }
    this.notifyIdle();
  }

  /**
   * Stops accepting items, wakes idle workers and resolves once in-flight
   * items are done (and, with `drainQueued`, the queued ones too).
   */
  shutdown(options: ShutdownOptions = {}): Promise<void> {
    this.shuttingDown = true;
    this.draining = options.drainQueued ?? false;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    if (!this.draining) {
      for (const item of this.queue) this.drop(item);
      this.queue.length = 0;
    }
    this.wakeIfClosed();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.notifyIdle();
    });
  }

  private enqueue(item: K): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      this.dirty.delete(item);
      this.processing.add(item);
      this.timing.started(item);
      waiter(item);
      return;
    }
    this.queue.push(item);
  }

  private take(): K | undefined {
    const item = this.queue.shift();
    if (item === undefined) return undefined;
    this.dirty.delete(item);
    this.processing.add(item);
    this.timing.started(item);
    return item;
  }

  private drop(item: K): void {
    this.dirty.delete(item);
    this.timing.dropped(item);
  }

  private isClosed(): boolean {
    return this.shuttingDown && this.queue.length === 0;
  }

  private wakeIfClosed(): void {
    if (!this.isClosed()) return;
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
  }

  private notifyIdle(): void {
    this.wakeIfClosed();
    if (!this.shuttingDown || this.processing.size > 0 || this.queue.length > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private cancelDelayed(item: K): void {
    const existing = this.delayed.get(item);
    if (!existing) return;
    clearTimeout(existing.timer);
    this.delayed.delete(item);
  }
}
