// Issue 13, finding 1, repeated against the real apiserver: a Gateway key
// limited to one workspace rewrote a cluster-wide AuditorRegistration
// (endpoint → attacker host, auth mTLS → none, 200) and the registry kept
// showing `mtls_verified`. Now it is refused, the stored object is unchanged,
// an org administrator can still change it, and the tier follows the
// registration in force (never a stored status).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { k8s } from '../../base/kube.ts';
import { useApi } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

const ns = useNamespace('api-reg');
const fx = useApi(ns);
const keys = { workspaceGateway: '', orgGateway: '' };
const REF = { group: GROUP, version: VERSION, plural: 'auditorregistrations' };
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const ids = { shared: '', own: '' };

const stored = async (name: string): Promise<AuditorRegistration> =>
  (await custom().getClusterCustomObject({ ...REF, name })) as AuditorRegistration;

/** The tier GET /v1/auditors shows for `id`, once it shows `expected`. */
const tierBecomes = (id: string, expected: string) =>
  fx.until(
    '/v1/auditors',
    (r) => r.body.items?.find((a) => a.auditor_id === id)?.trust_tier === expected,
    'viewer',
  );

async function mintGatewayKey(subject: string, workspaces: string[]): Promise<string> {
  const r = await fx.call('POST', '/v1/api-keys', {
    key: fx.keys.org_admin,
    body: { subject, role: 'gateway', workspaces },
  });
  if (r.status !== 201) throw new Error(`minting ${subject}: ${r.status} ${JSON.stringify(r.body)}`);
  return String(r.body.key);
}

const ORIGINAL = {
  endpoint: 'https://scanner.example.com',
  deployment_mode: 'external',
  auth: { type: 'mtls', cert_pem: 'test-ca' },
};

beforeAll(async () => {
  ids.shared = `shared-${ns.name}`;
  ids.own = `own-${ns.name}`;
  keys.workspaceGateway = await mintGatewayKey(`gw@${ns.name}`, [ns.name]);
  keys.orgGateway = await mintGatewayKey(`org-gw@${ns.name}`, []);
  const r = await fx.call('POST', '/v1/auditors/register', {
    key: fx.keys.org_admin,
    body: { auditor_id: ids.shared, ...ORIGINAL },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  await tierBecomes(ids.shared, 'mtls_verified');
});

afterAll(async () => {
  for (const name of [ids.shared, ids.own])
    await custom()
      .deleteClusterCustomObject({ ...REF, name })
      .catch(() => undefined);
});

describe('a cluster-wide auditor registration', () => {
  it('cannot be rewritten by a gateway key: refused naming the fields, stored object unchanged', async () => {
    const before = await stored(ids.shared);
    for (const key of [keys.workspaceGateway, keys.orgGateway]) {
      for (const hijack of [
        { endpoint: 'https://attacker.example.net', auth: { type: 'none' } },
        { endpoint: 'https://attacker.example.net', deployment_mode: 'in-cluster', auth: { type: 'none' } },
      ]) {
        const r = await fx.call('POST', '/v1/auditors/register', {
          key,
          body: { auditor_id: ids.shared, ...hijack },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(403);
        expect(r.body.code).toBe('registration_locked');
        expect(r.body.detail).toMatch(/endpoint/);
        expect(r.body.detail).toMatch(/auth/);
      }
    }
    const after = await stored(ids.shared);
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.spec).toMatchObject({ endpoint: ORIGINAL.endpoint, auth: { type: 'mtls' } });
    await tierBecomes(ids.shared, 'mtls_verified');
  });

  it('acknowledges a gateway key’s identical re-registration without writing (restarting auditors)', async () => {
    const before = await stored(ids.shared);
    const r = await fx.call('POST', '/v1/auditors/register', {
      key: keys.workspaceGateway,
      body: { auditor_id: ids.shared, endpoint: ORIGINAL.endpoint, health_check_interval: 30 },
    });
    expect(r).toMatchObject({ status: 200, body: { registered: true, auditor_id: ids.shared } });
    expect((await stored(ids.shared)).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  it('is changed by an org administrator, and the tier follows the registration, not a stored status', async () => {
    const r = await fx.call('POST', '/v1/auditors/register', {
      key: fx.keys.org_admin,
      body: {
        auditor_id: ids.shared,
        endpoint: 'https://scanner-2.example.com',
        auth: { type: 'api_key', secret_ref: { name: 'scanner', key: 'key' } },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await stored(ids.shared)).spec).toMatchObject({
      endpoint: 'https://scanner-2.example.com',
      auth: { type: 'api_key' },
    });
    await tierBecomes(ids.shared, 'key_authenticated');
    // A status claiming more (as the old registration's did) is not believed.
    await custom().patchClusterCustomObjectStatus(
      { ...REF, name: ids.shared, body: { status: { trustTier: 'mtls_verified' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await fx.until(
      '/v1/auditors',
      () => fx.api.deps.auditors.get(ids.shared)?.status?.trustTier === 'mtls_verified',
    );
    await tierBecomes(ids.shared, 'key_authenticated');
  });
});

describe('a gateway key registering a new auditor', () => {
  it('registers it for its own workspaces only', async () => {
    const wider = await fx.call('POST', '/v1/auditors/register', {
      key: keys.workspaceGateway,
      body: { auditor_id: ids.own, ...ORIGINAL, workspaces: [ns.name, 'someone-else'] },
    });
    expect(wider).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    const clusterWide = await fx.call('POST', '/v1/auditors/register', {
      key: keys.workspaceGateway,
      body: { auditor_id: ids.own, ...ORIGINAL, workspaces: [] },
    });
    expect(clusterWide.status).toBe(403);
    await expect(stored(ids.own)).rejects.toMatchObject({ code: 404 });
    const plain = await fx.call('POST', '/v1/auditors/register', {
      key: keys.workspaceGateway,
      body: { auditor_id: ids.own, ...ORIGINAL },
    });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect((await stored(ids.own)).spec.workspaces).toEqual([ns.name]);
  });
});
