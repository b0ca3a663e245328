import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import type { QueueMetricsSink } from './queue-timing.ts';
import { WorkQueueSeries } from './standard-metrics.ts';
import { WorkQueue } from './work-queue.ts';

/** A sink that records what the queue reports, and a clock the test moves. */
function recorder(): { sink: QueueMetricsSink; seen: Record<string, number[]>; clock: { ms: number } } {
  const seen: Record<string, number[]> = { added: [], retried: [], queued: [], worked: [] };
  const sink: QueueMetricsSink = {
    added: () => seen.added!.push(1),
    retried: () => seen.retried!.push(1),
    queued: (s) => seen.queued!.push(s),
    worked: (s) => seen.worked!.push(s),
  };
  return { sink, seen, clock: { ms: 1_000 } };
}

function timedQueue(): { queue: WorkQueue<string> } & ReturnType<typeof recorder> {
  const r = recorder();
  const queue = new WorkQueue<string>(undefined, { metrics: r.sink, nowMs: () => r.clock.ms });
  return { queue, ...r };
}

describe('WorkQueue timing (the workqueue_* figures)', () => {
  it('measures the wait from the first add to the take, and the work from the take to done', async () => {
    const { queue, seen, clock } = timedQueue();
    queue.add('a');
    clock.ms += 250;
    queue.add('a'); // already waiting: neither an add nor a new start of its wait
    clock.ms += 250;
    const item = (await queue.get())!;
    clock.ms += 1_500;
    queue.done(item);
    expect(seen.added).toHaveLength(1);
    expect(seen.queued).toEqual([0.5]);
    expect(seen.worked).toEqual([1.5]);
  });

  it('counts a re-add while in flight, and its wait includes the rest of the processing', async () => {
    const { queue, seen, clock } = timedQueue();
    queue.add('a');
    const first = (await queue.get())!;
    clock.ms += 100;
    queue.add('a');
    clock.ms += 400;
    queue.done(first);
    const second = (await queue.get())!;
    expect(second).toBe('a');
    expect(seen.added).toHaveLength(2);
    expect(seen.queued).toEqual([0, 0.4]);
    expect(seen.worked).toEqual([0.5]);
  });

  it('times an item handed straight to a waiting worker', async () => {
    const { queue, seen, clock } = timedQueue();
    const waiting = queue.get();
    queue.add('a');
    const item = (await waiting)!;
    clock.ms += 2_000;
    queue.done(item);
    expect(seen.queued).toEqual([0]);
    expect(seen.worked).toEqual([2]);
  });

  it('reports the in-flight work summed and the longest-running item, and forgets them at done', async () => {
    const { queue, clock } = timedQueue();
    queue.add('a');
    queue.add('b');
    const a = (await queue.get())!;
    clock.ms += 3_000;
    const b = (await queue.get())!;
    clock.ms += 1_000;
    expect(queue.unfinishedWorkSeconds()).toBe(5); // a: 4 s, b: 1 s
    expect(queue.longestRunningProcessorSeconds()).toBe(4);
    queue.done(a);
    expect(queue.unfinishedWorkSeconds()).toBe(1);
    expect(queue.longestRunningProcessorSeconds()).toBe(1);
    queue.done(b);
    expect(queue.unfinishedWorkSeconds()).toBe(0);
    expect(queue.longestRunningProcessorSeconds()).toBe(0);
  });

  it('counts a rate-limited re-add as a retry, and none once shut down', async () => {
    const { queue, seen } = timedQueue();
    queue.addRateLimited('a');
    expect(seen.retried).toHaveLength(1);
    await queue.shutdown();
    queue.addRateLimited('b');
    expect(seen.retried).toHaveLength(1);
  });

  it('a done for an item never taken reports no work', () => {
    const { queue, seen } = timedQueue();
    queue.done('never-taken');
    expect(seen.worked).toEqual([]);
  });
});

describe('WorkQueueSeries', () => {
  it('publishes each queue under client-go’s names with label name', async () => {
    const registry = new Registry();
    const queues = new Map<string, WorkQueue<string>>();
    const series = new WorkQueueSeries([registry], queues);
    let nowMs = 0;
    const queue = new WorkQueue<string>(undefined, { metrics: series.sink('agent'), nowMs: () => nowMs });
    queues.set('agent', queue);
    queue.add('x');
    queue.add('y');
    const taken = (await queue.get())!;
    nowMs += 2_000;
    const text = await registry.metrics();
    expect(text).toContain('workqueue_depth{name="agent"} 1');
    expect(text).toContain('workqueue_adds_total{name="agent"} 2');
    expect(text).toContain('workqueue_retries_total{name="agent"} 0');
    expect(text).toContain('workqueue_unfinished_work_seconds{name="agent"} 2');
    expect(text).toContain('workqueue_longest_running_processor_seconds{name="agent"} 2');
    expect(text).toContain('workqueue_queue_duration_seconds_count{name="agent"} 1');
    queue.done(taken);
    expect(await registry.metrics()).toContain('workqueue_work_duration_seconds_sum{name="agent"} 2');
  });
});
