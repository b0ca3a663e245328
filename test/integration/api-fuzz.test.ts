// Bad input on every endpoint: malformed JSON, wrong types, huge bodies,
// unknown ids, path traversal in ids, bad query values, duplicate creates.
// Each answer is a 4xx with a clear `detail`; none is a 5xx; nothing is
// half-written.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../api/routes/index.ts';
import { storedAgent, useApi, type Reply } from './api-harness.ts';
import { useNamespace } from './harness.ts';

const ns = useNamespace('api-fuzz');
const fx = useApi(ns);
const ids = { agent: '', approval: '' };

function fill(
  path: string,
  o: Partial<Record<'agent_id' | 'id' | 'subject' | 'digest', string>> = {},
): string {
  return path
    .replace('{agent_id}', o.agent_id ?? ids.agent)
    .replace('{id}', o.id ?? (path.startsWith('/v1/approvals') ? ids.approval : '0123456789abcdef'))
    .replace('{subject}', o.subject ?? 'nobody%40example.com')
    .replace('{digest}', o.digest ?? `sha256:${'c'.repeat(64)}`);
}

function expectClear4xx(r: Reply, what: string): void {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
  expect(r.status, what).toBeLessThan(500);
  // OAuth endpoints answer RFC 6749 §5.2 `{error, error_description}` instead.
  const detail = r.body.detail ?? r.body.error_description;
  expect(typeof detail, what).toBe('string');
  expect(String(detail).length, what).toBeGreaterThan(5);
}

async function resourceVersion(): Promise<string | undefined> {
  const a = await storedAgent(ns.name, ids.agent.slice(ids.agent.indexOf('.') + 1));
  return a.metadata.resourceVersion;
}

const bodyRoutes = ROUTES.filter((r) => r.method !== 'GET');
const key = (): string => fx.keys.owner;

beforeAll(async () => {
  ids.agent = await fx.createAgent('fuzzed');
  // Requested by the Editor, so the Owner's decisions reach their handler.
  const r = await fx.call('POST', `/v1/agents/${ids.agent}/actions`, {
    key: fx.keys.editor,
    body: { action: 'write', target: 'x://y' },
  });
  ids.approval = (r.body.approval as { id: string }).id;
});

describe('bad input on every endpoint', () => {
  it('malformed JSON, wrong JSON types and huge bodies are 400/413, and change nothing', async () => {
    const before = await resourceVersion();
    for (const r of bodyRoutes) {
      const path = fill(r.path);
      const malformed = await fx.call(r.method, path, { key: key(), raw: '{"spec": {"a": ' });
      expectClear4xx(malformed, `${r.method} ${r.path} malformed`);
      for (const body of [
        [],
        'text',
        42,
        null,
        { spec: 5, role: 7, subject: [], digest: {} },
        { unknown: true },
      ]) {
        const res = await fx.call(r.method, path, { key: key(), body });
        expectClear4xx(res, `${r.method} ${r.path} ${JSON.stringify(body)}`);
      }
      const huge = await fx.call(r.method, path, { key: key(), raw: `{"x":"${'z'.repeat(2_000_000)}"}` });
      // A caller the route refuses is told so before any body is read; a route
      // that takes no body refuses one unread.
      const refusedUnread = malformed.status === 403 ? 403 : 400;
      expect(huge.status, `${r.method} ${r.path} huge`).toBe(
        // A form route refuses a JSON body by its type (415) before its size.
        r.body ? (malformed.status === 403 ? 403 : r.form ? 415 : 413) : refusedUnread,
      );
    }
    expect(await resourceVersion()).toBe(before);
  });

  it('random JSON bodies never cause a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bodyRoutes), fc.jsonValue({ maxDepth: 3 }), async (r, body) => {
        const res = await fx.call(r.method, fill(r.path), { key: fx.keys.viewer, body });
        expect(res.status, `${r.method} ${r.path} ${JSON.stringify(body)}`).toBeLessThan(500);
        if (res.status >= 400) expect(typeof (res.body.detail ?? res.body.error)).toBe('string');
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('unknown ids are 404 and traversal or malformed ids are 400/404', async () => {
    const idRoutes = ROUTES.filter((r) => /\{(agent_id|id)\}/.test(r.path));
    const bad = [
      '..',
      '..%2F..%2Fetc%2Fpasswd',
      '%2e%2e',
      `${ns.name}.a%2Fb`,
      `${ns.name}..x`,
      'UPPER.case',
      '%E0%A4%A',
      'x'.repeat(300),
      '.leading',
    ];
    // Policy, preset, workflow and scoped-tier routes are for administrators; the rest are reachable with an Owner's key.
    const keyFor = (path: string): string =>
      /^\/(v1\/policies|v1\/scoped-|api\/v1\/workspaces|api\/v1\/workflows)/.test(path)
        ? fx.keys.org_admin
        : key();
    for (const r of idRoutes) {
      const unknown = await fx.call(
        r.method,
        fill(r.path, {
          agent_id: `${ns.name}.nope`,
          id: r.path.startsWith('/v1/approvals') ? `${ns.name}.nope` : 'ffffffffffffffff',
        }),
        { key: keyFor(r.path) },
      );
      expect([400, 404], `${r.method} ${r.path} unknown`).toContain(unknown.status);
      expectClear4xx(unknown, `${r.method} ${r.path} unknown`);
      const prefix = r.path.slice(0, r.path.indexOf('{'));
      for (const id of bad) {
        const path = fill(r.path, { agent_id: id, id });
        // The client resolves `..` first: `/v1/auditors/schema/..` is sent as `/v1/auditors/`, another route.
        if (!new URL(path, 'http://api').pathname.startsWith(prefix)) continue;
        const res = await fx.call(r.method, path, { key: keyFor(r.path) });
        expectClear4xx(res, `${r.method} ${r.path} id=${id}`);
      }
    }
  });

  it('bad query values are 400', async () => {
    for (const q of [
      '/v1/agents?limit=-1',
      '/v1/agents?limit=abc',
      '/v1/agents?limit=1&limit=2',
      '/v1/agents/stale?days=1e9',
      '/v1/approvals?status=maybe',
      '/registry/check',
      '/registry/check?digest=../../etc',
    ]) {
      expectClear4xx(await fx.call('GET', q, { key: fx.keys.org_admin }), q);
    }
    for (const q of [
      '/v1/audit?since=yesterday',
      '/v1/audit?outcome=won',
      '/v1/audit?limit=0',
      '/v1/audit?before=x',
    ]) {
      expectClear4xx(await fx.call('GET', q, { key: fx.keys.org_admin }), q);
    }
  });

  it('a duplicate create is 409 and the first agent is intact', async () => {
    const before = await resourceVersion();
    const dup = await fx.call('POST', '/v1/agents', {
      key: fx.keys.org_admin,
      body: { namespace: ns.name, name: 'fuzzed', spec: { owners: [{ subject: 'mallory', role: 'Owner' }] } },
    });
    expect(dup.status).toBe(409);
    expectClear4xx(dup, 'duplicate create');
    expect(await resourceVersion()).toBe(before);
  });

  it('odd methods and headers are 4xx', async () => {
    expectClear4xx(await fx.call('PUT', '/v1/agents', { key: key(), body: {} }), 'PUT /v1/agents');
    expectClear4xx(await fx.call('PROPFIND', '/v1/agents', { key: key() }), 'PROPFIND');
    expectClear4xx(
      await fx.call('GET', '/v1/agents', { headers: { authorization: `Bearer ${'a'.repeat(9000)}` } }),
      'long token',
    );
    expectClear4xx(
      await fx.call('POST', '/v1/api-keys', {
        key: key(),
        raw: '{}',
        headers: { 'content-type': 'application/xml' },
      }),
      'xml',
    );
  });
});
