// Issue 15 part 2b against the real apiserver: a running operator probes an
// AuditorRegistration's endpoint (GET /health, a loopback server here) every
// healthCheckIntervalSeconds and records the result in its status; when the
// server stops, the registration turns unhealthy. And the settings schema of
// an auditor: a built-in one, a registered one, 404 for an unknown id.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INJECTION_SCHEMA, REGISTERED_CLAIMS, registeredSchema } from '../fixtures/auditor-schema.ts';
import { useApi } from './api-harness.ts';
import { eventually, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { Platform, type Cond, type Obj } from './platform-client.ts';

const ns = useNamespace('reg-health');
const fx = useApi(ns);
const p = new Platform(() => ns.name);
const ID = `health-${ns.fileId}`;
let operator: OperatorProcess;
let server: Server;
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
    env: { PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`, PLATFORM_API_NAMESPACE: ns.name },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
});

afterAll(async () => {
  await p.delete('AuditorRegistration', ID);
  server.closeAllConnections();
  server.close();
});

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
