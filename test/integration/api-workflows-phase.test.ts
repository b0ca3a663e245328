// The workflow phase against the real apiserver with a running operator
// (decision 125): deploy answers `deploying`; the workflow controller moves it
// to `deployed` once every node agent runs (pod status written through
// pods/status: no kubelet here) and to `failed` naming the node whose agent's
// pod failed; stop answers `stopped`.
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultOwners, useApi } from './api-harness.ts';
import { eventually, useNamespace } from './harness.ts';
import { startOperator } from './operator-process.ts';
import { Platform, condition, type Obj } from './platform-client.ts';

const ns = useNamespace('api-wf-phase');
const fx = useApi(ns);
const p = new Platform(() => ns.name);
const path = (suffix = '') => `/api/v1/workflows/${ns.name}.pair${suffix}`;
const spec = () => ({ owners: defaultOwners(), model: { id: 'gpt-test' } });

const inPhase = async (phase: string): Promise<Obj | undefined> => {
  const wf = await p.get('workflows', 'pair');
  return wf?.status?.phase === phase ? wf : undefined;
};

beforeAll(async () => {
  const operator = await startOperator({
    namespace: ns.name,
    identity: 'workflow-phase-operator',
    env: {
      PLATFORM_CONTROLLER_RESYNC_INTERVAL: '1s',
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
      PLATFORM_API_NAMESPACE: ns.name,
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
  const body = {
    namespace: ns.name,
    name: 'pair',
    nodes: [
      { name: 'lead', agent: 'ph-lead', spec: spec() },
      { name: 'helper', agent: 'ph-helper', spec: spec() },
    ],
    edges: [{ from: 'lead', to: 'helper' }],
  };
  const r = await fx.call('POST', '/api/v1/workflows', { key: fx.keys.org_admin, body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toMatchObject({ phase: 'draft', conditions: [{ type: 'Ready', reason: 'NotDeployed' }] });
});

describe('workflow phase (running operator)', () => {
  it('deploying after deploy, deployed once both agents run', async () => {
    const r = await fx.call('POST', path('/deploy'), { key: fx.keys.org_admin });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      phase: 'deploying',
      conditions: [{ status: 'False', reason: 'AgentsStarting' }],
    });
    const waiting = await eventually(() => inPhase('deploying'), 'deploying');
    expect(condition(waiting, 'Ready')?.message).toContain('node lead');

    await eventually(() => p.pod('agent-ph-lead'), 'the lead pod');
    await eventually(() => p.pod('agent-ph-helper'), 'the helper pod');
    await p.setPodPhase('agent-ph-lead', 'Running');
    const half = await eventually(async () => {
      const wf = await inPhase('deploying');
      const message = condition(wf, 'Ready')?.message ?? '';
      return message.includes('node helper') && !message.includes('node lead') ? wf : undefined;
    }, 'only the helper to wait');
    expect(half.status?.phase).toBe('deploying');

    await p.setPodPhase('agent-ph-helper', 'Running');
    const deployed = await eventually(() => inPhase('deployed'), 'deployed');
    expect(condition(deployed, 'Ready')).toMatchObject({ status: 'True', reason: 'AllAgentsRunning' });
    const view = await fx.call('GET', path(), { key: fx.keys.org_admin });
    expect(view.body).toMatchObject({ phase: 'deployed', conditions: [{ type: 'Ready', status: 'True' }] });
  });

  it('failed, naming the node, when an agent pod fails; deployed again when it runs', async () => {
    await p.setPodPhase('agent-ph-helper', 'Failed');
    const failed = await eventually(() => inPhase('failed'), 'failed');
    expect(condition(failed, 'Ready')).toMatchObject({ status: 'False', reason: 'AgentFailed' });
    expect(condition(failed, 'Ready')?.message).toMatch(
      new RegExp(`^node helper: agent ${ns.name}\\.ph-helper failed`),
    );
    await p.setPodPhase('agent-ph-helper', 'Running');
    await eventually(() => inPhase('deployed'), 'deployed again');
  });

  it('stopped after stop, and the controller leaves it stopped', async () => {
    const r = await fx.call('POST', path('/stop'), { key: fx.keys.org_admin });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ phase: 'stopped', conditions: [{ reason: 'Stopped' }] });
    // The agents turning suspended requeue the workflow; it stays stopped.
    await eventually(() => p.inPhase('PlatformAgent', 'ph-helper', 'suspended'), 'the helper suspended');
    await eventually(() => p.inPhase('PlatformAgent', 'ph-lead', 'suspended'), 'the lead suspended');
    expect((await p.get('workflows', 'pair'))?.status?.phase).toBe('stopped');
  });
});
