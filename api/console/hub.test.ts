import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../base/log.ts';
import type { ConsoleEventInput } from '../../contract/console.ts';
import { ConsoleHub } from './hub.ts';
import { MemoryConsoleLog } from './log-memory.ts';

const log = createLogger('hub-test', { level: 'silent' });
let n = 0;

function ev(agent: string, over: Partial<ConsoleEventInput> = {}): ConsoleEventInput {
  n += 1;
  return {
    timestamp: new Date().toISOString(),
    agent_id: agent,
    subagent: null,
    type: 'tool_call',
    severity: 'info',
    auditor: null,
    auditors: [],
    payload: { n },
    key: `k${n}`,
    ...over,
  };
}

/** Collects what a stream says; `events()` parses its SSE messages. */
function reader(stream: Readable): { text: () => string; events: () => { id: string; payload: unknown }[] } {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return {
    text: () => text,
    events: () =>
      text
        .split('\n\n')
        .filter((block) => !block.split('\n').some((l) => l.startsWith('event: ')))
        .map((block) => block.split('\n').find((l) => l.startsWith('data: ')))
        .filter((l): l is string => l !== undefined)
        .map((l) => JSON.parse(l.slice(6)) as { id: string; payload: unknown }),
  };
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 20));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await settle();
  expect(check()).toBe(true);
}

function setup(
  o: { perAgent?: number; maxQueuedBytes?: number; slowGraceMs?: number; heartbeatMs?: number } = {},
) {
  const consoleLog = new MemoryConsoleLog(o.perAgent ?? 1000);
  const watched: string[] = [];
  const hub = new ConsoleHub(consoleLog, {
    log,
    maxQueuedBytes: o.maxQueuedBytes,
    slowGraceMs: o.slowGraceMs,
    heartbeatMs: o.heartbeatMs,
    onWatch: (id) => {
      watched.push(`+${id}`);
      return () => watched.push(`-${id}`);
    },
  });
  return { consoleLog, hub, watched };
}

describe('the console hub', () => {
  it("streams an agent's new events to its streams only, each filter applied", async () => {
    const { hub } = setup();
    const all = reader((await hub.subscribe('ns.a', {})).stream);
    const warnings = reader((await hub.subscribe('ns.a', { severity: 'warning' })).stream);
    const other = reader((await hub.subscribe('ns.b', {})).stream);
    await hub.publish([ev('ns.a'), ev('ns.a', { severity: 'error' }), ev('ns.c')]);
    await until(() => all.events().length === 2);
    expect(warnings.events().map((e) => (e.payload as { n: number }).n)).toHaveLength(1);
    expect(other.events()).toEqual([]);
    hub.stop();
  });

  it('resumes after Last-Event-ID without a gap or a repeat, live events following', async () => {
    const { hub } = setup();
    await hub.publish([ev('ns.a'), ev('ns.a'), ev('ns.b'), ev('ns.a')]);
    const first = reader((await hub.subscribe('ns.a', {}, 0)).stream);
    await until(() => first.events().length === 3);
    const lastSeen = first.events()[1]!.id;
    const resumed = reader((await hub.subscribe('ns.a', {}, Number(lastSeen))).stream);
    await hub.publish([ev('ns.a')]);
    await until(() => resumed.events().length === 2);
    const ids = resumed.events().map((e) => Number(e.id));
    expect(ids[0]).toBeGreaterThan(Number(lastSeen));
    expect(new Set(ids).size).toBe(ids.length);
    hub.stop();
  });

  it('says so when the buffer no longer holds events after the resume point', async () => {
    const { hub } = setup({ perAgent: 2 });
    await hub.publish([ev('ns.a'), ev('ns.a'), ev('ns.a'), ev('ns.a')]);
    const r = reader((await hub.subscribe('ns.a', {}, 1)).stream);
    await until(() => r.events().length === 2);
    expect(r.text()).toContain('event: missed');
    expect(r.text()).toContain('event: ready');
    hub.stop();
  });

  it('drops a client that stops reading, and keeps serving the others', async () => {
    const { hub } = setup({ maxQueuedBytes: 4096, slowGraceMs: 50 });
    const slow = await hub.subscribe('ns.a', {});
    let dropped = false;
    slow.onDropped(() => (dropped = true));
    const fast = reader((await hub.subscribe('ns.a', {})).stream);
    for (let i = 0; i < 40; i++) await hub.publish([ev('ns.a', { payload: { pad: 'x'.repeat(200) } })]);
    await until(() => fast.events().length === 40);
    await until(() => dropped);
    expect(slow.stream.destroyed).toBe(true);
    expect(hub.clients).toBe(1);
    hub.stop();
  });

  it('sends heartbeats on idle streams', async () => {
    const { hub } = setup({ heartbeatMs: 10 });
    const r = reader((await hub.subscribe('ns.a', {})).stream);
    await until(() => r.text().includes(': heartbeat'));
    hub.stop();
  });

  it("watches an agent (its pod's log) while it has streams, and stops after the last closes", async () => {
    const { hub, watched } = setup();
    const one = await hub.subscribe('ns.a', {});
    const two = await hub.subscribe('ns.a', {});
    expect(watched).toEqual(['+ns.a']);
    one.stream.destroy();
    await settle();
    expect(watched).toEqual(['+ns.a']);
    two.stream.destroy();
    await settle();
    expect(watched).toEqual(['+ns.a', '-ns.a']);
    hub.stop();
  });

  it('stores an event published twice (two replicas saw it) once', async () => {
    const { hub } = setup();
    const r = reader((await hub.subscribe('ns.a', {})).stream);
    const e = ev('ns.a');
    await hub.publish([e]);
    await hub.publish([e]);
    await hub.publish([ev('ns.a')]);
    await until(() => r.events().length === 2);
    await settle();
    expect(r.events()).toHaveLength(2);
    hub.stop();
  });

  it('ends every stream when it stops', async () => {
    const { hub } = setup();
    const s = (await hub.subscribe('ns.a', {})).stream;
    const ended = new Promise<void>((resolve) => s.once('end', resolve));
    s.resume();
    hub.stop();
    await ended;
  });
});
