// The reconnecting stream against a real loopback SSE server of the test's
// own: a connection cut mid-stream is opened again with Last-Event-ID, a 401
// stops it, a 503 is retried.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleEvent } from './console-model.ts';
import { backoffMs, openConsoleStream, streamHeaders, type Connection } from './console-stream.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;
const servers: Server[] = [];

async function serve(handler: Handler): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res, requests.length);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`, requests };
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const event = (id: number): string =>
  `id: ${id}\ndata: ${JSON.stringify({ id: String(id), type: 'log', payload: { line: `line ${id}` } })}\n\n`;

function sse(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(`retry: 20\n\nevent: ready\ndata: {}\n\n${body}`);
}

function collect(url: string, after = '') {
  const events: ConsoleEvent[] = [];
  const states: Connection[] = [];
  const handle = openConsoleStream({
    url,
    token: () => 'the-key',
    after,
    onEvents: (e) => events.push(...e),
    onConnection: (c) => states.push(c),
    baseDelayMs: 20,
  });
  return { events, states, handle };
}

async function until<T>(f: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('timed out');
}

describe('openConsoleStream', () => {
  it('reconnects after a cut with Last-Event-ID, resuming after the newest event received', async () => {
    const { url, requests } = await serve((req, res, n) => {
      if (n === 1) {
        sse(res, event(1) + event(2));
        setTimeout(() => res.socket?.destroy(), 50);
      } else sse(res, event(3));
    });
    const c = collect(url, '');
    await until(() => (c.events.length === 3 ? true : undefined));
    c.handle.close();
    expect(c.events.map((e) => e.id)).toEqual(['1', '2', '3']);
    expect(requests[0]?.headers['last-event-id']).toBeUndefined();
    expect(requests[0]?.headers.authorization).toBe('Bearer the-key');
    expect(requests[1]?.headers['last-event-id']).toBe('2');
    expect(c.states.map((s) => s.state)).toEqual(['connecting', 'live', 'reconnecting', 'live']);
    expect(c.handle.lastId()).toBe('3');
  });

  it('starts from the id it is given', async () => {
    const { url, requests } = await serve((_req, res) => sse(res, event(8)));
    const c = collect(url, '7');
    await until(() => (c.events.length === 1 ? true : undefined));
    c.handle.close();
    expect(requests[0]?.headers['last-event-id']).toBe('7');
  });

  it('stops on a 401 and says the session is over', async () => {
    const { url, requests } = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'unknown API key', code: 'unauthorized' }));
    });
    const c = collect(url);
    const stopped = await until(() => c.states.find((s) => s.state === 'stopped'));
    expect(stopped).toMatchObject({
      unauthorized: true,
      message: expect.stringMatching(/session has ended/),
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(requests).toHaveLength(1);
  });

  it('stops on a 403 with its words, and retries a 503 until the server answers', async () => {
    const refused = await serve((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'agent.console.read needs one of: owner' }));
    });
    const a = collect(refused.url);
    const stopped = await until(() => a.states.find((s) => s.state === 'stopped'));
    expect(stopped).toMatchObject({
      unauthorized: false,
      message: expect.stringMatching(/^You are not allowed/),
    });

    const flaky = await serve((_req, res, n) => {
      if (n < 3) res.writeHead(503).end();
      else sse(res, event(1));
    });
    const b = collect(flaky.url);
    await until(() => (b.events.length === 1 ? true : undefined));
    b.handle.close();
    expect(b.states.filter((s) => s.state === 'reconnecting').map((s) => s.attempt)).toEqual([1, 2]);
  });
});

describe('backoffMs and streamHeaders', () => {
  it('doubles the delay per attempt up to the maximum', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, 3000, 30_000))).toEqual([
      3000, 6000, 12_000, 24_000, 30_000, 30_000,
    ]);
  });

  it('sends Last-Event-ID only when resuming', () => {
    expect(streamHeaders('k', '')).toEqual({ accept: 'text/event-stream', authorization: 'Bearer k' });
    expect(streamHeaders('k', '42')['last-event-id']).toBe('42');
  });
});
