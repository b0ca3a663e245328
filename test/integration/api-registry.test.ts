// Issue 15 part 2a against the real apiserver: an auditor registration
// fetches its vocabulary from `vocabulary_url` (a loopback server here) and
// stores its claims, an unusable vocabulary is refused with a 422 naming why
// and nothing is stored, the spec's minimal self-registration form is
// accepted (auth `none`, tier `unverified`), and models register and list.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditorRegistration, ModelRegistration } from '../../crds/generated/types.ts';
import { k8s } from '../../base/kube.ts';
import { startAuditor } from '../../auditors/sdk/serve.ts';
import { createLogger } from '../../base/log.ts';
import { AuditorRegistry } from '../../gateway/registry.ts';
import { startGatewayServer } from '../../gateway/server.ts';
import { createTestAuditor } from '../process/fixtures/test-auditors.ts';
import { useApi } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { issueCa } from '../../base/tls/certs.ts';

const ns = useNamespace('api-registry');
const fx = useApi(ns);
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const ref = (plural: string) => ({ group: GROUP, version: VERSION, plural });
const created: { plural: string; name: string }[] = [];
const loopback = { url: '', deadPort: 0, gatewayKey: '' };
const held: ServerResponse[] = [];
let server: Server;

const declaration = (auditorId: string) => ({
  auditor_id: auditorId,
  version: '1.4.0',
  schema_version: '2.0.0',
  phases: ['request'],
  vocabulary: [
    {
      name: 'pii.email_detected',
      type: 'boolean',
      description: 'an e-mail address is in the input',
      value_schema: { type: 'boolean' },
    },
    {
      name: 'pii.score',
      type: 'score_normalized',
      description: 'how personal the input is',
      value_schema: { type: 'number' },
      settings: [{ key: 'threshold', type: 'number', default: 0.7 }],
    },
  ],
});

/** The loopback vocabulary server: `/valid/<id>` serves `id`'s declaration, the others one way of failing. */
function serve(path: string, res: ServerResponse): void {
  const json = (body: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  if (path.startsWith('/valid/')) return json(declaration(path.slice('/valid/'.length)));
  if (path === '/invalid-json') return void res.writeHead(200).end('{"vocabulary": [');
  if (path === '/invalid-schema') return json({ vocabulary: [{ name: 'Not A Name', type: 'percent' }] });
  if (path === '/other-auditor') return json(declaration('someone-else'));
  if (path === '/too-large') return json({ vocabulary: [], padding: 'x'.repeat(2 * 1024 * 1024) });
  if (path === '/redirect') return void res.writeHead(302, { location: '/valid/x' }).end();
  if (path === '/slow') return void held.push(res); // never answered while the test runs
  res.writeHead(404).end();
}

beforeAll(async () => {
  server = createServer((req, res) => serve(req.url ?? '/', res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  loopback.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dead = createServer();
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
  loopback.deadPort = (dead.address() as AddressInfo).port;
  await new Promise((resolve) => dead.close(resolve));
  const r = await fx.call('POST', '/v1/api-keys', {
    key: fx.keys.org_admin,
    body: { subject: `gw@${ns.name}`, role: 'gateway', workspaces: [ns.name] },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  loopback.gatewayKey = String(r.body.key);
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise((resolve) => server.close(resolve));
  for (const { plural, name } of created)
    await custom()
      .deleteClusterCustomObject({ ...ref(plural), name })
      .catch(() => undefined);
});

async function stored<T>(plural: string, name: string): Promise<T | undefined> {
  try {
    return (await custom().getClusterCustomObject({ ...ref(plural), name })) as T;
  } catch (err) {
    if ((err as { code?: number }).code === 404) return undefined;
    throw err;
  }
}

const auditorId = (suffix: string): string => {
  const name = `${suffix}-${ns.name}`.slice(0, 63).replace(/-+$/, '');
  created.push({ plural: PLURAL.auditor, name });
  return name;
};

/** The spec's minimal self-registration form. */
const minimal = (id: string, vocabularyUrl: string) => ({
  auditor_id: id,
  endpoint: `${loopback.url}/auditor`,
  vocabulary_url: vocabularyUrl,
  health_check_interval: 30,
});

describe('POST /v1/auditors/register', () => {
  it('accepts the minimal form, fetches the vocabulary and stores its claims', async () => {
    const id = auditorId('vocab-ok');
    const r = await fx.call('POST', '/v1/auditors/register', {
      key: fx.keys.org_admin,
      body: minimal(id, `${loopback.url}/valid/${id}`),
    });
    expect(r).toMatchObject({
      status: 200,
      body: { registered: true, auditor_id: id, vocabulary_synced: true },
    });
    const reg = await stored<AuditorRegistration>(PLURAL.auditor, id);
    expect(reg?.spec).toMatchObject({
      deploymentMode: 'external',
      auth: { type: 'none' },
      endpoint: `${loopback.url}/auditor`,
      vocabularyUrl: `${loopback.url}/valid/${id}`,
      healthCheckIntervalSeconds: 30,
      supportedPhases: ['request'],
      version: '1.4.0',
      claims: [
        { name: 'pii.email_detected', type: 'boolean', description: 'an e-mail address is in the input' },
        {
          name: 'pii.score',
          type: 'score_normalized',
          settings: [{ key: 'threshold', type: 'number', default: 0.7 }],
        },
      ],
    });
    // It then appears in the registry with its real vocabulary and the tier an unauthenticated channel earns.
    const list = await fx.until(
      '/v1/auditors',
      (l) => Boolean(l.body.items?.some((a) => a.auditor_id === id)),
      'viewer',
    );
    expect(list.body.items?.find((a) => a.auditor_id === id)).toMatchObject({
      builtin: false,
      deployment_mode: 'external',
      trust_tier: 'unverified',
      claims: [
        { name: 'pii.email_detected', type: 'boolean' },
        { name: 'pii.score', type: 'score_normalized' },
      ],
    });
  });

  it('accepts the minimal form from a workspace gateway key, for its workspace', async () => {
    const id = auditorId('via-gw');
    const r = await fx.call('POST', '/v1/auditors/register', {
      key: loopback.gatewayKey,
      body: minimal(id, `${loopback.url}/valid/${id}`),
    });
    expect(r).toMatchObject({ status: 200, body: { registered: true, vocabulary_synced: true } });
    const reg = await stored<AuditorRegistration>(PLURAL.auditor, id);
    expect(reg?.spec).toMatchObject({ workspaces: [ns.name], auth: { type: 'none' } });
    expect(reg?.spec.claims?.map((c) => c.name)).toEqual(['pii.email_detected', 'pii.score']);
  });

  const refusals: [string, () => string, string, RegExp][] = [
    ['invalid JSON', () => `${loopback.url}/invalid-json`, 'vocabulary_invalid', /not JSON/],
    [
      'an invalid declaration',
      () => `${loopback.url}/invalid-schema`,
      'vocabulary_invalid',
      /vocabulary\/vocabulary\/0/,
    ],
    [
      'another auditor’s vocabulary',
      () => `${loopback.url}/other-auditor`,
      'vocabulary_invalid',
      /someone-else/,
    ],
    [
      'a body over 1 MiB',
      () => `${loopback.url}/too-large`,
      'vocabulary_invalid',
      /larger than 1048576 bytes/,
    ],
    ['a redirect', () => `${loopback.url}/redirect`, 'vocabulary_unreachable', /could not be fetched/],
    ['a 404', () => `${loopback.url}/missing`, 'vocabulary_unreachable', /HTTP 404/],
    [
      'a closed port',
      () => `http://127.0.0.1:${loopback.deadPort}/vocabulary`,
      'vocabulary_unreachable',
      /ECONNREFUSED/,
    ],
    ['no answer', () => `${loopback.url}/slow`, 'vocabulary_unreachable', /no answer within 5000 ms/],
    ['a non-http URL', () => 'ftp://127.0.0.1/vocabulary', 'vocabulary_invalid', /only http and https/],
  ];
  it.each(refusals)(
    'refuses a vocabulary_url serving %s with a 422, nothing stored',
    async (_what, url, code, detail) => {
      const id = auditorId('vocab-bad');
      const r = await fx.call('POST', '/v1/auditors/register', {
        key: fx.keys.org_admin,
        body: minimal(id, url()),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.code).toBe(code);
      expect(r.body.detail).toMatch(detail);
      expect(await stored(PLURAL.auditor, id)).toBeUndefined();
    },
  );

  it('never names a vocabulary URL’s credentials or query in its answer', async () => {
    const id = auditorId('vocab-secret');
    const url = `http://user:hunter2@127.0.0.1:${loopback.deadPort}/v?token=s3cret`;
    const r = await fx.call('POST', '/v1/auditors/register', {
      key: fx.keys.org_admin,
      body: minimal(id, url),
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/with credentials/);
    expect(JSON.stringify(r.body)).not.toMatch(/hunter2|s3cret/);
    const query = `http://127.0.0.1:${loopback.deadPort}/v?token=s3cret`;
    const r2 = await fx.call('POST', '/v1/auditors/register', {
      key: fx.keys.org_admin,
      body: minimal(id, query),
    });
    expect(r2).toMatchObject({ status: 422, body: { code: 'vocabulary_unreachable' } });
    expect(JSON.stringify(r2.body)).not.toMatch(/s3cret/);
  });

  it('is refused to roles other than org admin and gateway, before anything is fetched', async () => {
    const id = auditorId('vocab-role');
    for (const persona of ['workspace_admin', 'editor', 'viewer'] as const) {
      const r = await fx.call('POST', '/v1/auditors/register', {
        key: fx.keys[persona],
        body: minimal(id, `${loopback.url}/valid/${id}`),
      });
      expect(r.status).toBe(403);
    }
    expect(await stored(PLURAL.auditor, id)).toBeUndefined();
  });
});

describe('POST /v1/auditors/register with mTLS', () => {
  it('accepts a real PEM certificate in auth.cert_pem (line breaks are part of a PEM) and stores it', async () => {
    const id = auditorId('mtls-pem');
    const certPem = issueCa(new Date(), 30).certPem;
    expect(certPem).toContain('\n');
    const r = await fx.call('POST', '/v1/auditors/register', {
      key: fx.keys.org_admin,
      body: { ...minimal(id, `${loopback.url}/valid/${id}`), auth: { type: 'mtls', cert_pem: certPem } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const reg = await stored<AuditorRegistration>(PLURAL.auditor, id);
    expect(reg?.spec.auth).toEqual({ type: 'mtls', certPem });
  });
});

describe('POST /v1/auditors/register with an image (a sidecar)', () => {
  const image = `registry.example/acme-audit@sha256:${'c'.repeat(64)}`;

  it('stores an org administrator’s image registration as a sidecar pinned by its digest, fetching nothing', async () => {
    const id = auditorId('by-image');
    const r = await fx.call('POST', '/v1/auditors/register', {
      key: fx.keys.org_admin,
      body: { auditor_id: id, image, default_port: 9000 },
    });
    expect(r, JSON.stringify(r.body)).toMatchObject({
      status: 200,
      body: { registered: true, auditor_id: id },
    });
    const reg = await stored<AuditorRegistration>(PLURAL.auditor, id);
    expect(reg?.spec).toMatchObject({
      deploymentMode: 'sidecar',
      image,
      imageDigest: `sha256:${'c'.repeat(64)}`,
      defaultPort: 9000,
    });
    expect(reg?.spec.endpoint).toBeUndefined();
  });

  it('refuses a gateway key that names an image, and a record with neither endpoint nor image; nothing stored', async () => {
    const id = auditorId('by-image-refused');
    const relayed = await fx.call('POST', '/v1/auditors/register', {
      key: loopback.gatewayKey,
      body: { auditor_id: id, image },
    });
    expect(relayed.status).toBe(403);
    expect(relayed.body.detail).toMatch(/with an image .* is for an org administrator/);
    const neither = await fx.call('POST', '/v1/auditors/register', {
      key: fx.keys.org_admin,
      body: { auditor_id: id },
    });
    expect(neither.status).toBe(400);
    const misplaced = await fx.call('POST', '/v1/auditors/register', {
      key: fx.keys.org_admin,
      body: { auditor_id: id, image, deployment_mode: 'in-cluster' },
    });
    expect(misplaced).toMatchObject({ status: 422, body: { code: 'invalid_registration' } });
    expect(misplaced.body.detail).toMatch(/in-cluster auditor is registered with its endpoint/);
    expect(await stored(PLURAL.auditor, id)).toBeUndefined();
  });
});

describe('a third-party auditor started with the SDK', () => {
  it('registers through its gateway with the Verifier, vocabulary and all', async () => {
    const id = auditorId('sdk');
    const log = createLogger('test', { level: 'silent' });
    const unused = {} as never;
    const key = loopback.gatewayKey;
    const registry = new AuditorRegistry([], {
      tls: {},
      env: {},
      timeoutMs: 5000,
      log,
      verifierUrl: fx.api.url,
      apiKey: key,
    });
    const opts = { pipeline: unused, forwarder: unused, metrics: new Registry(), registry, log, apiKey: key };
    const gateway = await startGatewayServer(
      { ...opts, maxBodyBytes: 1 << 20, readiness: () => '' },
      0,
      '127.0.0.1',
    );
    const gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    const auditor = await startAuditor(createTestAuditor(), {
      log,
      env: {
        PLATFORM_GATEWAY_URL: gatewayUrl,
        PLATFORM_API_KEY: key,
        PLATFORM_AUDITOR_ID: id,
        TEE_PROVIDER: 'MOCK',
        PORT: '0',
        POD_IP: '127.0.0.1',
        PLATFORM_AUDITOR_HOST: '127.0.0.1',
      },
    });
    try {
      const result = await auditor.registration;
      expect(result).toMatchObject({
        registered: true,
        attempts: 1,
        body: { registered: true, auditor_id: id, vocabulary_synced: true },
      });
      const reg = await stored<AuditorRegistration>(PLURAL.auditor, id);
      expect(reg?.spec).toMatchObject({
        deploymentMode: 'external',
        auth: { type: 'none' },
        workspaces: [ns.name],
        endpoint: auditor.url,
        vocabularyUrl: `${auditor.url}/vocabulary`,
      });
      const declared = createTestAuditor().vocabulary.map((v) => v.name);
      expect(reg?.spec.claims?.map((c) => c.name)).toEqual(declared);
      expect(registry.list().map((a) => a.id)).toContain(id);
    } finally {
      await auditor.close();
      await new Promise((resolve) => gateway.close(resolve));
    }
  });
});

describe('POST /v1/models/register and GET /v1/models', () => {
  const modelName = (name: string): string => {
    created.push({ plural: PLURAL.model, name });
    return name;
  };

  it('registers a model and lists it with its fields', async () => {
    const name = modelName(`llm-${ns.name}`);
    const digest = `sha256:${'a'.repeat(64)}`;
    const r = await fx.call('POST', '/v1/models/register', {
      key: fx.keys.org_admin,
      body: {
        model_id: name,
        deployment_mode: 'in-cluster',
        model_type: 'chat',
        endpoint: 'http://llm.models.svc:8000/v1',
        image_digest: digest,
        auth: { type: 'api_key', secret_ref: { name: 'llm-key', key: 'key' } },
      },
    });
    expect(r).toMatchObject({ status: 200, body: { registered: true, model_id: name, name } });
    expect((await stored<ModelRegistration>(PLURAL.model, name))?.spec).toMatchObject({
      modelId: name,
      modelType: 'chat',
      deploymentMode: 'in-cluster',
      imageDigest: digest,
      auth: { type: 'api_key', secretRef: { name: 'llm-key', key: 'key' } },
    });
    const list = await fx.until(
      '/v1/models',
      (l) => Boolean(l.body.items?.some((m) => m.name === name)),
      'viewer',
    );
    expect(list.body.items?.find((m) => m.name === name)).toEqual({
      name,
      model_id: name,
      model_type: 'chat',
      deployment_mode: 'in-cluster',
      endpoint: 'http://llm.models.svc:8000/v1',
      image: null,
      image_digest: digest,
    });
  });

  it('re-registers the same model in place; an id that is no object name gets a stable derived name', async () => {
    const modelId = `Meta/Llama-3.1:${ns.name}`;
    const first = await fx.call('POST', '/v1/models/register', {
      key: fx.keys.org_admin,
      body: { model_id: modelId, deployment_mode: 'external', endpoint: 'https://llm.example.com/v1' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const name = modelName(String(first.body.name));
    expect(name).toMatch(/^meta-llama-3-1-.*-[a-f0-9]{10}$/);
    // An external model without auth is stored as `none`.
    expect((await stored<ModelRegistration>(PLURAL.model, name))?.spec.auth).toEqual({ type: 'none' });
    const again = await fx.call('POST', '/v1/models/register', {
      key: fx.keys.org_admin,
      body: {
        model_id: modelId,
        deployment_mode: 'external',
        endpoint: 'https://llm-2.example.com/v1',
        auth: { type: 'mtls', cert_pem: 'ca' },
      },
    });
    expect(again.body.name).toBe(name);
    expect((await stored<ModelRegistration>(PLURAL.model, name))?.spec).toMatchObject({
      endpoint: 'https://llm-2.example.com/v1',
      auth: { type: 'mtls', certPem: 'ca' },
    });
  });

  it('refuses bad input with a 4xx naming it, nothing stored', async () => {
    const name = modelName(`bad-${ns.name}`);
    const cases: [unknown, number, RegExp][] = [
      [{ model_id: name, deployment_mode: 'sidecar' }, 422, /sidecar model needs image/],
      [{ model_id: name, deployment_mode: 'external' }, 422, /needs endpoint/],
      [
        { model_id: name, deployment_mode: 'in-cluster', endpoint: 'http://m:1', auth: { type: 'mtls' } },
        422,
        /cert_pem/,
      ],
      [{ model_id: name, deployment_mode: 'orbit', endpoint: 'http://m:1' }, 400, /deployment_mode/],
      [{ model_id: name, deployment_mode: 'in-cluster', endpoint: 'ftp://m' }, 400, /endpoint/],
      [
        { model_id: name, deployment_mode: 'in-cluster', endpoint: 'http://m:1', image_digest: 'latest' },
        400,
        /image_digest/,
      ],
      [{ deployment_mode: 'in-cluster', endpoint: 'http://m:1' }, 400, /model_id/],
    ];
    for (const [body, status, detail] of cases) {
      const r = await fx.call('POST', '/v1/models/register', { key: fx.keys.org_admin, body });
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.detail).toMatch(detail);
    }
    expect(await stored(PLURAL.model, name)).toBeUndefined();
  });

  it('is for org administrators only', async () => {
    const name = modelName(`role-${ns.name}`);
    const body = { model_id: name, deployment_mode: 'in-cluster', endpoint: 'http://m:1' };
    for (const key of [loopback.gatewayKey, fx.keys.workspace_admin, fx.keys.viewer]) {
      const r = await fx.call('POST', '/v1/models/register', { key, body });
      expect(r.status).toBe(403);
    }
    expect(await stored(PLURAL.model, name)).toBeUndefined();
  });
});
