import { afterEach, describe, expect, it, vi } from 'vitest';
import { ItemExponentialRateLimiter } from './rate-limiter.ts';
import { WorkQueue } from './work-queue.ts';

afterEach(() => {
  vi.useRealTimers();
});

async function drain(queue: WorkQueue<string>): Promise<string[]> {
  const out: string[] = [];
  while (queue.length > 0) {
    const item = (await queue.get()) as string;
    out.push(item);
    queue.done(item);
  }
  return out;
}

describe('WorkQueue', () => {
  it('hands out items in order and de-duplicates queued items', async () => {
    const queue = new WorkQueue<string>();
    for (const item of ['a', 'b', 'a', 'c', 'b']) queue.add(item);
    expect(queue.length).toBe(3);
    expect(await drain(queue)).toEqual(['a', 'b', 'c']);
  });

  it('never hands one item to two workers; an add while in flight re-queues after done', async () => {
    const queue = new WorkQueue<string>();
    queue.add('a');
    const first = await queue.get();
    queue.add('a');
    expect(queue.length).toBe(0); // held back while 'a' is processing
    const second = queue.get();
    let handedOut = false;
    void second.then(() => (handedOut = true));
    await Promise.resolve();
    expect(handedOut).toBe(false);
    queue.done(first as string);
    expect(await second).toBe('a');
  });

  it('wakes a waiting worker when an item arrives', async () => {
    const queue = new WorkQueue<string>();
    const waiting = queue.get();
    queue.add('x');
    expect(await waiting).toBe('x');
  });

  it('adds an item after a delay and keeps the earliest schedule', () => {
    vi.useFakeTimers();
    const queue = new WorkQueue<string>();
    queue.addAfter('a', 1000);
    queue.addAfter('a', 100);
    queue.addAfter('a', 5000);
    vi.advanceTimersByTime(99);
    expect(queue.length).toBe(0);
    vi.advanceTimersByTime(1);
    expect(queue.length).toBe(1);
    vi.advanceTimersByTime(10_000);
    expect(queue.length).toBe(1);
  });

  it('backs off rate-limited items exponentially and forgets on success', () => {
    vi.useFakeTimers();
    const queue = new WorkQueue<string>(new ItemExponentialRateLimiter<string>(5, 1_000_000));
    queue.addRateLimited('a'); // 5 ms
    queue.addRateLimited('b'); // 5 ms
    queue.addRateLimited('a'); // 10 ms, but the 5 ms schedule is earlier
    expect(queue.retries('a')).toBe(2);
    vi.advanceTimersByTime(5);
    expect(queue.length).toBe(2);
    queue.forget('a');
    expect(queue.retries('a')).toBe(0);
  });

  it('shutdown drops queued items, returns undefined to workers and waits for in-flight ones', async () => {
    const queue = new WorkQueue<string>();
    queue.add('a');
    queue.add('b');
    const inFlight = (await queue.get()) as string;
    let stopped = false;
    const stopping = queue.shutdown().then(() => (stopped = true));
    expect(await queue.get()).toBeUndefined();
    queue.add('c');
    expect(queue.length).toBe(0);
    await Promise.resolve();
    expect(stopped).toBe(false);
    queue.done(inFlight);
    await stopping;
    expect(stopped).toBe(true);
  });

  it('shutdown with drainQueued hands out the remaining items first', async () => {
    const queue = new WorkQueue<string>();
    queue.add('a');
    queue.add('b');
    const stopping = queue.shutdown({ drainQueued: true });
    expect(await drain(queue)).toEqual(['a', 'b']);
    expect(await queue.get()).toBeUndefined();
    await stopping;
  });

  it('cancels delayed items on shutdown', () => {
    vi.useFakeTimers();
    const queue = new WorkQueue<string>();
    queue.addAfter('a', 100);
    void queue.shutdown();
    vi.advanceTimersByTime(1000);
    expect(queue.length).toBe(0);
  });
});
