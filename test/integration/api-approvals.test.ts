// High-risk actions through the API: each creates an ApprovalRequest and
// changes nothing until an Owner approves; Editors, Viewers and
// administrators cannot decide; a decision is final.
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, PlatformAgent } from '../../crds/generated/types.ts';
import { k8s, orUndefinedOn404 } from '../../base/kube.ts';
import { storedAgent, SUBJECTS, useApi } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

const ns = useNamespace('api-approvals');
const fx = useApi(ns);
const objects = () => kubeConfig().makeApiClient(k8s.CustomObjectsApi);

function readAgent(name: string): Promise<PlatformAgent | undefined> {
  return orUndefinedOn404(storedAgent(ns.name, name));
}

async function readApproval(id: string): Promise<ApprovalRequest> {
  const name = id.slice(id.indexOf('.') + 1);
  return (await objects().getNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: 'approvalrequests',
    namespace: ns.name,
    name,
  })) as ApprovalRequest;
}

const approvalIdOf = (r: { body: Record<string, unknown> }): string =>
  String((r.body.approval as { id: string }).id);

describe('high-risk actions need an Owner', () => {
  it('creates an ApprovalRequest for every high-risk route and changes nothing', async () => {
    const id = await fx.createAgent('quiet');
    const before = await readAgent('quiet');
    const requests = [
      fx.call('DELETE', `/v1/agents/${id}`, { key: fx.keys.editor }),
      ...['write', 'merge', 'send', 'delete'].map((action) =>
        fx.call('POST', `/v1/agents/${id}/actions`, {
          key: fx.keys.editor,
          body: { action, target: `repo://main/${action}` },
        }),
      ),
    ];
    for (const r of await Promise.all(requests)) {
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({
        applied: false,
        approval: { phase: 'pending', requested_by: SUBJECTS.editor },
      });
      const stored = await readApproval(approvalIdOf(r));
      expect(stored.spec.agent).toBe('quiet');
      expect(stored.status?.phase).toBe('pending');
    }
    const after = await readAgent('quiet');
    expect(after?.metadata.resourceVersion).toBe(before?.metadata.resourceVersion);
  });

  it('answers a repeated request with the same pending approval', async () => {
    const id = await fx.createAgent('twice');
    const a = await fx.call('DELETE', `/v1/agents/${id}`, { key: fx.keys.editor });
    await fx.until('/v1/approvals', (r) => r.body.items!.some((x) => x.id === approvalIdOf(a)), 'owner');
    const b = await fx.call('DELETE', `/v1/agents/${id}`, { key: fx.keys.editor });
    expect(approvalIdOf(b)).toBe(approvalIdOf(a));
  });

  it('refuses an Editor’s, a Viewer’s and an administrator’s approval; the Owner’s deletes the agent', async () => {
    const id = await fx.createAgent('doomed');
    const req = await fx.call('DELETE', `/v1/agents/${id}`, { key: fx.keys.editor });
    const approval = approvalIdOf(req);
    for (const persona of ['editor', 'viewer', 'org_admin', 'workspace_admin', 'stranger'] as const) {
      const r = await fx.call('POST', `/v1/approvals/${approval}/approve`, { key: fx.keys[persona] });
      expect(r.status, persona).toBe(403);
    }
    expect((await readApproval(approval)).status?.phase).toBe('pending');
    expect(await readAgent('doomed')).toBeDefined();
    const ok = await fx.call('POST', `/v1/approvals/${approval}/approve`, {
      key: fx.keys.owner,
      body: { reason: 'retired' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      executed: true,
      result: 'agent deleted',
      approval: { phase: 'approved', decided_by: SUBJECTS.owner, reason: 'retired' },
    });
    await eventually(
      async () => ((await readAgent('doomed')) === undefined ? true : undefined),
      'the agent to be deleted',
    );
    // The agent and with it every Owner is gone: nobody may decide any more.
    const again = await fx.call('POST', `/v1/approvals/${approval}/deny`, { key: fx.keys.owner });
    expect(again.status).toBe(403);
    expect((await readApproval(approval)).status?.phase).toBe('approved');
  });

  it('a denial changes nothing and is final', async () => {
    const id = await fx.createAgent('spared');
    const req = await fx.call('POST', `/v1/agents/${id}/actions`, {
      key: fx.keys.editor,
      body: { action: 'send', target: 'mail://all-staff', description: 'newsletter' },
    });
    const approval = approvalIdOf(req);
    const denied = await fx.call('POST', `/v1/approvals/${approval}/deny`, {
      key: fx.keys.owner,
      body: { reason: 'no' },
    });
    expect(denied.body).toMatchObject({ executed: false, approval: { phase: 'denied' } });
    expect((await readApproval(approval)).status).toMatchObject({
      phase: 'denied',
      decidedBy: SUBJECTS.owner,
    });
    expect((await fx.call('POST', `/v1/approvals/${approval}/approve`, { key: fx.keys.owner })).status).toBe(
      409,
    );
    expect(await readAgent('spared')).toBeDefined();
  });

  it('lists pending approvals for Owners and counts them for the badge', async () => {
    const id = await fx.createAgent('counted');
    const req = await fx.call('POST', `/v1/agents/${id}/actions`, {
      key: fx.keys.editor,
      body: { action: 'merge', target: 'pr://42' },
    });
    const approval = approvalIdOf(req);
    const list = await fx.until(
      '/v1/approvals',
      (r) => r.body.items!.some((a) => a.id === approval),
      'owner',
    );
    expect(list.body.items!.every((a) => a.phase === 'pending')).toBe(true);
    const count = await fx.call('GET', '/v1/notifications/count', { key: fx.keys.owner });
    expect(count.body.count).toBe(list.body.items!.length);
    expect((await fx.call('GET', '/v1/approvals', { key: fx.keys.editor })).body.items).toEqual([]);
    expect((await fx.call('GET', '/v1/notifications/count', { key: fx.keys.viewer })).body.count).toBe(0);
    const one = await fx.call('GET', `/v1/approvals/${approval}`, { key: fx.keys.viewer });
    expect(one.body).toMatchObject({ id: approval, action: 'merge', target: 'pr://42', phase: 'pending' });
  });
});
