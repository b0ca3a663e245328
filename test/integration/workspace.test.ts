// Organization and PlatformWorkspace reconciled by a running operator: the
// namespace label, the chain ConfigMap, one PlatformAgent per spec.agents[]
// with owners and the composed chain on its pod, conditions for bad input,
// and garbage collection when the workspace is deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { Platform, condition } from './platform-client.ts';

const ns = useNamespace('workspace');
const p = new Platform(() => ns.name);
const ORG = `org-${ns.fileId}`;
let operator: OperatorProcess;

const owner = (subject: string, role = 'Owner') => ({ subject, role });

beforeAll(async () => {
  operator = await startOperator({
    namespace: ns.name,
    identity: 'workspace-operator',
    env: { PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`, PLATFORM_API_NAMESPACE: ns.name },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
  await p.create('Organization', ORG, {
    homeNamespace: ns.name,
    requiredAuditors: ['injection'],
    frameworks: [{ name: 'safety', requiredAuditors: ['toxicity'] }],
  });
});

afterAll(async () => {
  await p.delete('Organization', ORG);
});

describe('PlatformWorkspace → namespace, chain ConfigMap and agents', () => {
  it('labels the namespace, writes the chain ConfigMap and creates one agent per entry with owners', async () => {
    await p.create('PlatformWorkspace', 'team', {
      organization: ORG,
      frameworks: ['safety'],
      defaults: {
        owners: [owner('alice@example.com')],
        auditorChain: {
          preRequest: [{ auditorId: 'model-context' }],
          postResponse: [{ auditorId: 'llm-judge' }],
        },
      },
      agents: [
        { name: 'planner', model: { id: 'gpt-4o' } },
        { name: 'coder', model: { id: 'claude' }, owners: [owner('bob@example.com', 'Editor')] },
      ],
    });
    const nsObj = await eventually(async () => {
      const n = await p.core.readNamespace({ name: ns.name });
      return n.metadata?.labels?.['platform.computing/enabled'] === 'true' ? n : undefined;
    }, 'the namespace label');
    expect(nsObj.metadata?.name).toBe(ns.name);

    const cm = await eventually(
      () =>
        p.core
          .readNamespacedConfigMap({ namespace: ns.name, name: 'platform-auditor-chain' })
          .catch(() => undefined),
      'the chain ConfigMap',
    );
    expect(cm.data).toEqual({ preRequest: 'model-context,llm-judge,injection,toxicity', postResponse: '' });
    expect(cm.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'PlatformWorkspace', name: 'team' });

    const coder = await eventually(() => p.get('PlatformAgent', 'coder'), 'agent coder');
    expect(coder.spec?.owners).toEqual([owner('alice@example.com'), owner('bob@example.com', 'Editor')]);
    expect(coder.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'PlatformWorkspace',
      name: 'team',
      controller: true,
    });
    expect(coder.metadata.labels).toMatchObject({ 'platform.io/workspace': 'team' });

    const pod = await eventually(() => p.pod('agent-planner'), 'the planner pod');
    expect(pod.metadata?.annotations?.['platform.computing/auditor-chain']).toBe(
      'model-context,llm-judge,injection,toxicity',
    );
    const ws = await eventually(
      () => p.withCondition('PlatformWorkspace', 'team', { type: 'Ready', status: 'True' }),
      'workspace Ready',
    );
    expect(ws.status).toMatchObject({
      agentCount: 2,
      chain: ['model-context', 'llm-judge', 'injection', 'toxicity'],
    });
    const org = await eventually(async () => {
      const o = await p.get('Organization', ORG);
      return o?.status?.workspaceCount === 1 ? o : undefined;
    }, 'the org to count the workspace');
    expect(condition(org, 'Ready')).toMatchObject({ status: 'True' });
  });

  it('refuses to drop a required auditor through an explicit agent chain and says which scope requires it', async () => {
    await p.patch('PlatformAgent', 'planner', {
      metadata: { annotations: { 'platform.computing/auditor-chain': 'injection' } },
    });
    const agent = await eventually(
      () =>
        p.withCondition('PlatformAgent', 'planner', {
          type: 'ChainValid',
          status: 'False',
          reason: 'RequiredAuditorRemoved',
        }),
      'RequiredAuditorRemoved',
    );
    expect(condition(agent, 'ChainValid')?.message).toContain(
      'auditor toxicity is required by compliance framework safety and cannot be removed',
    );
    const pod = await eventually(() => p.pod('agent-planner'), 'the planner pod');
    expect(pod.metadata?.annotations?.['platform.computing/auditor-chain']).toContain('toxicity');
  });

  it('reports an unknown auditor on the workspace and keeps the agents and their pods', async () => {
    const before = await eventually(() => p.pod('agent-coder'), 'the coder pod');
    await p.patch('PlatformWorkspace', 'team', { spec: { requiredAuditors: ['not-registered'] } });
    const ws = await eventually(
      () =>
        p.withCondition('PlatformWorkspace', 'team', {
          type: 'ChainValid',
          status: 'False',
          reason: 'UnknownAuditor',
        }),
      'UnknownAuditor on the workspace',
    );
    expect(condition(ws, 'ChainValid')?.message).toContain('not-registered');
    await eventually(
      () =>
        p.withCondition('PlatformAgent', 'coder', {
          type: 'ChainValid',
          status: 'False',
          reason: 'UnknownAuditor',
        }),
      'UnknownAuditor on the agent',
    );
    expect((await p.pod('agent-coder'))?.metadata?.uid).toBe(before.metadata?.uid);
    await p.patch('PlatformWorkspace', 'team', { spec: { requiredAuditors: null } });
    await eventually(
      () => p.withCondition('PlatformWorkspace', 'team', { type: 'ChainValid', status: 'True' }),
      'ChainValid again',
    );
  });

  it('updates an agent when its entry changes and deletes it when its entry is removed', async () => {
    await p.patch('PlatformWorkspace', 'team', {
      spec: { agents: [{ name: 'planner', model: { id: 'gpt-5' } }] },
    });
    await eventually(
      async () => ((await p.get('PlatformAgent', 'coder')) ? undefined : true),
      'coder deleted',
    );
    const planner = await eventually(async () => {
      const a = await p.get('PlatformAgent', 'planner');
      return (a?.spec?.model as { id?: string } | undefined)?.id === 'gpt-5' ? a : undefined;
    }, 'planner updated');
    expect(planner.spec?.owners).toEqual([owner('alice@example.com')]);
  });

  it('removes from the agent what its entry no longer says, deep in an object too', async () => {
    const routed = { destination: 'api.github.com', injectionMethod: 'sidecar' };
    const entry = (environment: Record<string, unknown>) => ({
      spec: { agents: [{ name: 'planner', model: { id: 'gpt-5' }, environment }] },
    });
    await p.patch(
      'PlatformWorkspace',
      'team',
      entry({ tools: [{ name: 'github' }], credentialRouting: [routed] }),
    );
    await eventually(async () => {
      const a = await p.get('PlatformAgent', 'planner');
      return (a?.spec?.environment as { credentialRouting?: unknown[] } | undefined)?.credentialRouting
        ? a
        : undefined;
    }, 'the routing rule on the agent');
    await p.patch('PlatformWorkspace', 'team', entry({ tools: [{ name: 'github' }] }));
    const planner = await eventually(async () => {
      const a = await p.get('PlatformAgent', 'planner');
      const env = a?.spec?.environment as Record<string, unknown> | undefined;
      return env && !('credentialRouting' in env) ? a : undefined;
    }, 'the routing rule gone from the agent');
    expect(planner.spec?.environment).toEqual({ tools: [{ name: 'github' }] });
  });

  it('suspends a workspace agent whose owners are all removed', async () => {
    await p.patch('PlatformWorkspace', 'team', {
      spec: { defaults: { owners: [owner('alice@example.com', 'Viewer')] } },
    });
    await eventually(() => p.inPhase('PlatformAgent', 'planner', 'suspended'), 'planner suspended');
    await eventually(async () => ((await p.pod('agent-planner')) ? undefined : true), 'the pod removed');
  });

  it('garbage-collects the agents, their pods and the ConfigMap when the workspace is deleted', async () => {
    await p.patch('PlatformWorkspace', 'team', {
      spec: { defaults: { owners: [owner('alice@example.com')] } },
    });
    await eventually(() => p.pod('agent-planner'), 'the planner pod back');
    // The org's home namespace keeps its label; without the org the workspace finalizer removes it.
    await p.delete('Organization', ORG);
    await p.delete('PlatformWorkspace', 'team');
    const startedMs = Date.now();
    await eventually(
      async () => ((await p.get('PlatformWorkspace', 'team')) ? undefined : true),
      'workspace gone',
    );
    await eventually(
      async () => ((await p.get('PlatformAgent', 'planner')) ? undefined : true),
      'agent collected',
      60_000,
    );
    await eventually(
      async () => ((await p.pod('agent-planner')) ? undefined : true),
      'pod collected',
      60_000,
    );
    await eventually(
      async () =>
        (await p.core
          .readNamespacedConfigMap({ namespace: ns.name, name: 'platform-auditor-chain' })
          .catch(() => undefined))
          ? undefined
          : true,
      'ConfigMap collected',
      60_000,
    );
    console.log(`[workspace] delete → agents, pods and ConfigMap collected in ${Date.now() - startedMs} ms`);
    const n = await p.core.readNamespace({ name: ns.name });
    expect(n.metadata?.labels?.['platform.computing/enabled']).toBeUndefined();
  }, 150_000);
});
