// The audit log records who read or changed what, is queryable by
// administrators only (workspace administrators see their namespaces) and
// its hash chain verifies. The registry check answers from registrations.
import { afterAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { SUBJECTS, useApi } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

const ns = useNamespace('api-audit');
const fx = useApi(ns);

type Entry = {
  subject: string;
  action: string;
  resource: string;
  outcome: string;
  status: number;
  namespace?: string;
};

describe('the audit log', () => {
  it('records reads, writes and denials with the subject', async () => {
    const id = await fx.createAgent('watched');
    await fx.call('GET', `/v1/agents/${id}/passport`, { key: fx.keys.viewer });
    await fx.call('POST', `/v1/agents/${id}/suspend`, { key: fx.keys.editor });
    await fx.call('POST', `/v1/agents/${id}/suspend`, { key: fx.keys.stranger });
    const r = await fx.call('GET', `/v1/audit?resource=${id}&limit=50`, { key: fx.keys.org_admin });
    const items = r.body.items as unknown as Entry[];
    expect(items).toContainEqual(
      expect.objectContaining({
        subject: SUBJECTS.viewer,
        action: 'agent.passport',
        outcome: 'allowed',
        namespace: ns.name,
      }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({ subject: SUBJECTS.editor, action: 'agent.suspend', status: 200 }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({
        subject: SUBJECTS.stranger,
        action: 'agent.suspend',
        outcome: 'denied',
        status: 403,
      }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({ subject: 'bootstrap-admin', action: 'agent.create', status: 201 }),
    );
  });

  it('filters by subject and outcome and pages newest first', async () => {
    const denied = await fx.call(
      'GET',
      `/v1/audit?subject=${encodeURIComponent(SUBJECTS.stranger)}&outcome=denied`,
      { key: fx.keys.org_admin },
    );
    const items = denied.body.items as unknown as Entry[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((e) => e.subject === SUBJECTS.stranger && e.outcome === 'denied')).toBe(true);
    const page1 = await fx.call('GET', '/v1/audit?limit=2', { key: fx.keys.org_admin });
    const page2 = await fx.call('GET', `/v1/audit?limit=2&before=${String(page1.body.before)}`, {
      key: fx.keys.org_admin,
    });
    const seqs = [...page1.body.items!, ...page2.body.items!].map((e) => Number(e.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
  });

  it('is for administrators; a workspace administrator sees only its namespaces', async () => {
    expect((await fx.call('GET', '/v1/audit', { key: fx.keys.owner })).status).toBe(403);
    const ws = await fx.call('GET', '/v1/audit?limit=1000', { key: fx.keys.workspace_admin });
    expect((ws.body.items as unknown as Entry[]).every((e) => e.namespace === ns.name)).toBe(true);
  });

  it('verifies its hash chain', async () => {
    const r = await fx.call('GET', '/v1/audit/verify', { key: fx.keys.org_admin });
    expect(r.body).toMatchObject({ ok: true });
    expect(Number(r.body.entries)).toBeGreaterThan(5);
    const full = await fx.call('GET', '/v1/audit/verify?full=true', { key: fx.keys.org_admin });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ ok: true });
    const bad = await fx.call('GET', '/v1/audit/verify?full=yes', { key: fx.keys.org_admin });
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_query' } });
  });
});

afterAll(async () => {
  const api = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  const ref = { group: GROUP, version: VERSION, plural: 'auditorregistrations', name: `aud-${ns.name}` };
  await api.deleteClusterCustomObject(ref).catch(() => undefined);
});

describe('the registry check', () => {
  const digest = `sha256:${'b'.repeat(56)}${Buffer.from(ns.fileId).toString('hex').slice(0, 8).padEnd(8, '0')}`;

  it('answers {digest, notarized} without credentials, and admins notarize registered digests', async () => {
    const before = await fx.call('GET', `/registry/check?digest=${digest}`);
    expect(before).toMatchObject({ status: 200, body: { digest, notarized: false } });
    const unknown = await fx.call('POST', '/v1/registry/notarizations', {
      key: fx.keys.org_admin,
      body: { digest },
    });
    expect(unknown.status).toBe(404);
    await kubeConfig()
      .makeApiClient(k8s.CustomObjectsApi)
      .createClusterCustomObject({
        group: GROUP,
        version: VERSION,
        plural: 'auditorregistrations',
        body: {
          apiVersion: `${GROUP}/${VERSION}`,
          kind: 'AuditorRegistration',
          metadata: { name: `aud-${ns.name}` },
          spec: {
            auditorId: `aud-${ns.name}`,
            category: 'security',
            phase: 'input_guarding',
            deploymentMode: 'sidecar',
            image: `x@${digest}`,
            imageDigest: digest,
          },
        },
      });
    await fx.until('/v1/agents', () => fx.api.deps.auditors.get(`aud-${ns.name}`) !== undefined);
    const marked = await fx.call('POST', '/v1/registry/notarizations', {
      key: fx.keys.org_admin,
      body: { digest },
    });
    expect(marked.body).toMatchObject({
      digest,
      notarized: true,
      records: [`auditorregistrations/aud-${ns.name}`],
    });
    await fx.until(`/registry/check?digest=${digest}`, (r) => r.body.notarized === true);
    await fx.call('DELETE', `/v1/registry/notarizations/${digest}`, { key: fx.keys.org_admin });
    await fx.until(`/registry/check?digest=${digest}`, (r) => r.body.notarized === false);
  });

  it('rejects a malformed digest with 400', async () => {
    const r = await fx.call('GET', '/registry/check?digest=sha256:XYZ');
    expect(r).toMatchObject({ status: 400, body: { code: 'invalid_digest' } });
  });
});
