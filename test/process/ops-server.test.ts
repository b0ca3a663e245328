import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../base/log.ts';
import { newRegistry, startOpsServer, type OpsServer } from '../../base/ops-server.ts';

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});
const log = createLogger('test', { destination: sink });
let ready = false;
let ops: OpsServer;

beforeAll(async () => {
  ops = await startOpsServer({
    host: '127.0.0.1',
    port: 0,
    log,
    registry: newRegistry('test'),
    readiness: { informers: () => (ready ? '' : 'not synced yet') },
  });
});
afterAll(() => ops.close());

const get = (path: string): Promise<Response> => fetch(`http://127.0.0.1:${ops.port}${path}`);

describe('ops endpoints', () => {
  it('answers /healthz while alive', async () => {
    const res = await get('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', failures: [] });
  });

  it('answers /readyz 503 with the reason until every check passes', async () => {
    const res = await get('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'fail', failures: ['informers: not synced yet'] });
    ready = true;
    expect((await get('/readyz')).status).toBe(200);
  });

  it('reports a check that throws as not ready instead of crashing', async () => {
    ops.addReadiness('broken', () => {
      throw new Error('lease unreadable');
    });
    const res = await get('/readyz');
    expect(res.status).toBe(503);
    expect((await res.json()) as { failures: string[] }).toMatchObject({
      failures: ['broken: lease unreadable'],
    });
  });

  it('serves Prometheus metrics with the role label', async () => {
    const res = await get('/metrics');
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    expect(await res.text()).toMatch(/process_cpu_user_seconds_total\{role="test"\}/);
  });

  it('answers unknown paths 404 and other methods 405 with Allow, in the error shape', async () => {
    expect(await (await get('/nope')).json()).toEqual({ detail: 'not found' });
    const res = await fetch(`http://127.0.0.1:${ops.port}/healthz`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toMatchObject({ code: 'method_not_allowed' });
  });
});

describe('structured logs', () => {
  it('writes JSON lines and redacts secret-bearing fields', () => {
    log.info({ headers: { authorization: 'Bearer abc123' }, token: 'tkn', user: 'alice' }, 'hello');
    const entry = JSON.parse(lines.at(-1) ?? '{}') as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 'info', component: 'test', msg: 'hello', user: 'alice' });
    expect(lines.at(-1)).not.toContain('abc123');
    expect(lines.at(-1)).not.toContain('tkn');
  });
});
