// The console's subagent tree against the real apiserver (no kubelet): the
// agent's pod found by its label and its status, its usage null with the
// reason, the subagents of the spec and those only events name, and the
// events appended to the console's log as status, current task and usage.
// Viewers and above read it; a stranger is refused; an unknown agent is 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import type { ConsoleEventInput } from '../../contract/console.ts';
import { LABEL } from '../../contract/kube.ts';
import { useApi } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';

const ns = useNamespace('console-tree');
const fx = useApi(ns);
const id = (): string => `${ns.name}.bot`;
const tree = (): string => `/v1/agents/${id()}/console/subagents`;

const SUBAGENTS = [
  { name: 'researcher', description: 'finds sources', permissions: ['read'] },
  { name: 'writer', description: 'drafts the answer' },
];

let n = 0;
const event = (
  subagent: string | null,
  type: ConsoleEventInput['type'],
  secondsAgo: number,
  payload = {},
) => ({
  timestamp: new Date(Date.now() - secondsAgo * 1000).toISOString(),
  agent_id: id(),
  subagent,
  type,
  severity: 'info' as const,
  auditor: null,
  auditors: [],
  payload,
  key: `test:${++n}`,
});

interface Node {
  name: string;
  kind: string;
  declared: boolean;
  status: string;
  current_task: string | null;
  usage: Record<string, number>;
  resources: { cpu_millicores: number | null; memory_bytes: number | null; reason: string | null } | null;
  events: string | null;
  pod: string | null;
}

const nodesOf = (body: Record<string, unknown>): Node[] => body.nodes as Node[];

beforeAll(async () => {
  await fx.createAgent('bot', undefined, { abilities: { subagents: SUBAGENTS } });
});

describe('GET /v1/agents/{agent_id}/console/subagents', () => {
  it('answers the agent without a pod as pending, with the reason it has no usage, and its declared subagents', async () => {
    const r = await fx.call('GET', tree(), { key: fx.keys.viewer });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.agent_id).toBe(id());
    const [root, ...subs] = nodesOf(r.body);
    expect(root).toMatchObject({
      name: 'bot',
      kind: 'agent',
      status: 'pending',
      pod: null,
      resources: { cpu_millicores: null, memory_bytes: null, reason: 'the agent has no pod' },
    });
    expect(subs.map((s) => [s.name, s.declared, s.status])).toEqual([
      ['researcher', true, 'pending'],
      ['writer', true, 'pending'],
    ]);
  });

  it("shows the running pod's status, its usage null with the kubelet's reason, and each subagent's activity", async () => {
    const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
    // No kubelet here: the pod is bound to a node that does not exist and marked Running by hand.
    await core.createNamespacedPod({
      namespace: ns.name,
      body: {
        metadata: { name: 'bot-pod', labels: { [LABEL.agent]: 'bot' } },
        spec: {
          nodeName: 'no-such-node',
          containers: [{ name: 'agent', image: 'registry.example/agent:1' }],
        },
      },
    });
    await core.patchNamespacedPodStatus(
      { namespace: ns.name, name: 'bot-pod', body: { status: { phase: 'Running' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await fx.api.deps.console.append([
      event('researcher', 'model_call', 200, { model: 'gpt-test' }),
      event('researcher', 'tool_call', 5, {
        method: 'GET',
        destination: 'api.example.com:443',
        path: '/search',
      }),
      event('writer', 'approval_requested', 300, { kind: 'approval', action: 'send', target: 'POST mail' }),
      event('helper', 'model_call', 1, { model: 'small' }),
    ]);
    const r = await fx.call('GET', tree(), { key: fx.keys.viewer });
    expect(r.status).toBe(200);
    const nodes = nodesOf(r.body);
    expect(nodes[0]).toMatchObject({ status: 'running', pod: 'bot-pod' });
    expect(nodes[0]?.resources).toMatchObject({ cpu_millicores: null, memory_bytes: null });
    expect(nodes[0]?.resources?.reason).toMatch(/^kubelet stats: /);
    expect(nodes.slice(1)).toMatchObject([
      {
        name: 'researcher',
        status: 'active',
        current_task: 'GET api.example.com:443/search',
        usage: { model_calls: 1, tool_calls: 1, errors: 0, approvals: 0 },
        events: `/v1/agents/${id()}/console/events?subagent=researcher`,
      },
      { name: 'writer', status: 'idle', current_task: 'approval: send POST mail', usage: { approvals: 1 } },
      { name: 'helper', declared: false, status: 'active', current_task: 'model small' },
    ]);
    // The drill-down link serves that subagent's events.
    const drill = await fx.call('GET', String(nodes[1]?.events), { key: fx.keys.viewer });
    expect(drill.status).toBe(200);
    expect((drill.body.items ?? []).map((e) => e.type)).toEqual(['model_call', 'tool_call']);
  });

  it('lets every sharer read it, refuses a stranger, and answers 404 for an unknown agent', async () => {
    for (const persona of ['owner', 'editor', 'viewer', 'workspace_admin', 'org_admin'] as const)
      expect((await fx.call('GET', tree(), { key: fx.keys[persona] })).status).toBe(200);
    expect((await fx.call('GET', tree(), { key: fx.keys.stranger })).status).toBe(403);
    expect((await fx.call('GET', tree())).status).toBe(401);
    const missing = await fx.call('GET', `/v1/agents/${ns.name}.nobody/console/subagents`, {
      key: fx.keys.org_admin,
    });
    expect(missing.status).toBe(404);
  });
});
