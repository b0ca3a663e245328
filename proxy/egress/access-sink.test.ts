// The proxy's data-access sink against a real loopback HTTP server standing
// in for the Verifier: batching, the wire form, a bounded queue, and what
// happens to a batch the Verifier refuses or cannot take.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accessToWire, HttpAccessSink, type SinkEvent } from './access-sink.ts';
import type { DataAccess } from '../../contract/egress.ts';

interface Post {
  path: string;
  headers: IncomingHttpHeaders;
  records: Record<string, unknown>[];
}

const posts: Post[] = [];
let answer = 202;
let server: Server;
let url = '';
const waiting: (() => void)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        records: Record<string, unknown>[];
      };
      posts.push({ path: req.url ?? '', headers: req.headers, records: body.records });
      res.writeHead(answer, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer === 202 ? { accepted: body.records.length } : { detail: 'no' }));
      waiting.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const sinks: HttpAccessSink[] = [];
afterEach(() => {
  posts.length = 0;
  answer = 202;
  sinks.splice(0).forEach((s) => s.stop());
});

const access = (n: number, extra: Partial<DataAccess> = {}): DataAccess => ({
  at: `2026-11-25T00:00:00.${String(n % 1000).padStart(3, '0')}Z`,
  kind: 'https',
  destination: 'api.example.com:443',
  method: 'GET',
  action: 'read',
  path: `/items/${n}`,
  outcome: 'forwarded',
  bytesUp: n,
  bytesDown: 0,
  durationMs: 1,
  ...extra,
});

function sink(o: Partial<ConstructorParameters<typeof HttpAccessSink>[0]> = {}): {
  sink: HttpAccessSink;
  events: Record<SinkEvent, number>;
} {
  const events: Record<SinkEvent, number> = { sent: 0, dropped: 0, failed: 0 };
  const s = new HttpAccessSink({
    verifierUrl: `${url}/`,
    agentId: 'team-a.bot',
    apiKey: 'gw_key',
    // Long enough that only size and flush() send in these tests, unless a test shortens it.
    flushIntervalMs: 3_600_000,
    onEvent: (e, n) => (events[e] += n),
    ...o,
  });
  sinks.push(s);
  return { sink: s, events };
}

describe('accessToWire', () => {
  it('writes snake_case with null for what is absent, and keeps the query string out of the path', () => {
    expect(
      accessToWire(
        access(1, {
          path: '/search?q=secret#frag',
          user: 'ann',
          injectionMethod: 'token_exchange',
          status: 200,
        }),
      ),
    ).toEqual({
      at: '2026-11-25T00:00:00.001Z',
      kind: 'https',
      destination: 'api.example.com:443',
      method: 'GET',
      action: 'read',
      path: '/search',
      status: 200,
      outcome: 'forwarded',
      reason: null,
      user: 'ann',
      injection_method: 'token_exchange',
      service: null,
      approval_id: null,
      subagent: null,
      bytes_up: 1,
      bytes_down: 0,
      duration_ms: 1,
    });
  });

  it('names the subagent that made the call', () => {
    expect(accessToWire(access(1, { subagent: 'researcher' })).subagent).toBe('researcher');
  });
});

describe('HttpAccessSink', () => {
  it('posts full batches of 100 as they fill, the rest on flush, in order, with the Gateway key', async () => {
    const { sink: s, events } = sink();
    for (let i = 0; i < 250; i++) s.record(access(i));
    await s.flush();
    expect(posts.map((p) => p.records.length)).toEqual([100, 100, 50]);
    expect(posts.flatMap((p) => p.records.map((r) => r.bytes_up))).toEqual([...Array(250).keys()]);
    expect(posts[0]?.path).toBe('/v1/agents/team-a.bot/accesses');
    expect(posts[0]?.headers.authorization).toBe('Bearer gw_key');
    expect(events).toEqual({ sent: 250, dropped: 0, failed: 0 });
    expect(s.stats.queued).toBe(0);
  });

  it('sends what waits on its timer', async () => {
    const { sink: s } = sink({ flushIntervalMs: 10 });
    const arrived = new Promise<void>((resolve) => waiting.push(resolve));
    s.record(access(1));
    await arrived;
    expect(posts.map((p) => p.records.length)).toEqual([1]);
  });

  it('keeps a batch the Verifier could not take (5xx) and sends it later; drops one it refuses (4xx)', async () => {
    const { sink: s, events } = sink({ batchSize: 10 });
    answer = 503;
    for (let i = 0; i < 5; i++) s.record(access(i));
    await s.flush();
    expect(s.stats).toMatchObject({ queued: 5, failed: 5, sent: 0 });
    answer = 202;
    await s.flush();
    expect(s.stats).toMatchObject({ queued: 0, sent: 5 });
    expect(posts.at(-1)?.records.map((r) => r.bytes_up)).toEqual([0, 1, 2, 3, 4]);
    answer = 403;
    s.record(access(9));
    await s.flush();
    expect(s.stats).toMatchObject({ queued: 0, sent: 5, dropped: 1 });
    expect(events).toEqual({ sent: 5, dropped: 1, failed: 6 });
  });

  it('never throws nor blocks while the Verifier is unreachable, and keeps only the newest records beyond its bound', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { sink: s, events } = sink({
      verifierUrl: `http://127.0.0.1:${port}`,
      batchSize: 100,
      maxQueue: 150,
    });
    for (let i = 0; i < 400; i++) expect(() => s.record(access(i))).not.toThrow();
    await s.flush();
    expect(s.stats.queued).toBe(150);
    expect(events.dropped).toBe(250);
    expect(events.failed).toBeGreaterThan(0);
    // The sink survives a hook that throws and a record it cannot write.
    const { sink: t } = sink({
      onEvent: () => {
        throw new Error('metrics down');
      },
    });
    expect(() => t.record({ ...access(1), bytesUp: null } as unknown as DataAccess)).not.toThrow();
    expect(() => t.record(null as unknown as DataAccess)).not.toThrow();
    await t.flush();
    expect(t.stats).toMatchObject({ dropped: 1 });
  });
});
