// The API keeps its contract over real HTTP: a caller is authenticated (and
// authorized) before any body is read, a wrong method is 405 with `Allow`,
// and real answers match the schemas the OpenAPI document gives for them.
import { request } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi, type Persona } from './api-harness.ts';
import { useNamespace } from './harness.ts';

const ns = useNamespace('api-contract');
const fx = useApi(ns);
const ids = { agent: '', approval: '' };

beforeAll(async () => {
  ids.agent = await fx.createAgent('contract');
});

/** A request fetch() will not send (TRACE), over a raw socket. */
function rawStatus(method: string, path: string): Promise<{ status: number; allow: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${fx.api.url}${path}`, { method }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, allow: res.headers.allow });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('authentication comes before the body', () => {
  const bad: { what: string; raw: string; headers: Record<string, string> }[] = [
    { what: 'malformed JSON', raw: '{"spec": ', headers: {} },
    { what: 'a non-JSON content type', raw: 'x=1', headers: { 'content-type': 'text/plain' } },
    { what: 'an oversized body', raw: `{"d":"${'a'.repeat(1_100_000)}"}`, headers: {} },
  ];

  it.each(bad)('answers 401 to an anonymous caller sending $what', async ({ raw, headers }) => {
    for (const path of ['/v1/api-keys', '/v1/agents', `/v1/agents/${ids.agent}/shares`]) {
      const r = await fx.call('POST', path, { raw, headers });
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(401);
      expect(r.body.code).toBe('unauthenticated');
    }
  });

  it('answers 401 to an unknown key sending malformed JSON', async () => {
    const r = await fx.call('POST', '/v1/api-keys', { key: 'pk_0123456789abcdef_nope', raw: '{' });
    expect(r.status).toBe(401);
  });

  it('answers 403 to a caller who may not write, before parsing its body', async () => {
    const r = await fx.call('POST', `/v1/agents/${ids.agent}/shares`, { key: fx.keys.stranger, raw: '{' });
    expect(r.status).toBe(403);
  });

  it('still answers 400 to an authenticated caller sending malformed JSON', async () => {
    const r = await fx.call('POST', '/v1/api-keys', { key: fx.keys.viewer, raw: '{' });
    expect(r).toMatchObject({ status: 400, body: { code: 'malformed_json' } });
  });
});

describe('405 carries Allow', () => {
  it('lists the methods of an API path', async () => {
    const r = await fx.call('PUT', '/v1/approvals', { key: fx.keys.viewer });
    expect(r.status).toBe(405);
    expect(r.body.code).toBe('method_not_allowed');
    expect(r.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD']);
  });

  it('lists the methods of a parameterised path', async () => {
    const r = await fx.call('PUT', `/v1/agents/${ids.agent}`, { key: fx.keys.viewer });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);
  });

  it('treats a fixed path as itself, not as a parameter (/v1/agents/stale is not agent "stale")', async () => {
    const r = await fx.call('DELETE', '/v1/agents/stale', { key: fx.keys.viewer });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD']);
  });

  it('treats a fixed segment after a parameter as itself (…/delegations/pending is not grant "pending")', async () => {
    const path = `/v1/agents/${ids.agent}/delegations/pending`;
    const r = await fx.call('DELETE', path, { key: fx.keys.viewer });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect(await rawStatus('OPTIONS', path)).toEqual({ status: 204, allow: 'GET, HEAD, POST' });
  });

  it('answers a method the router does not know (TRACE) with 405 and Allow, and ops paths too', async () => {
    expect(await rawStatus('TRACE', '/v1/agents')).toEqual({
      status: 405,
      allow: expect.stringContaining('POST'),
    });
    expect(await rawStatus('POST', '/openapi.json')).toEqual({
      status: 405,
      allow: expect.stringContaining('GET'),
    });
    expect((await rawStatus('TRACE', '/v1/no-such-path')).status).toBe(404);
  });
});

describe('answers match the documented success schemas', () => {
  const ajv = new Ajv2020({ strict: false });
  let doc: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  beforeAll(async () => {
    doc = (await fx.call('GET', '/openapi.json')).body as unknown as typeof doc;
  });

  /** `operation`: the documented method and route, e.g. `GET /v1/agents/{agent_id}`; `path` fills it in. */
  async function conforms(operation: string, path: string, persona: Persona, body?: unknown) {
    const [method, route] = operation.split(' ') as [string, string];
    const r = await fx.call(method, path, { key: fx.keys[persona], ...(body ? { body } : {}) });
    const op = doc.paths[route]![method.toLowerCase()]!;
    const documented = op.responses[String(r.status)] as
      { content?: { 'application/json': { schema: object } } } | undefined;
    expect(documented, `${method} ${route} answered an undocumented ${r.status}`).toBeDefined();
    expect(r.status, `${method} ${route}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    const schema = documented!.content?.['application/json'].schema;
    if (r.status !== 204) expect(schema, `${method} ${route} documents no body`).toBeDefined();
    if (schema) {
      const validate = ajv.compile(schema);
      expect(validate(r.body), `${method} ${route}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    return r;
  }

  it('for the agent, share, approval and read routes', async () => {
    const a = `/v1/agents/${ids.agent}`;
    await conforms('GET /v1/agents', '/v1/agents', 'owner');
    await conforms('GET /v1/agents/stale', '/v1/agents/stale?days=0', 'owner');
    await conforms('GET /v1/agents/{agent_id}', a, 'viewer');
    await conforms('PATCH /v1/agents/{agent_id}', a, 'editor', { spec: { handle: 'contract' } });
    await conforms('GET /v1/agents/{agent_id}/access-review', `${a}/access-review`, 'owner');
    await conforms('GET /v1/agents/{agent_id}/passport', `${a}/passport`, 'viewer');
    await conforms('GET /v1/agents/{agent_id}/evidence', `${a}/evidence`, 'viewer');
    await conforms('GET /v1/agents/{agent_id}/shares', `${a}/shares`, 'viewer');
    await conforms('POST /v1/agents/{agent_id}/shares', `${a}/shares`, 'owner', {
      subject: 'new@example.com',
      role: 'Viewer',
    });
    await conforms('DELETE /v1/agents/{agent_id}/shares/{subject}', `${a}/shares/new%40example.com`, 'owner');
    await conforms('POST /v1/agents/{agent_id}/suspend', `${a}/suspend`, 'owner');
    await conforms('POST /v1/agents/{agent_id}/reactivate', `${a}/reactivate`, 'owner');
    const requested = await conforms('POST /v1/agents/{agent_id}/actions', `${a}/actions`, 'editor', {
      action: 'write',
      target: 'repo://contract',
    });
    const approval = (requested.body.approval as { id: string }).id;
    await fx.until('/v1/approvals', (r) => (r.body.items ?? []).length > 0, 'owner');
    await conforms('GET /v1/approvals', '/v1/approvals', 'owner');
    await conforms('GET /v1/approvals/{id}', `/v1/approvals/${approval}`, 'owner');
    await conforms('GET /v1/notifications/count', '/v1/notifications/count', 'owner');
    await conforms('POST /v1/approvals/{id}/deny', `/v1/approvals/${approval}/deny`, 'owner');
    await conforms('DELETE /v1/agents/{agent_id}', a, 'editor');
  });

  it('for keys, audit, registry and policy reads', async () => {
    const minted = await conforms('POST /v1/api-keys', '/v1/api-keys', 'viewer', { description: 'c' });
    await conforms('GET /v1/api-keys', '/v1/api-keys', 'viewer');
    await conforms('DELETE /v1/api-keys/{id}', `/v1/api-keys/${String(minted.body.id)}`, 'viewer');
    await conforms('GET /v1/audit', '/v1/audit', 'org_admin');
    await conforms('GET /v1/audit/verify', '/v1/audit/verify', 'org_admin');
    await conforms('GET /registry/check', `/registry/check?digest=sha256:${'a'.repeat(64)}`, 'owner');
    await conforms('GET /v1/auditors', '/v1/auditors', 'owner');
    await conforms('GET /v1/models', '/v1/models', 'owner');
    await conforms('GET /v1/policies', '/v1/policies', 'org_admin');
  });
});
