import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeServer, fakeObject, type FakeObject } from './fake-informer.ts';
import { ResilientInformer, type InformerEventType } from './informer.ts';

const log = pino({ level: 'silent' });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Bounded wait: polls until `probe` holds, fails after 2 s. */
async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
const informers: ResilientInformer<FakeObject>[] = [];

afterEach(async () => {
  await Promise.all(informers.splice(0).map((i) => i.stop()));
});

function setup(options: { relistIntervalMs?: number; staleAfterMs?: number } = {}) {
  const server = new FakeServer();
  const events: [InformerEventType, string][] = [];
  const informer = new ResilientInformer<FakeObject>({
    resource: 'fakes',
    factory: server.factory,
    log,
    relistIntervalMs: options.relistIntervalMs ?? 60_000,
    staleAfterMs: options.staleAfterMs ?? 120_000,
    restartBaseDelayMs: 5,
    restartMaxDelayMs: 20,
  });
  informer.on((type, obj) => events.push([type, `${obj.metadata.name}@${obj.metadata.resourceVersion}`]));
  informers.push(informer);
  return { server, informer, events };
}

describe('ResilientInformer', () => {
  it('lists, syncs and then follows watch events', async () => {
    const { server, informer, events } = setup();
    server.setQuietly(fakeObject('a', '1'));
    informer.start();
    expect(await informer.waitForSync(1000)).toBe(true);
    server.put(fakeObject('a', '2'));
    server.put(fakeObject('b', '3'));
    expect(events).toEqual([
      ['add', 'a@1'],
      ['update', 'a@2'],
      ['add', 'b@3'],
    ]);
    expect(informer.keys().sort()).toEqual(['ns/a', 'ns/b']);
    expect(informer.staleness()).toBe('');
  });

  it('hands handlers the object an update replaced', async () => {
    const { server, informer } = setup();
    const seen: string[] = [];
    informer.on((type, obj, old) =>
      seen.push(`${type} ${obj.metadata.resourceVersion} old=${old?.metadata.resourceVersion ?? '-'}`),
    );
    server.setQuietly(fakeObject('a', '1'));
    informer.start();
    expect(await informer.waitForSync(1000)).toBe(true);
    server.put(fakeObject('a', '2'));
    expect(seen).toEqual(['add 1 old=-', 'update 2 old=1']);
  });

  it('restarts with backoff after errors instead of stopping like client-node', async () => {
    const { server, informer } = setup();
    server.failStarts = 3;
    server.setQuietly(fakeObject('a', '1'));
    informer.start();
    expect(informer.staleness()).toMatch(/not synced/);
    expect(await informer.waitForSync(2000)).toBe(true);
    expect(server.starts).toBe(4);
    server.breakWatch();
    expect(informer.isWatching()).toBe(false);
    await until(() => informer.isWatching(), 'the restart after the watch error');
    expect(server.starts).toBe(5);
  });

  it('relists periodically: a silent watch still converges, vanished objects are deleted, unchanged ones emit nothing', async () => {
    const { server, informer, events } = setup({ relistIntervalMs: 30, staleAfterMs: 1000 });
    server.setQuietly(fakeObject('keep', '1'));
    server.setQuietly(fakeObject('gone', '1'));
    informer.start();
    await informer.waitForSync(1000);
    server.deleteQuietly('gone');
    server.setQuietly(fakeObject('new', '5'));
    await until(() => events.length >= 4, 'a relist');
    await until(() => server.starts >= 4, 'two more relists');
    expect(events).toEqual([
      ['add', 'keep@1'],
      ['add', 'gone@1'],
      ['add', 'new@5'],
      ['delete', 'gone@1'],
    ]);
  });

  it('reports staleness when neither an event nor a list arrived for too long', async () => {
    const { informer } = setup({ staleAfterMs: 40 });
    informer.start();
    await informer.waitForSync(1000);
    expect(informer.staleness()).toBe('');
    await until(() => informer.staleness() !== '', 'staleness');
    expect(informer.staleness()).toMatch(/no event or list for \d+ ms \(limit 40 ms\)/);
    expect(informer.stalled()).not.toBe('');
  });

  it('ignores events from an informer it replaced', async () => {
    const { server, informer, events } = setup({ relistIntervalMs: 20 });
    informer.start();
    await informer.waitForSync(1000);
    const old = server.active;
    await until(() => server.active !== old, 'a relist');
    old?.fire('add', fakeObject('ghost', '9'));
    expect(events).toEqual([]);
  });
});
