// The Foundation's first vertical proof: a running operator process reconciles
// PlatformAgents on the real control plane and writes `status.phase`.
import { beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

interface Agent {
  metadata: k8s.V1ObjectMeta;
  spec?: { owners?: { subject: string; role: string }[] };
  status?: { phase?: string; observedGeneration?: number; conditions?: Record<string, unknown>[] };
}

const ns = useNamespace('agent-phase');
const resource = { group: GROUP, version: VERSION, plural: 'platformagents' };
let operator: OperatorProcess;

function api(): k8s.CustomObjectsApi {
  return kubeConfig().makeApiClient(k8s.CustomObjectsApi);
}

async function createAgent(name: string, owners: { subject: string; role: string }[]): Promise<void> {
  await api().createNamespacedCustomObject({
    ...resource,
    namespace: ns.name,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'PlatformAgent', metadata: { name }, spec: { owners } },
  });
}

async function getAgent(name: string): Promise<Agent> {
  return (await api().getNamespacedCustomObject({ ...resource, namespace: ns.name, name })) as Agent;
}

async function setOwners(name: string, owners: { subject: string; role: string }[]): Promise<void> {
  await api().patchNamespacedCustomObject(
    { ...resource, namespace: ns.name, name, body: { spec: { owners } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
}

async function phaseOf(name: string, phase: string): Promise<Agent | undefined> {
  const agent = await getAgent(name);
  return agent.status?.phase === phase ? agent : undefined;
}

function condition(agent: Agent, type: string): Record<string, unknown> | undefined {
  return agent.status?.conditions?.find((c) => c.type === type);
}

beforeAll(async () => {
  operator = await startOperator({
    namespace: ns.name,
    identity: 'agent-phase-operator',
    env: {
      PLATFORM_CONTROLLER_RESYNC_INTERVAL: '1s',
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
      PLATFORM_API_NAMESPACE: ns.name,
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
});

describe('PlatformAgent phase (running operator process)', () => {
  it('sets status.phase to pending for an agent with an Owner', async () => {
    const startedMs = Date.now();
    await createAgent('with-owner', [{ subject: 'alice@example.com', role: 'Owner' }]);
    const agent = await eventually(() => phaseOf('with-owner', 'pending'), 'phase pending');
    console.log(`[agent-phase] create → status.phase observed in ${Date.now() - startedMs} ms`);
    expect(agent.status?.observedGeneration).toBe(agent.metadata.generation);
    expect(condition(agent, 'Ready')).toMatchObject({ status: 'False' });
    expect(condition(agent, 'Ready')?.reason).toMatch(/^Pod(NotCreated|Pending)$/);
    expect(condition(agent, 'OwnersMissing')).toMatchObject({ status: 'False', reason: 'OwnerPresent' });
  });

  it('suspends an agent without owners with condition OwnersMissing and records a Warning Event', async () => {
    await createAgent('no-owner', []);
    const agent = await eventually(() => phaseOf('no-owner', 'suspended'), 'phase suspended');
    expect(condition(agent, 'OwnersMissing')).toMatchObject({ status: 'True', reason: 'NoOwner' });
    const events = kubeConfig().makeApiClient(k8s.EventsV1Api);
    const event = await eventually(async () => {
      const list = await events.listNamespacedEvent({ namespace: ns.name });
      return list.items.find((e) => e.regarding?.name === 'no-owner' && e.reason === 'OwnersMissing');
    }, 'the OwnersMissing event');
    expect(event).toMatchObject({ type: 'Warning', reportingController: 'platform.io/operator' });
  });

  it('suspends the agent when its last Owner is removed and restores pending when one is added back', async () => {
    await createAgent('flip', [{ subject: 'bob@example.com', role: 'Owner' }]);
    await eventually(() => phaseOf('flip', 'pending'), 'phase pending');
    await setOwners('flip', [{ subject: 'bob@example.com', role: 'Viewer' }]);
    const suspended = await eventually(() => phaseOf('flip', 'suspended'), 'phase suspended');
    expect(suspended.status?.observedGeneration).toBe(2);
    await setOwners('flip', [{ subject: 'carol@example.com', role: 'Owner' }]);
    const restored = await eventually(() => phaseOf('flip', 'pending'), 'phase pending again');
    expect(condition(restored, 'OwnersMissing')).toMatchObject({ status: 'False', observedGeneration: 3 });
  });

  it('performs zero status writes on a no-op resync', async () => {
    await eventually(() => phaseOf('flip', 'pending'), 'the last transition to settle');
    // The agent pods' creation and their watch events still update status for a moment: wait until quiet.
    const written = (): Promise<number> =>
      operator.metric('platform_controller_status_writes_total', { outcome: 'written' });
    await eventually(async () => {
      const start = await written();
      await new Promise((r) => setTimeout(r, 1500));
      return (await written()) === start ? true : undefined;
    }, 'status writes to settle');
    const before = await Promise.all(['with-owner', 'no-owner', 'flip'].map(getAgent));
    const writes = await operator.metric('platform_controller_status_writes_total', { outcome: 'written' });
    // Every result counts: an agent reconcile returns requeue-after for its Stale deadline.
    const reconciles = await operator.metric('platform_controller_reconcile_total', {
      controller: 'platformagent',
    });
    // Resync runs every second: wait for two full rounds over the three agents.
    await eventually(
      async () =>
        (await operator.metric('platform_controller_reconcile_total', { controller: 'platformagent' })) >=
        reconciles + 6
          ? true
          : undefined,
      'two resync rounds',
    );
    expect(await operator.metric('platform_controller_status_writes_total', { outcome: 'written' })).toBe(
      writes,
    );
    expect(
      await operator.metric('platform_controller_status_writes_total', { outcome: 'unchanged' }),
    ).toBeGreaterThan(0);
    const after = await Promise.all(['with-owner', 'no-owner', 'flip'].map(getAgent));
    expect(after.map((a) => a.metadata.resourceVersion)).toEqual(
      before.map((a) => a.metadata.resourceVersion),
    );
  });

  it('suspends on request (spec.suspend) and returns to pending on reactivate', async () => {
    await createAgent('paused', [{ subject: 'dan@example.com', role: 'Owner' }]);
    await eventually(() => phaseOf('paused', 'pending'), 'phase pending');
    const patch = (suspend: boolean): Promise<unknown> =>
      api().patchNamespacedCustomObject(
        { ...resource, namespace: ns.name, name: 'paused', body: { spec: { suspend } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
    await patch(true);
    const suspended = await eventually(() => phaseOf('paused', 'suspended'), 'phase suspended');
    expect(condition(suspended, 'Ready')).toMatchObject({ status: 'False', reason: 'SuspendRequested' });
    expect(condition(suspended, 'OwnersMissing')).toMatchObject({ status: 'False' });
    await patch(false);
    await eventually(() => phaseOf('paused', 'pending'), 'phase pending after reactivate');
  });

  it('serves /readyz as ready once its informers are synced', async () => {
    const { status, body } = await operator.get('/readyz');
    expect({ status, body: JSON.parse(body) }).toEqual({ status: 200, body: { status: 'ok', failures: [] } });
  });
});
