// Issue 15 part 2b against the real apiserver: a running operator probes an
// AuditorRegistration's endpoint (GET /health, a loopback server here) every
// healthCheckIntervalSeconds and records the result in its status; when the
// server stops, the registration turns unhealthy. And the settings schema of
// an auditor: a built-in one, a registered one, 404 for an unknown id.
import { existsSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { issueCa, issueClient, issueServing } from '../../base/tls/certs.ts';
import { ANNOTATION, LABEL } from '../../contract/kube.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INJECTION_SCHEMA, REGISTERED_CLAIMS, registeredSchema } from '../fixtures/auditor-schema.ts';
import { useApi, type Reply } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { Platform, type Cond, type Obj } from './platform-client.ts';

// The operator and the API start with a client certificate (PLATFORM_REGISTRY_CLIENT_CERT/KEY),
// read from its files on each mTLS request (decision 136).
const now = new Date();
const clientCa = issueCa(now, 1, 'platform-client-ca');
const client = issueClient(clientCa, 'platform-operator', now, 1);
const clientDir = mkdtempSync(join(tmpdir(), 'registry-client-'));
writeFileSync(join(clientDir, 'tls.crt'), client.certPem);
writeFileSync(join(clientDir, 'tls.key'), client.keyPem);
const clientEnv = {
  PLATFORM_REGISTRY_CLIENT_CERT: join(clientDir, 'tls.crt'),
  PLATFORM_REGISTRY_CLIENT_KEY: join(clientDir, 'tls.key'),
};

const ns = useNamespace('reg-health');
const fx = useApi(ns, () => clientEnv);
const p = new Platform(() => ns.name);
const ID = `health-${ns.fileId}`;
let operator: OperatorProcess;
let server: Server;
const authServers: Server[] = [];
const API_KEY = 'probe-key-0123456789';
const answer = { status: 200, body: { status: 'healthy', auditor_id: ID, version: '1.0.0', ready: true } };

interface Health {
  status: string;
  checkedAt: string;
  detail: string;
}
const healthOf = (o: Obj | undefined): Health | undefined => o?.status?.health as Health | undefined;
const healthy = (o: Obj | undefined): Cond | undefined =>
  o?.status?.conditions?.find((c) => c.type === 'Healthy');

beforeAll(async () => {
  server = createServer((req, res) => {
    const ok = req.url === '/base/health';
    res.writeHead(ok ? answer.status : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ok ? answer.body : { detail: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  operator = await startOperator({
    namespace: ns.name,
    identity: 'registry-health-operator',
    env: {
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
      PLATFORM_API_NAMESPACE: ns.name,
      ...clientEnv,
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
});

afterAll(async () => {
  await p.delete('AuditorRegistration', ID);
  server.closeAllConnections();
  server.close();
  for (const s of authServers) {
    s.closeAllConnections();
    s.close();
  }
});

const json = (res: ServerResponse, status: number, body: unknown): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function listening(s: Server): Promise<number> {
  authServers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return (s.address() as AddressInfo).port;
}

// An auditor's server: its certificate issued by its own CA for 127.0.0.1; it
// completes a TLS handshake only with a client the platform's client CA vouches for.
const auditorCa = issueCa(now, 1, 'auditor-ca');
const serving = issueServing(auditorCa, { dnsNames: [], ipAddresses: ['127.0.0.1'] }, now, 1);
const NO_CLIENT_CERT =
  'the endpoint requires a client certificate and none was presented (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED)';

async function mtlsAuditor(id: string): Promise<string> {
  const tls = { cert: serving.certPem, key: serving.keyPem, ca: clientCa.certPem };
  const vocabularyOf = (auditorId: string): unknown => ({
    auditor_id: auditorId,
    vocabulary: [{ name: 'pii.found', type: 'boolean', description: 'personal data in the input' }],
  });
  const port = await listening(
    createHttpsServer({ ...tls, requestCert: true, rejectUnauthorized: true }, (req, res) =>
      req.url?.startsWith('/vocabulary/')
        ? json(res, 200, vocabularyOf(req.url.slice('/vocabulary/'.length)))
        : json(res, 200, { status: 'healthy', auditor_id: id, version: '1.0.0', ready: true }),
    ),
  );
  return `https://127.0.0.1:${port}`;
}

const waitHealth = (kind: string, name: string, status: string): Promise<Obj> =>
  eventually(async () => {
    const o = await p.get(kind, name);
    return healthOf(o)?.status === status ? o : undefined;
  }, `${kind} ${name} to be ${status}`);

describe('registry health checks', () => {
  it('records healthy, then unhealthy once the endpoint stops answering', async () => {
    const { port } = server.address() as AddressInfo;
    await p.create('AuditorRegistration', ID, {
      auditorId: ID,
      category: 'security',
      phase: 'input_guarding',
      deploymentMode: 'in-cluster',
      endpoint: `http://127.0.0.1:${port}/base`,
      healthCheckIntervalSeconds: 1,
      // The test's operator watches one namespace: it probes that workspace's registrations.
      workspaces: [ns.name],
    });
    const up = await eventually(async () => {
      const o = await p.get('AuditorRegistration', ID);
      return healthOf(o)?.status === 'healthy' ? o : undefined;
    }, 'the registration to be healthy');
    expect(healthy(up)).toMatchObject({ status: 'True', reason: 'ProbeSucceeded' });
    expect(up.status?.lastHealthTime).toBe(healthOf(up)?.checkedAt);

    // A not-ready answer is unhealthy, and says why.
    answer.body = { ...answer.body, ready: false };
    const notReady = await eventually(async () => {
      const o = await p.get('AuditorRegistration', ID);
      return healthOf(o)?.status === 'unhealthy' ? o : undefined;
    }, 'the registration to be unhealthy (not ready)');
    expect(healthOf(notReady)?.detail).toBe('GET /health answered ready: false');
    expect(notReady.status?.lastHealthTime).toBe(up.status?.lastHealthTime);
    answer.body = { ...answer.body, ready: true };
    await eventually(async () => {
      const o = await p.get('AuditorRegistration', ID);
      return healthOf(o)?.status === 'healthy' ? o : undefined;
    }, 'the registration to be healthy again');

    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const down = await eventually(async () => {
      const o = await p.get('AuditorRegistration', ID);
      return healthOf(o)?.status === 'unhealthy' ? o : undefined;
    }, 'the registration to be unhealthy (server stopped)');
    expect(healthy(down)).toMatchObject({ status: 'False', reason: 'ProbeFailed' });
    expect(healthOf(down)?.detail).toMatch(/^GET \/health failed: /);
  });
});

describe('probes and the vocabulary fetch with the registration’s auth', () => {
  it('sends an API key from the Secret the registration names, only when the Secret lists it', async () => {
    const id = `key-${ns.fileId}`;
    const port = await listening(
      createServer((req, res) =>
        req.headers.authorization === `Bearer ${API_KEY}`
          ? json(res, 200, { status: 'ok' })
          : json(res, 401, { detail: 'bad key' }),
      ),
    );
    const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
    const secret = `${id}-key`;
    await p.create('AuditorRegistration', id, {
      auditorId: id,
      category: 'security',
      phase: 'input_guarding',
      deploymentMode: 'external',
      endpoint: `http://127.0.0.1:${port}`,
      auth: { type: 'api_key', secretRef: { name: secret, key: 'token' } },
      healthCheckIntervalSeconds: 1,
      workspaces: [ns.name],
    });
    try {
      const missing = await waitHealth('AuditorRegistration', id, 'unhealthy');
      expect(healthOf(missing)?.detail).toBe(
        `GET /health failed: not sent: the API key Secret ${secret} does not exist`,
      );
      await core.createNamespacedSecret({
        namespace: ns.name,
        body: {
          metadata: { name: secret, annotations: { [ANNOTATION.credentialFor]: `auditor/${id}` } },
          stringData: { token: API_KEY },
        },
      });
      const up = await waitHealth('AuditorRegistration', id, 'healthy');
      expect(healthy(up)).toMatchObject({ status: 'True' });
      // A wrong key: the auditor's refusal is the reason.
      await core.replaceNamespacedSecret({
        name: secret,
        namespace: ns.name,
        body: {
          metadata: { name: secret, annotations: { [ANNOTATION.credentialFor]: `auditor/${id}` } },
          stringData: { token: 'wrong' },
        },
      });
      const refused = await waitHealth('AuditorRegistration', id, 'unhealthy');
      expect(healthOf(refused)?.detail).toBe('GET /health answered HTTP 401');
      expect(JSON.stringify(refused.status)).not.toContain(API_KEY);
    } finally {
      await p.delete('AuditorRegistration', id);
    }
  });

  it('reaches an mTLS auditor: its own certificate trusted, the platform’s client certificate presented', async () => {
    const id = `mtls-${ns.fileId}`;
    const refused = `mtls-refused-${ns.fileId}`;
    const endpoint = await mtlsAuditor(id);
    const away = `${clientEnv.PLATFORM_REGISTRY_CLIENT_CERT}.away`;
    const register = (auditorId: string): Promise<Reply> =>
      fx.call('POST', '/v1/auditors/register', {
        key: fx.keys.org_admin,
        body: {
          auditor_id: auditorId,
          endpoint,
          vocabulary_url: `${endpoint}/vocabulary/${auditorId}`,
          health_check_interval: 1,
          // The server's own certificate (a CA issued it), PEM line breaks and all.
          auth: { type: 'mtls', cert_pem: serving.certPem },
          workspaces: [ns.name],
        },
      });
    try {
      const r = await register(id);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ registered: true, auditor_id: id, vocabulary_synced: true });
      const up = await waitHealth('AuditorRegistration', id, 'healthy');
      expect(healthy(up)).toMatchObject({ status: 'True', reason: 'ProbeSucceeded' });

      // Without the client certificate (its files gone): refused, and the reason says why.
      renameSync(clientEnv.PLATFORM_REGISTRY_CLIENT_CERT, away);
      const down = await waitHealth('AuditorRegistration', id, 'unhealthy');
      expect(healthOf(down)?.detail).toBe(`GET /health failed: ${NO_CLIENT_CERT}`);
      const no = await register(refused);
      expect(no.status).toBe(422);
      expect(no.body).toEqual({
        detail: `vocabulary_url ${endpoint}/vocabulary/${refused} could not be fetched: ${NO_CLIENT_CERT}`,
        code: 'vocabulary_unreachable',
      });
      expect(await p.get('AuditorRegistration', refused)).toBeUndefined();

      // The certificate back: presented again without a restart.
      renameSync(away, clientEnv.PLATFORM_REGISTRY_CLIENT_CERT);
      await waitHealth('AuditorRegistration', id, 'healthy');
    } finally {
      if (existsSync(away)) renameSync(away, clientEnv.PLATFORM_REGISTRY_CLIENT_CERT);
      await p.delete('AuditorRegistration', id);
      await p.delete('AuditorRegistration', refused);
    }
  });

  it('probes a model registration at GET <endpoint>/models', async () => {
    const name = `model-${ns.fileId}`;
    const list = { up: true };
    const port = await listening(
      createServer((req, res) =>
        req.url === '/v1/models' && list.up
          ? json(res, 200, { object: 'list', data: [{ id: name, object: 'model' }] })
          : json(res, 503, { detail: 'down' }),
      ),
    );
    await p.create(
      'ModelRegistration',
      name,
      {
        modelId: name,
        modelType: 'chat',
        deploymentMode: 'in-cluster',
        endpoint: `http://127.0.0.1:${port}/v1`,
      },
      { labels: { [LABEL.workspace]: ns.name } },
    );
    try {
      const up = await waitHealth('ModelRegistration', name, 'healthy');
      expect(healthOf(up)?.detail).toBe('GET /models answered healthy');
      expect(healthy(up)).toMatchObject({ status: 'True', reason: 'ProbeSucceeded' });
    } finally {
      await p.delete('ModelRegistration', name);
    }
  });
});

describe('GET /v1/auditors/schema/{id}', () => {
  it('serves a built-in auditor’s settings to any authenticated caller', async () => {
    const r = await fx.call('GET', '/v1/auditors/schema/injection', { key: fx.keys.viewer });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual(INJECTION_SCHEMA);
    const anonymous = await fx.call('GET', '/v1/auditors/schema/injection');
    expect(anonymous.status).toBe(401);
  });

  it('derives a registered auditor’s settings from its claims', async () => {
    const id = `schema-${ns.fileId}`;
    await p.create('AuditorRegistration', id, {
      auditorId: id,
      category: 'compliance',
      phase: 'input_guarding',
      deploymentMode: 'sidecar',
      image: 'example.com/pii:1',
      claims: REGISTERED_CLAIMS,
    });
    try {
      const r = await fx.until(`/v1/auditors/schema/${id}`, (g) => g.status === 200, 'viewer');
      expect(r.body).toEqual(registeredSchema(id));
    } finally {
      await p.delete('AuditorRegistration', id);
    }
  });

  it('answers 404 for an auditor that is neither built in nor registered', async () => {
    const r = await fx.call('GET', '/v1/auditors/schema/no-such-auditor', { key: fx.keys.org_admin });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      detail: 'no auditor no-such-auditor: neither built in nor registered',
      code: 'not_found',
    });
  });
});
