// Who decides an approval (issue 13, finding 5): never the requester, even an
// Owner or an administrator; never an administrator who shares Owner to
// itself after the request; and lowering an agent's audit mode from enforce
// is itself a request another Owner approves. Each refusal is in the audit log.
import { beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_SUBJECT } from '../../api/auth/bootstrap.ts';
import { storedAgent, SUBJECTS, useApi, type Reply } from './api-harness.ts';
import { useNamespace } from './harness.ts';

const ns = useNamespace('api-approvers');
const fx = useApi(ns);
const OSCAR = 'oscar@example.com';
let oscarKey = '';

const approvalOf = (r: Reply): Record<string, unknown> & { id: string } =>
  r.body.approval as Record<string, unknown> & { id: string };
const modeOf = async (name: string): Promise<string> =>
  (await storedAgent(ns.name, name)).spec.auditMode ?? 'enforce';

function decide(id: string, verdict: 'approve' | 'deny', key: string): Promise<Reply> {
  return fx.call('POST', `/v1/approvals/${id}/${verdict}`, { key });
}

/** Audit entries for `resource`, as the org administrator reads them. */
async function auditOf(resource: string, extra = ''): Promise<Record<string, unknown>[]> {
  const r = await fx.call('GET', `/v1/audit?resource=${encodeURIComponent(resource)}${extra}`, {
    key: fx.keys.org_admin,
  });
  expect(r.status).toBe(200);
  return r.body.items ?? [];
}

beforeAll(async () => {
  const r = await fx.call('POST', '/v1/api-keys', { key: fx.keys.org_admin, body: { subject: OSCAR } });
  expect(r.status).toBe(201);
  oscarKey = String(r.body.key);
});

describe('nobody decides their own request', () => {
  it('refuses the requesting Owner and the requesting administrator-Owner; another Owner decides', async () => {
    const id = await fx.createAgent('self', [
      { subject: SUBJECTS.owner, role: 'Owner' },
      { subject: OSCAR, role: 'Owner' },
      { subject: SUBJECTS.workspace_admin, role: 'Owner' },
    ]);
    const req = await fx.call('POST', `/v1/agents/${id}/actions`, {
      key: fx.keys.owner,
      body: { action: 'send', target: 'mail://all-staff' },
    });
    expect(req.status).toBe(202);
    const approval = approvalOf(req);
    for (const verdict of ['approve', 'deny'] as const) {
      const own = await decide(approval.id, verdict, fx.keys.owner);
      expect(own.status).toBe(403);
      expect(own.body).toMatchObject({
        code: 'own_request',
        detail: expect.stringContaining('another Owner'),
      });
    }
    expect(approval.approvers).toEqual([OSCAR, SUBJECTS.workspace_admin]);
    const mine = await fx.call('GET', '/v1/approvals', { key: fx.keys.owner });
    expect(mine.body.items!.map((a) => a.id)).not.toContain(approval.id);
    await fx.until(
      '/v1/approvals',
      (r) => r.body.items!.some((a) => a.id === approval.id),
      'workspace_admin',
    );

    const byAdmin = await fx.call('POST', `/v1/agents/${id}/actions`, {
      key: fx.keys.workspace_admin,
      body: { action: 'merge', target: 'pr://7' },
    });
    const adminOwn = await decide(approvalOf(byAdmin).id, 'approve', fx.keys.workspace_admin);
    expect(adminOwn).toMatchObject({ status: 403, body: { code: 'own_request' } });

    const ok = await decide(approval.id, 'approve', oscarKey);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ approval: { phase: 'approved', decided_by: OSCAR } });
    const refusals = await auditOf(`approval:${approval.id}`, '&outcome=denied');
    expect(
      refusals.filter((e) => e.subject === SUBJECTS.owner && e.action === 'approval.decide'),
    ).toHaveLength(2);
  });
});

describe('an administrator sharing Owner to itself', () => {
  it('cannot decide what was requested before the share, only what comes after', async () => {
    const id = await fx.createAgent('grab');
    const pending = approvalOf(await fx.call('DELETE', `/v1/agents/${id}`, { key: fx.keys.editor }));
    for (const [key, subject] of [
      [fx.keys.workspace_admin, SUBJECTS.workspace_admin],
      [fx.keys.org_admin, BOOTSTRAP_SUBJECT],
    ] as const) {
      const share = await fx.call('POST', `/v1/agents/${id}/shares`, {
        key,
        body: { subject, role: 'Owner' },
      });
      expect(share.status).toBe(200);
      for (const verdict of ['approve', 'deny'] as const) {
        const r = await decide(pending.id, verdict, key);
        expect(r.status, `${subject} ${verdict}`).toBe(403);
        expect(r.body.code).toBe('not_an_approver');
      }
    }
    expect((await storedAgent(ns.name, 'grab')).metadata.name).toBe('grab');
    const view = await fx.call('GET', `/v1/approvals/${pending.id}`, { key: fx.keys.owner });
    expect(view.body).toMatchObject({ phase: 'pending', approvers: [SUBJECTS.owner] });
    const later = approvalOf(
      await fx.call('POST', `/v1/agents/${id}/actions`, {
        key: fx.keys.editor,
        body: { action: 'write', target: 'doc://later' },
      }),
    );
    expect(later.approvers).toEqual(expect.arrayContaining([SUBJECTS.workspace_admin, BOOTSTRAP_SUBJECT]));
    expect((await decide(later.id, 'deny', fx.keys.workspace_admin)).status).toBe(200);
    expect((await decide(pending.id, 'deny', fx.keys.owner)).status).toBe(200);
    const refusals = await auditOf(
      `approval:${pending.id}`,
      `&subject=${encodeURIComponent(SUBJECTS.workspace_admin)}`,
    );
    expect(refusals.filter((e) => e.status === 403)).toHaveLength(2);
  });
});

describe('lowering the audit mode', () => {
  it('is an approval another Owner grants; the agent stays enforce until then', async () => {
    const id = await fx.createAgent('mode', [
      { subject: SUBJECTS.owner, role: 'Owner' },
      { subject: OSCAR, role: 'Owner' },
      { subject: SUBJECTS.editor, role: 'Editor' },
    ]);
    const before = await storedAgent(ns.name, 'mode');
    const lower = await fx.call('PATCH', `/v1/agents/${id}`, {
      key: fx.keys.editor,
      body: { spec: { auditMode: 'observe' } },
    });
    expect(lower.status).toBe(202);
    expect(lower.body).toMatchObject({
      applied: false,
      approval: { operation: 'agent.audit_mode', phase: 'pending', details: { auditMode: 'observe' } },
    });
    const mixed = await fx.call('PATCH', `/v1/agents/${id}`, {
      key: fx.keys.editor,
      body: { spec: { auditMode: 'observe', image: 'ghcr.io/x/y:1' } },
    });
    expect(mixed).toMatchObject({ status: 422, body: { code: 'approval_required' } });
    expect(mixed.body.detail).toContain('spec.auditMode');
    expect((await storedAgent(ns.name, 'mode')).metadata.resourceVersion).toBe(
      before.metadata.resourceVersion,
    );
    expect((await decide(approvalOf(lower).id, 'approve', fx.keys.editor)).status).toBe(403);
    expect(await modeOf('mode')).toBe('enforce');

    const ok = await decide(approvalOf(lower).id, 'approve', fx.keys.owner);
    expect(ok.body).toMatchObject({ executed: true, approval: { phase: 'approved' } });
    expect(await modeOf('mode')).toBe('observe');

    const raise = await fx.call('PATCH', `/v1/agents/${id}`, {
      key: fx.keys.editor,
      body: { spec: { auditMode: 'enforce' } },
    });
    expect(raise.status).toBe(200);
    expect(await modeOf('mode')).toBe('enforce');

    const byOwner = approvalOf(
      await fx.call('PATCH', `/v1/agents/${id}`, {
        key: fx.keys.owner,
        body: { spec: { auditMode: 'observe' } },
      }),
    );
    expect((await decide(byOwner.id, 'approve', fx.keys.owner)).body.code).toBe('own_request');
    expect(await modeOf('mode')).toBe('enforce');
    expect((await decide(byOwner.id, 'approve', oscarKey)).status).toBe(200);
    expect(await modeOf('mode')).toBe('observe');
    const updates = await auditOf(id, '&action=agent.update');
    expect(updates.map((e) => e.status)).toEqual(expect.arrayContaining([202, 422, 200]));
  });

  it('is refused when no other Owner could approve it', async () => {
    const id = await fx.createAgent('solo');
    const r = await fx.call('PATCH', `/v1/agents/${id}`, {
      key: fx.keys.owner,
      body: { spec: { auditMode: 'observe' } },
    });
    expect(r).toMatchObject({ status: 409, body: { code: 'no_approver' } });
    expect(await modeOf('solo')).toBe('enforce');
  });
});
