import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Controller, type Reconcile } from './controller.ts';
import { FakeServer, fakeObject, type FakeObject } from './fake-informer.ts';
import { ResilientInformer } from './informer.ts';
import { ItemExponentialRateLimiter } from './rate-limiter.ts';
import { ControllerMetrics } from './metrics.ts';
import { Registry } from 'prom-client';

const log = pino({ level: 'silent' });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const running: { stop(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

async function setup(
  reconcile: Reconcile,
  resyncIntervalMs = 0,
  rateLimiter = new ItemExponentialRateLimiter<string>(5, 40),
  metrics?: ControllerMetrics,
): Promise<{ server: FakeServer; controller: Controller }> {
  const server = new FakeServer();
  server.setQuietly(fakeObject('a', '1'));
  const informer = new ResilientInformer<FakeObject>({ resource: 'fakes', factory: server.factory, log });
  informer.start();
  await informer.waitForSync(1000);
  const controller = new Controller({
    name: 'test',
    primary: informer,
    reconcile,
    log,
    workers: 4,
    resyncIntervalMs,
    rateLimiter,
    ...(metrics ? { metrics } : {}),
  });
  running.push(informer, controller);
  controller.start();
  return { server, controller };
}

describe('Controller', () => {
  it('reconciles every cached object on start and every changed object after', async () => {
    const seen: string[] = [];
    const { server } = await setup(async (key) => void seen.push(key));
    await until(() => seen.length === 1, 'the initial reconcile');
    server.put(fakeObject('b', '2'));
    await until(() => seen.length === 2, 'the reconcile of b');
    expect(seen).toEqual(['ns/a', 'ns/b']);
  });

  it('retries a failing reconcile with growing backoff until it succeeds', async () => {
    const limiter = new ItemExponentialRateLimiter<string>(5, 40);
    const retriesSeen: number[] = [];
    await setup(
      async (key) => {
        retriesSeen.push(limiter.retries(key));
        if (retriesSeen.length < 4) throw new Error('apiserver said no');
      },
      0,
      limiter,
    );
    await until(() => retriesSeen.length === 4, 'four attempts');
    expect(retriesSeen).toEqual([0, 1, 2, 3]); // each retry went through the backoff
    await until(() => limiter.retries('ns/a') === 0, 'success to forget the backoff');
  });

  it('requeues after the requested delay (deadlines, not polling)', async () => {
    let calls = 0;
    await setup(async () => (++calls === 1 ? { requeueAfterMs: 30 } : undefined));
    await until(() => calls === 2, 'the requeued reconcile');
  });

  it('never runs two reconciles of one key at once', async () => {
    let active = 0;
    let maxActive = 0;
    let calls = 0;
    const { server } = await setup(async () => {
      calls++;
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(20);
      active--;
    });
    for (let rv = 2; rv < 12; rv++) server.put(fakeObject('a', String(rv)));
    await until(() => calls >= 2 && active === 0, 'the follow-up reconcile');
    expect(maxActive).toBe(1);
    expect(calls).toBeLessThanOrEqual(3); // ten events collapsed by de-duplication
  });

  it('resyncs every cached key periodically', async () => {
    let calls = 0;
    await setup(async () => void calls++, 20);
    await until(() => calls >= 3, 'resyncs');
  });

  it('stops taking work on stop and can start again with a fresh queue', async () => {
    const seen: string[] = [];
    const { server, controller } = await setup(async (key) => void seen.push(key));
    await until(() => seen.length === 1, 'the initial reconcile');
    await controller.stop();
    server.put(fakeObject('c', '3'));
    expect(seen).toEqual(['ns/a']);
    controller.start();
    await until(() => seen.length === 3, 'reconciles after restart');
    expect(seen.slice(1).sort()).toEqual(['ns/a', 'ns/c']);
  });

  it('publishes controller-runtime and work-queue series: results, errors, retries, adds', async () => {
    const registry = new Registry();
    const metrics = new ControllerMetrics(registry);
    let calls = 0;
    const { controller } = await setup(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('first fails');
        if (calls === 2) return { requeueAfterMs: 1 };
        return undefined;
      },
      0,
      undefined,
      metrics,
    );
    await until(() => calls >= 3, 'an error, a requeue and a success');
    await until(() => controller.queue.inFlight === 0, 'the last reconcile to finish');
    const value = async (series: string): Promise<number> => {
      const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
      return Number(line?.split(' ')[1]);
    };
    expect(await value('controller_runtime_reconcile_total{controller="test",result="error"}')).toBe(1);
    expect(await value('controller_runtime_reconcile_total{controller="test",result="requeue_after"}')).toBe(
      1,
    );
    expect(await value('controller_runtime_reconcile_total{controller="test",result="success"}')).toBe(1);
    expect(await value('controller_runtime_reconcile_total{controller="test",result="requeue"}')).toBe(0);
    expect(await value('controller_runtime_reconcile_errors_total{controller="test"}')).toBe(1);
    expect(await value('controller_runtime_reconcile_time_seconds_count{controller="test"}')).toBe(3);
    expect(await value('platform_controller_reconcile_total{controller="test",result="requeue"}')).toBe(1);
    expect(await value('workqueue_retries_total{name="test"}')).toBe(1);
    expect(await value('workqueue_adds_total{name="test"}')).toBe(3);
    expect(await value('workqueue_work_duration_seconds_count{name="test"}')).toBe(3);
    expect(await value('workqueue_depth{name="test"}')).toBe(0);
  });
});
