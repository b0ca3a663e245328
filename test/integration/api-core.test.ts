// The API's shell over real HTTP against the real control plane: ops
// endpoints, the OpenAPI document, error shapes, API keys and every kind of
// credential failure (401).
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { hashKey, mintKey } from '../../api/auth/api-key-format.ts';
import { secretNameFor } from '../../api/auth/key-store.ts';
import { k8s } from '../../base/kube.ts';
import { storedAgent, useApi, SUBJECTS } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { metricSum } from './metrics-text.ts';
import { LABEL } from '../../contract/kube.ts';

const ns = useNamespace('api-core');
const fx = useApi(ns);

async function writeKeySecret(namespace: string, expiresAt: string): Promise<string> {
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  const fresh = mintKey();
  await core.createNamespacedSecret({
    namespace,
    body: {
      metadata: { name: secretNameFor(fresh.id), labels: { [LABEL.apiKey]: 'true' } },
      stringData: {
        sha256: hashKey(fresh.key),
        subject: 'late@example.com',
        role: 'user',
        createdBy: 'test',
        createdAt: new Date().toISOString(),
        expiresAt,
      },
    },
  });
  return fresh.key;
}

describe('ops endpoints and the OpenAPI document', () => {
  it('answers /healthz, /readyz and /metrics on its ops port only', async () => {
    expect((await fetch(`${fx.api.opsUrl}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${fx.api.opsUrl}/readyz`)).json()).toEqual({ status: 'ok', failures: [] });
    await fx.call('GET', '/openapi.json');
    const text = await (await fetch(`${fx.api.opsUrl}/metrics`)).text();
    expect(metricSum(text, 'platform_api_requests_total', { route: 'GET /openapi.json' })).toBeGreaterThan(0);
    // The API client's requests to the apiserver (its informers' lists and watches, the bootstrap key).
    expect(metricSum(text, 'rest_client_requests_total', { code: '200', method: 'GET' })).toBeGreaterThan(0);
    expect(text).toMatch(/^rest_client_requests_total\{[^}]*host="127\.0\.0\.1:\d+"/m);
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect((await fx.call('GET', path)).status, path).toBe(404);
    }
  });

  it('serves an OpenAPI 3.1 document listing every route, with the CRD schema for agent specs', async () => {
    const { body } = await fx.call('GET', '/openapi.json');
    expect(body.openapi).toBe('3.1.0');
    const paths = body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/v1/agents',
        '/v1/agents/{agent_id}/passport',
        '/registry/check',
        '/v1/approvals/{id}/approve',
      ]),
    );
    const schemas = (body.components as { schemas: Record<string, { properties: Record<string, unknown> }> })
      .schemas;
    expect(Object.keys(schemas.PlatformAgentSpec!.properties)).toEqual(
      expect.arrayContaining(['owners', 'suspend', 'model']),
    );
  });

  it('echoes a well-formed request id and mints one otherwise', async () => {
    const given = await fx.call('GET', '/openapi.json', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const minted = await fx.call('GET', '/openapi.json', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(minted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('errors are {detail, code}', () => {
  it('404 for an unknown route, 405 for a wrong method', async () => {
    const missing = await fx.call('GET', '/v1/nothing-here', { key: fx.keys.viewer });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found' });
    const wrong = await fx.call('PUT', '/v1/approvals', { key: fx.keys.viewer });
    expect(wrong.status).toBe(405);
    expect(typeof wrong.body.detail).toBe('string');
  });

  it('415 for a non-JSON body, 413 for a huge one, 400 for malformed JSON', async () => {
    const key = fx.keys.viewer;
    const text = await fx.call('POST', '/v1/api-keys', {
      key,
      raw: 'x=1',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    const huge = await fx.call('POST', '/v1/api-keys', {
      key,
      raw: `{"description":"${'a'.repeat(1_100_000)}"}`,
    });
    expect(huge).toMatchObject({ status: 413, body: { code: 'body_too_large' } });
    const broken = await fx.call('POST', '/v1/api-keys', { key, raw: '{"description":' });
    expect(broken.status).toBe(400);
    expect(broken.body.detail).toMatch(/malformed JSON/);
  });
});

/** POSTs `text` in 64 KiB pieces without a Content-Length (chunked); resolves with the status and code. */
function postChunked(url: string, key: string, text: string): Promise<{ status: number; code?: string }> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const req = request(url, { method: 'POST', headers }, (res) => {
      let answer = '';
      res.on('data', (c: Buffer) => (answer += c.toString()));
      res.on('end', () => {
        const body = answer ? (JSON.parse(answer) as { code?: string }) : {};
        resolve({ status: res.statusCode ?? 0, ...(body.code ? { code: body.code } : {}) });
      });
    });
    // The server reads and drops the rest after its 413 (base/body.ts), so every piece goes out.
    req.on('error', reject);
    for (let at = 0; at < text.length; at += 65_536) req.write(text.slice(at, at + 65_536));
    req.end();
  });
}

describe('a chunked body over the limit', () => {
  it('is cut at the limit with 413 body_too_large and writes nothing; under it, the same body is written', async () => {
    const agent = JSON.stringify({
      namespace: ns.name,
      name: 'chunked',
      spec: { owners: [{ subject: SUBJECTS.owner, role: 'Owner' }], model: { id: 'gpt-test' } },
    });
    const url = `${fx.api.url}/v1/agents`;
    // Whitespace keeps it a valid agent: only its size is wrong (the default limit is 1 MiB).
    const padded = agent + ' '.repeat(2 * 1024 * 1024);
    expect(await postChunked(url, fx.keys.org_admin, padded)).toEqual({
      status: 413,
      code: 'body_too_large',
    });
    await expect(storedAgent(ns.name, 'chunked')).rejects.toMatchObject({ code: 404 });
    expect(await postChunked(url, fx.keys.org_admin, agent)).toEqual({ status: 201 });
    expect((await storedAgent(ns.name, 'chunked')).metadata?.name).toBe('chunked');
  });
});

describe('authentication', () => {
  it('creates the bootstrap admin key Secret on first start and keeps it on restart', async () => {
    const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
    const secret = await core.readNamespacedSecret({ namespace: ns.name, name: 'platform-api-bootstrap' });
    expect(Buffer.from(secret.data!['api-key']!, 'base64').toString()).toBe(fx.keys.org_admin);
    const me = await fx.call('GET', '/v1/api-keys', { key: fx.keys.org_admin });
    expect(me.status).toBe(200);
    expect(me.body.items!.some((k) => k.id === fx.api.bootstrapKeyId && k.role === 'org_admin')).toBe(true);
  });

  it('401 for a missing, malformed, unknown, revoked or expired credential', async () => {
    const path = '/v1/agents';
    expect((await fx.call('GET', path)).status).toBe(401);
    const malformed = await fx.call('GET', path, { headers: { authorization: 'Basic abc' } });
    expect(malformed).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
    expect(malformed.headers.get('www-authenticate')).toBe('Bearer');
    expect((await fx.call('GET', path, { key: mintKey().key })).status).toBe(401);
    expect((await fx.call('GET', path, { key: 'pk_short' })).status).toBe(401);
    expect((await fx.call('GET', path, { key: 'not.a.jwt' })).status).toBe(401);
    const expired = await writeKeySecret(ns.name, new Date(Date.now() - 60_000).toISOString());
    const r = await fx.call('GET', path, { key: expired });
    expect(r).toMatchObject({ status: 401, body: { detail: 'API key expired' } });
  });

  it('mints, lists and revokes keys; a revoked key is 401 at once', async () => {
    const minted = await fx.call('POST', '/v1/api-keys', {
      key: fx.keys.stranger,
      body: { description: 'laptop' },
    });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ subject: SUBJECTS.stranger, role: 'user', description: 'laptop' });
    const key = String(minted.body.key);
    expect((await fx.call('GET', '/v1/agents', { key })).status).toBe(200);
    const mine = await fx.call('GET', '/v1/api-keys', { key });
    expect(
      mine.body.items!.every((k) => k.subject === SUBJECTS.stranger && !('key' in k) && !('sha256' in k)),
    ).toBe(true);
    const other = await fx.call('DELETE', `/v1/api-keys/${fx.api.bootstrapKeyId}`, { key });
    expect(other.status).toBe(404);
    expect((await fx.call('DELETE', `/v1/api-keys/${String(minted.body.id)}`, { key })).status).toBe(204);
    expect((await fx.call('GET', '/v1/agents', { key })).status).toBe(401);
    const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
    await eventually(async () => {
      const list = await core.listNamespacedSecret({
        namespace: ns.name,
        labelSelector: `${LABEL.apiKey}=true`,
      });
      return list.items.every((s) => s.metadata?.name !== secretNameFor(String(minted.body.id)))
        ? true
        : undefined;
    }, 'the key Secret to be deleted');
  });

  it('stores only the hash of a key', async () => {
    const minted = await fx.call('POST', '/v1/api-keys', { key: fx.keys.viewer, body: {} });
    const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
    const secret = await core.readNamespacedSecret({
      namespace: ns.name,
      name: secretNameFor(String(minted.body.id)),
    });
    const values = Object.values(secret.data ?? {}).map((v) => Buffer.from(v, 'base64').toString());
    expect(values).not.toContain(minted.body.key);
    expect(values).toContain(hashKey(String(minted.body.key)));
  });

  it('refuses administrator keys to non-administrators', async () => {
    const r = await fx.call('POST', '/v1/api-keys', { key: fx.keys.owner, body: { role: 'org_admin' } });
    expect(r).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    const other = await fx.call('POST', '/v1/api-keys', {
      key: fx.keys.owner,
      body: { subject: 'someone@else' },
    });
    expect(other.status).toBe(403);
  });

  it('accepts a service-account token through TokenReview and names the subject', async () => {
    const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: ns.name, body: { metadata: { name: 'robot' } } });
    const tr = await core.createNamespacedServiceAccountToken({
      namespace: ns.name,
      name: 'robot',
      body: { spec: { audiences: [], expirationSeconds: 600 } },
    });
    const token = tr.status!.token;
    const minted = await fx.call('POST', '/v1/api-keys', { key: token, body: {} });
    expect(minted.status).toBe(201);
    expect(minted.body.subject).toBe(`system:serviceaccount:${ns.name}:robot`);
    const tampered = `${token.slice(0, -4)}AAAA`;
    expect((await fx.call('GET', '/v1/agents', { key: tampered })).status).toBe(401);
  });
});
