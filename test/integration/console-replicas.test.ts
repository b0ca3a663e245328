// The console across API replicas (issue 20): two APIs share one PostgreSQL
// (DATABASE_URL), as two replicas of the Verifier do. An event published at
// one replica reaches a stream opened at the other; a client that drops its
// stream at one replica resumes at the other with Last-Event-ID and loses
// nothing; an approval both replicas' informers see arrive is one event.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../process/fixtures/loopback.ts';
import { openSse, type SseStream } from '../fixtures/sse.ts';
import { startPostgres, type Postgres } from '../process/fixtures/postgres.ts';
import { accessRecord, agentGatewayKey, useApi, type ApiFixture } from './api-harness.ts';
import { useNamespace } from './harness.ts';

let db: Postgres | undefined;
const databaseUrl = { value: '' };
beforeAll(async () => {
  db = startPostgres(await freePort());
  databaseUrl.value = db.url;
});
afterAll(() => db?.stop());

const ns = useNamespace('console-replicas');
const storeEnv = (): NodeJS.ProcessEnv => ({ DATABASE_URL: databaseUrl.value });
const a = useApi(ns, () => ({}), { storeEnv });
const b = useApi(ns, () => ({}), { storeEnv });
const state = { agent: '', gatewayKey: '' };
const open: SseStream[] = [];

async function stream(
  fx: ApiFixture,
  query: string,
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const url = `${fx.api.url}/v1/agents/${state.agent}/console/stream?${query}`;
  const s = await openSse(url, { authorization: `Bearer ${fx.keys.viewer}`, ...headers });
  expect(s.status, s.errorBody).toBe(200);
  open.push(s);
  return s;
}

async function postAccess(fx: ApiFixture, path: string): Promise<void> {
  const record = accessRecord(0, { path });
  const r = await fx.call('POST', `/v1/agents/${state.agent}/accesses`, {
    key: state.gatewayKey,
    body: { records: [record] },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
}

beforeAll(async () => {
  state.agent = await a.createAgent('shared');
  await b.until(`/v1/agents/${state.agent}`, (r) => r.status === 200);
  state.gatewayKey = await agentGatewayKey(a, state.agent, true);
  await b.until('/v1/api-keys', (r) => r.status === 200);
});

afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

describe('the console stream across two replicas sharing PostgreSQL', () => {
  it('delivers an event published at one replica to a stream at the other', async () => {
    const atB = await stream(b, 'type=tool_call');
    await postAccess(a, '/from-a');
    const e = await atB.waitFor((x) => x.payload.path === '/from-a');
    expect(e.agent_id).toBe(state.agent);
  });

  it('resumes at the other replica after Last-Event-ID, losing nothing', async () => {
    const atA = await stream(a, 'type=tool_call');
    await postAccess(a, '/seen');
    const seen = await atA.waitFor((x) => x.payload.path === '/seen');
    atA.close();
    await postAccess(a, '/missed-1');
    await postAccess(b, '/missed-2');
    const atB = await stream(b, 'type=tool_call', { 'last-event-id': seen.id });
    await atB.waitFor((x) => x.payload.path === '/missed-2');
    expect(atB.events().map((x) => x.payload.path)).toEqual(['/missed-1', '/missed-2']);
  });

  it('stores an approval both replicas see arrive once', async () => {
    const atB = await stream(b, 'type=approval_requested');
    const atA = await stream(a, 'type=approval_requested');
    const req = await a.call('POST', `/v1/agents/${state.agent}/actions`, {
      key: a.keys.editor,
      body: { action: 'send', target: 'mail://team' },
    });
    expect(req.status, JSON.stringify(req.body)).toBe(202);
    const id = (req.body.approval as { id: string }).id;
    const first = await atB.waitFor((x) => x.payload.id === id);
    await atA.waitFor((x) => x.payload.id === id);
    // Both replicas' informers have published it by now (each saw the add); one event stands.
    await b.until(`/v1/approvals/${id}`, (r) => r.status === 200, 'viewer');
    const later = await b.call('GET', `/v1/agents/${state.agent}/console/events?type=approval_requested`, {
      key: b.keys.viewer,
    });
    const items = (later.body.items ?? []).filter((x) => (x.payload as { id?: string }).id === id);
    expect(items.map((x) => x.id)).toEqual([first.id]);
  });
});
