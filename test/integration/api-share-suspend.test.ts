// Removing the last Owner through the share dialog suspends the agent, end to
// end: the Verifier API (in-process, as api-harness runs it) and a real
// operator process (`platform run operator`, scoped to this file's namespace)
// against the local control plane. The agent is created and re-shared over
// HTTP only; the operator's reconciliation is observed both through the API
// (agent view and passport) and directly in the cluster (status and pod).
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBJECTS, defaultOwners, useApi, type Reply } from './api-harness.ts';
import { eventually, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { Platform, condition, type Cond } from './platform-client.ts';

const ns = useNamespace('api-share-suspend');
const fx = useApi(ns);
const p = new Platform(() => ns.name);
let operator: OperatorProcess;

const NAME = 'kappa';
const POD = `agent-${NAME}`;

interface AgentStatusView {
  phase?: string;
  observedGeneration?: number;
  conditions?: Cond[];
}

const statusOf = (r: Reply): AgentStatusView => (r.body.status ?? {}) as AgentStatusView;
const apiCondition = (r: Reply, type: string): Cond | undefined =>
  statusOf(r).conditions?.find((c) => c.type === type);

beforeAll(async () => {
  operator = await startOperator({
    namespace: ns.name,
    identity: 'api-share-suspend-operator',
    env: {
      PLATFORM_CONTROLLER_RESYNC_INTERVAL: '1s',
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
      PLATFORM_API_NAMESPACE: ns.name,
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
});

describe('the share dialog and the running operator', () => {
  it('suspends the agent and removes its pod when the last Owner is removed, and restores both', async () => {
    // One Owner (plus an Editor and a Viewer), created over HTTP.
    const owners = defaultOwners();
    expect(owners.filter((o) => o.role === 'Owner')).toHaveLength(1);
    const id = await fx.createAgent(NAME, owners);
    const path = `/v1/agents/${id}`;

    // The operator reconciles it: an explicit `pending` status, seen through the API, and a pod.
    const pending = await fx.until(
      path,
      (r) => statusOf(r).phase === 'pending' && apiCondition(r, 'OwnersMissing')?.status === 'False',
      'owner',
    );
    expect(pending.body.phase).toBe('pending');
    const firstPod = await eventually(() => p.pod(POD), 'the agent pod');
    expect(firstPod.metadata?.labels).toMatchObject({ 'platform.io/agent': NAME });

    // The Owner removes themself: the last Owner leaves through the share dialog.
    const removed = await fx.call('DELETE', `${path}/shares/${encodeURIComponent(SUBJECTS.owner)}`, {
      key: fx.keys.owner,
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ agent_id: id, owners: 0, suspended_for_owners: true });

    // Through the API: the agent view and the passport show the suspension.
    const suspended = await fx.until(
      path,
      (r) => statusOf(r).phase === 'suspended' && apiCondition(r, 'OwnersMissing')?.status === 'True',
      'viewer',
    );
    expect(suspended.body.phase).toBe('suspended');
    expect(apiCondition(suspended, 'OwnersMissing')).toMatchObject({ status: 'True', reason: 'NoOwner' });
    expect(apiCondition(suspended, 'Ready')).toMatchObject({ status: 'False', reason: 'NoOwner' });
    const passport = await fx.call('GET', `${path}/passport`, { key: fx.keys.viewer });
    expect(passport.status).toBe(200);
    expect(passport.body).toMatchObject({ agent_id: id, phase: 'suspended', accountable_owners: 0 });
    expect(passport.body.owners).not.toContainEqual(expect.objectContaining({ role: 'Owner' }));

    // In the cluster: the stored status says the same and the pod is gone.
    const stored = await p.get('PlatformAgent', NAME);
    expect(stored?.status?.phase).toBe('suspended');
    expect(condition(stored, 'OwnersMissing')).toMatchObject({ status: 'True', reason: 'NoOwner' });
    await eventually(async () => ((await p.pod(POD)) ? undefined : true), 'the agent pod to be removed');
    await eventually(
      async () => ((await p.eventReasons(NAME)).includes('OwnersMissing') ? true : undefined),
      'the OwnersMissing event',
    );

    // An Editor cannot grant the Owner role back; a workspace administrator can.
    const refused = await fx.call('POST', `${path}/shares`, {
      key: fx.keys.editor,
      body: { subject: SUBJECTS.editor, role: 'Owner' },
    });
    expect(refused.status).toBe(403);
    const added = await fx.call('POST', `${path}/shares`, {
      key: fx.keys.workspace_admin,
      body: { subject: SUBJECTS.owner, role: 'Owner' },
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ owners: 1, suspended_for_owners: false });

    // The agent leaves `suspended` (API and cluster) and its pod comes back, a new one.
    const restored = await fx.until(
      path,
      (r) => statusOf(r).phase === 'pending' && apiCondition(r, 'OwnersMissing')?.status === 'False',
      'owner',
    );
    expect(apiCondition(restored, 'OwnersMissing')).toMatchObject({ reason: 'OwnerPresent' });
    const again = await eventually(() => p.pod(POD), 'the agent pod back');
    expect(again.metadata?.uid).not.toBe(firstPod.metadata?.uid);
    const back = await p.get('PlatformAgent', NAME);
    expect(back?.status?.phase).toBe('pending');
    expect(condition(back, 'OwnersMissing')?.status).toBe('False');
    const passportBack = await fx.call('GET', `${path}/passport`, { key: fx.keys.owner });
    expect(passportBack.body).toMatchObject({ phase: 'pending', accountable_owners: 1 });
    expect(operator.child.exitCode).toBeNull();
  });
});
