// The timing figures client-go's work queue publishes, kept per queue: how
// long an item waited between its add and a worker taking it (queue
// duration), how long the worker held it (work duration), and for the items
// being processed now their summed and their longest age (unfinished work,
// longest-running processor). Pure apart from the clock it is given.

/** Where a queue reports its events (the `workqueue_*` series of one controller). */
export interface QueueMetricsSink {
  /** An item was added (not counted when it was already waiting). */
  added(): void;
  /** An item was re-added after a rate-limiter backoff (a retry). */
  retried(): void;
  /** Seconds an item waited between its add and a worker taking it. */
  queued(seconds: number): void;
  /** Seconds a worker held an item, from taking it to `done`. */
  worked(seconds: number): void;
}

export class QueueTiming<K> {
  private readonly addedAtMs = new Map<K, number>();
  private readonly startedAtMs = new Map<K, number>();

  constructor(
    private readonly sink: QueueMetricsSink | undefined,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** An add that changed the queue: the first add since the item was last taken starts its wait. */
  added(item: K): void {
    this.sink?.added();
    if (!this.addedAtMs.has(item)) this.addedAtMs.set(item, this.nowMs());
  }

  retried(): void {
    this.sink?.retried();
  }

  /** A worker took the item: its wait ends and its work starts. */
  started(item: K): void {
    const now = this.nowMs();
    const addedAt = this.addedAtMs.get(item);
    if (addedAt !== undefined) this.sink?.queued((now - addedAt) / 1000);
    this.addedAtMs.delete(item);
    this.startedAtMs.set(item, now);
  }

  /** The worker called `done`. */
  finished(item: K): void {
    const startedAt = this.startedAtMs.get(item);
    if (startedAt === undefined) return;
    this.sink?.worked((this.nowMs() - startedAt) / 1000);
    this.startedAtMs.delete(item);
  }

  /** A waiting item left without being processed (dropped at shutdown). */
  dropped(item: K): void {
    this.addedAtMs.delete(item);
  }

  /** Seconds of work in progress that `worked` has not seen yet: the ages of the in-flight items, summed. */
  unfinishedWorkSeconds(): number {
    const now = this.nowMs();
    let total = 0;
    for (const startedAt of this.startedAtMs.values()) total += now - startedAt;
    return total / 1000;
  }

  /** Seconds the longest-running in-flight item has been processed (0 when none is). */
  longestRunningProcessorSeconds(): number {
    const now = this.nowMs();
    let longest = 0;
    for (const startedAt of this.startedAtMs.values()) longest = Math.max(longest, now - startedAt);
    return longest / 1000;
  }
}
