// The console's log stream over the API against the real apiserver (issue
// 20): Server-Sent Events of one agent, from the Gateway's signed Evidence,
// the credential proxy's data-access records, and approval and consent
// requests; each filter applied; a reconnect with Last-Event-ID loses
// nothing; Viewers and above read, nobody else; bad input is a clear 4xx; a
// client that stops reading is dropped; the badge follows requests raised
// and resolved.
import { connect } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accessRecord, agentGatewayKey, SUBJECTS, useApi } from './api-harness.ts';
import { eventually, useNamespace } from './harness.ts';
import { signedEvidence } from './verifier-fixtures.ts';
import { openSse, type SseStream } from '../fixtures/sse.ts';

const ns = useNamespace('console-stream');
const fx = useApi(ns, () => ({
  PLATFORM_CONSOLE_HEARTBEAT: '200ms',
  PLATFORM_CONSOLE_CLIENT_BUFFER: '65536',
}));
const state = { agent: '', other: '', gatewayKey: '', otherKey: '' };
const open: SseStream[] = [];

const streamUrl = (agent: string, query = ''): string =>
  `${fx.api.url}/v1/agents/${agent}/console/stream${query ? `?${query}` : ''}`;

async function stream(key: string, query = '', headers: Record<string, string> = {}, agent = state.agent) {
  const s = await openSse(streamUrl(agent, query), { authorization: `Bearer ${key}`, ...headers });
  open.push(s);
  return s;
}

async function postAccesses(records: Record<string, unknown>[], key = state.gatewayKey, agent = state.agent) {
  const r = await fx.call('POST', `/v1/agents/${agent}/accesses`, { key, body: { records } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
}

beforeAll(async () => {
  state.agent = await fx.createAgent('watched');
  state.other = await fx.createAgent('elsewhere');
  state.gatewayKey = await agentGatewayKey(fx, state.agent, true);
  state.otherKey = await agentGatewayKey(fx, state.other, true);
});

afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

describe('GET /v1/agents/{agent_id}/console/stream', () => {
  it("streams the agent's tool calls with each filter applied, and never another agent's", async () => {
    const all = await stream(fx.keys.viewer);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const warnings = await stream(fx.keys.editor, 'severity=warning');
    const onlyTools = await stream(fx.keys.owner, 'type=tool_call&subagent=researcher');
    await postAccesses([accessRecord(1, { subagent: 'researcher' })], state.otherKey, state.other);
    await postAccesses([
      accessRecord(1),
      accessRecord(2, {
        method: 'DELETE',
        action: 'delete',
        outcome: 'denied',
        status: 403,
        subagent: 'researcher',
      }),
    ]);
    const denied = await all.waitFor((e) => e.payload.path === '/items/2');
    expect(denied).toMatchObject({
      agent_id: state.agent,
      type: 'tool_call',
      severity: 'warning',
      subagent: 'researcher',
      payload: { method: 'DELETE', outcome: 'denied', destination: 'api.example.com:443' },
    });
    expect(denied.id).toMatch(/^\d+$/);
    await warnings.waitFor((e) => e.payload.path === '/items/2');
    await onlyTools.waitFor((e) => e.payload.path === '/items/2');
    expect(all.events().map((e) => e.payload.path)).toEqual(['/items/1', '/items/2']);
    expect(warnings.events().map((e) => e.payload.path)).toEqual(['/items/2']);
    expect(onlyTools.events().map((e) => e.payload.path)).toEqual(['/items/2']);
    expect(all.events().every((e) => e.agent_id === state.agent)).toBe(true);
  });

  it("streams the Gateway's chain decision and model call from signed Evidence, filtered by auditor", async () => {
    const g = await fx.call('POST', '/v1/api-keys', {
      key: fx.keys.org_admin,
      body: { subject: 'gateway@console-stream', role: 'gateway' },
    });
    const byAuditor = await stream(fx.keys.viewer, 'auditor=injection');
    const unrelated = await stream(fx.keys.viewer, 'auditor=toxicity');
    const ev = await signedEvidence(`ev-${ns.name}-1`, state.agent, {
      decision: 'deny',
      blocked: true,
      decision_reasons: ['injection_detected'],
      model_id: 'gpt-test',
    });
    const r = await fx.call('POST', '/v1/evidence', { key: String(g.body.key), body: ev });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const decision = await byAuditor.waitFor((e) => e.type === 'chain_decision');
    expect(decision).toMatchObject({
      severity: 'error',
      auditor: 'injection',
      payload: { evidence_id: ev.evidence_id, decision: 'deny', blocked: true, model: 'gpt-test' },
    });
    expect(decision.auditors).toContain('ext-scanner');
    await byAuditor.waitFor((e) => e.type === 'model_call');
    expect(unrelated.events()).toEqual([]);
  });

  it('resumes after Last-Event-ID with exactly the events missed while away', async () => {
    const first = await stream(fx.keys.viewer, 'type=tool_call');
    await postAccesses([accessRecord(10)]);
    const seen = await first.waitFor((e) => e.payload.path === '/items/10');
    first.close();
    await postAccesses([accessRecord(11), accessRecord(12)]);
    const resumed = await stream(fx.keys.viewer, 'type=tool_call', { 'last-event-id': seen.id });
    await resumed.waitFor((e) => e.payload.path === '/items/12');
    expect(resumed.events().map((e) => e.payload.path)).toEqual(['/items/11', '/items/12']);
    // The query form, for clients that cannot set the header.
    const byQuery = await stream(fx.keys.viewer, `type=tool_call&last_event_id=${seen.id}`);
    await byQuery.waitFor((e) => e.payload.path === '/items/12');
    expect(byQuery.events()).toHaveLength(2);
  });

  it('keeps an idle stream open with heartbeats', async () => {
    const idle = await stream(fx.keys.viewer, 'severity=critical');
    await eventually(() => (idle.comments >= 3 ? true : undefined), 'three heartbeats');
  });

  it('lets Viewers and above read, and nobody else; bad input is a clear 4xx', async () => {
    const cases: [string, string | undefined, string, Record<string, string>, number][] = [
      ['no credential', undefined, '', {}, 401],
      ['a stranger', fx.keys.stranger, '', {}, 403],
      ['an unknown agent', fx.keys.org_admin, '', {}, 404],
      ['an invalid severity', fx.keys.viewer, 'severity=loud', {}, 400],
      ['an invalid type', fx.keys.viewer, 'type=everything', {}, 400],
      ['a bogus Last-Event-ID', fx.keys.viewer, '', { 'last-event-id': 'yesterday' }, 400],
      ['a Last-Event-ID ahead of the stream', fx.keys.viewer, '', { 'last-event-id': '99999999' }, 400],
    ];
    for (const [what, key, query, headers, status] of cases) {
      const agent = what === 'an unknown agent' ? `${ns.name}.nobody` : state.agent;
      const s = await openSse(streamUrl(agent, query), {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...headers,
      });
      expect(s.status, what).toBe(status);
      expect(JSON.parse(s.errorBody), what).toHaveProperty('detail');
    }
    const admin = await stream(fx.keys.workspace_admin);
    expect(admin.status).toBe(200);
  });

  it('drops a client that stops reading and counts it, while the others keep receiving', async () => {
    const reading = await stream(fx.keys.viewer, 'type=tool_call', {}, state.other);
    // A client that reads nothing after the headers: its socket is paused, so the kernel's buffers fill.
    const slow = connect({ host: '127.0.0.1', port: fx.api.port });
    const closed = new Promise<void>((resolve) => slow.once('close', () => resolve()));
    slow.on('error', () => undefined);
    slow.write(
      `GET /v1/agents/${state.other}/console/stream HTTP/1.1\r\nhost: x\r\n` +
        `authorization: Bearer ${fx.keys.viewer}\r\naccept: text/event-stream\r\n\r\n`,
    );
    slow.pause();
    await eventually(() => (fx.api.deps.consoleHub.clients >= 2 ? true : undefined), 'both streams open');
    // Published as the sources do, at a pace a reading client keeps up with: 10 MB in all, far more
    // than the kernel's socket buffers of a paused reader hold.
    const pad = 'x'.repeat(4000);
    for (let i = 0; i < 2500; i++) {
      if (i % 25 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      await fx.api.deps.consoleHub.publish([
        {
          timestamp: new Date().toISOString(),
          agent_id: state.other,
          subagent: null,
          type: 'tool_call',
          severity: 'info',
          auditor: null,
          auditors: [],
          payload: { n: i, pad },
          key: `flood-${ns.name}-${i}`,
        },
      ]);
    }
    await reading.waitFor((e) => e.payload.n === 2499, 60_000);
    await eventually(async () => {
      const metrics = await fetch(`${fx.api.opsUrl}/metrics`).then((r) => r.text());
      return /platform_console_clients_dropped_total\{reason="slow_client"[^}]*\} [1-9]/.test(metrics)
        ? true
        : undefined;
    }, 'the slow client dropped and counted');
    // The server closed its connection.
    slow.resume();
    await closed;
  }, 120_000);
});

describe('the sidebar badge and approval_requested events', () => {
  it('counts an approval while pending and streams its request; resolving it clears the count', async () => {
    const events = await stream(fx.keys.viewer, 'type=approval_requested');
    const before = (await fx.call('GET', '/v1/notifications/count', { key: fx.keys.owner })).body
      .count as number;
    const req = await fx.call('POST', `/v1/agents/${state.agent}/actions`, {
      key: fx.keys.editor,
      body: { action: 'delete', target: 'repo://demo', description: 'clean up' },
    });
    expect(req.status, JSON.stringify(req.body)).toBe(202);
    const approvalId = String((req.body.approval as { id: string }).id);
    const raised = await events.waitFor((e) => e.payload.id === approvalId);
    expect(raised).toMatchObject({
      type: 'approval_requested',
      severity: 'warning',
      payload: { kind: 'approval', action: 'delete', target: 'repo://demo', requested_by: SUBJECTS.editor },
    });
    await eventually(async () => {
      const c = await fx.call('GET', '/v1/notifications/count', { key: fx.keys.owner });
      return c.body.count === before + 1 ? true : undefined;
    }, 'the badge counting the approval');
    const denied = await fx.call('POST', `/v1/approvals/${approvalId}/deny`, {
      key: fx.keys.owner,
      body: {},
    });
    expect(denied.status).toBe(200);
    await eventually(async () => {
      const c = await fx.call('GET', '/v1/notifications/count', { key: fx.keys.owner });
      return c.body.count === before ? true : undefined;
    }, 'the badge without it');
  });

  it("counts a consent for its user and streams it; the user's answer clears the count", async () => {
    const events = await stream(fx.keys.viewer, 'type=approval_requested');
    const asked = await fx.call('POST', `/v1/agents/${state.agent}/delegations/pending`, {
      key: state.gatewayKey,
      body: { user: SUBJECTS.viewer, service: 'slack', scopes: ['chat:read'], ttl: '1h' },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    const consentId = String(asked.body.id);
    const raised = await events.waitFor((e) => e.payload.id === consentId);
    expect(raised).toMatchObject({ severity: 'info', payload: { kind: 'consent', user: SUBJECTS.viewer } });
    await eventually(async () => {
      const c = await fx.call('GET', '/v1/notifications/count', { key: fx.keys.viewer });
      return c.body.consents === 1 ? true : undefined;
    }, 'the badge counting the consent');
    const answered = await fx.call(
      'POST',
      `/v1/agents/${state.agent}/delegations/pending/${consentId}/deny`,
      {
        key: fx.keys.viewer,
      },
    );
    expect(answered.status, JSON.stringify(answered.body)).toBeLessThan(300);
    await eventually(async () => {
      const c = await fx.call('GET', '/v1/notifications/count', { key: fx.keys.viewer });
      return c.body.consents === 0 ? true : undefined;
    }, 'the badge without it');
  });
});

describe('GET /v1/agents/{agent_id}/console/events', () => {
  it('lists the buffered events with the same filters, newest last', async () => {
    const r = await fx.call(
      'GET',
      `/v1/agents/${state.agent}/console/events?type=tool_call&severity=warning&limit=5`,
      {
        key: fx.keys.viewer,
      },
    );
    expect(r.status).toBe(200);
    const items = r.body.items as { type: string; severity: string; payload: { path: string } }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((e) => e.type === 'tool_call' && e.severity !== 'info')).toBe(true);
    expect(items.map((e) => e.payload.path)).toContain('/items/2');
    const stranger = await fx.call('GET', `/v1/agents/${state.agent}/console/events`, {
      key: fx.keys.stranger,
    });
    expect(stranger.status).toBe(403);
    const bad = await fx.call('GET', `/v1/agents/${state.agent}/console/events?limit=0`, {
      key: fx.keys.viewer,
    });
    expect(bad.status).toBe(400);
  });
});
