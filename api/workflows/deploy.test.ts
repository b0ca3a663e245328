import { describe, expect, it } from 'vitest';
import type { PlatformAgent, Workflow } from '../../crds/generated/types.ts';
import { deployStep, desiredAgent, nodeAgentIds, ownedBy, workflowView } from './deploy.ts';

const spec = { owners: [{ subject: 'alice@example.com', role: 'Owner' }], model: { id: 'gpt-test' } };
const wf: Workflow = {
  apiVersion: 'platform.io/v1alpha1',
  kind: 'Workflow',
  metadata: { namespace: 'ws', name: 'triage', uid: 'wf-uid' },
  spec: {
    nodes: [
      { name: 'lead', agent: 'lead-agent', spec: { ...spec, suspend: true } },
      { name: 'helper', agent: 'helper-agent', spec: { ...spec, auditMode: 'observe' } },
    ],
    edges: [{ from: 'lead', to: 'helper' }],
  },
};
const [lead, helper] = wf.spec.nodes as [
  Workflow['spec']['nodes'][number],
  Workflow['spec']['nodes'][number],
];

describe('deploy plan', () => {
  it('a node becomes a running agent of the node’s spec, owned and labelled by the workflow', () => {
    const a = desiredAgent(wf, lead);
    expect(a.metadata).toEqual({
      namespace: 'ws',
      name: 'lead-agent',
      labels: { 'platform.io/workflow': 'triage' },
      ownerReferences: [
        {
          apiVersion: 'platform.io/v1alpha1',
          kind: 'Workflow',
          name: 'triage',
          uid: 'wf-uid',
          controller: true,
        },
      ],
    });
    expect(a.spec).toEqual(spec);
    expect(ownedBy(a, wf)).toBe(true);
  });

  it('creates a missing agent and replaces (unsuspends) its own, keeping metadata', () => {
    expect(deployStep(wf, lead).op).toBe('create');
    const existing = desiredAgent(wf, lead);
    existing.metadata.resourceVersion = '7';
    existing.spec = { ...spec, suspend: true, model: { id: 'old' } } as PlatformAgent['spec'];
    const step = deployStep(wf, lead, existing);
    expect(step.op).toBe('replace');
    expect(step.agent.metadata.resourceVersion).toBe('7');
    expect(step.agent.spec).toEqual(spec);
  });

  it('refuses someone else’s agent of that name (409) and a lowered audit mode (422)', () => {
    const foreign: PlatformAgent = {
      ...desiredAgent(wf, lead),
      metadata: { namespace: 'ws', name: 'lead-agent' },
    };
    expect(() => deployStep(wf, lead, foreign)).toThrow(
      expect.objectContaining({ status: 409, code: 'agent_exists' }),
    );
    const enforcing = desiredAgent(wf, helper);
    enforcing.spec = { ...spec } as PlatformAgent['spec'];
    expect(() => deployStep(wf, helper, enforcing)).toThrow(
      expect.objectContaining({ status: 422, code: 'approval_required' }),
    );
  });

  it('lists node agent ids and views the workflow', () => {
    expect(nodeAgentIds(wf)).toEqual([
      { node: 'lead', agentId: 'ws.lead-agent' },
      { node: 'helper', agentId: 'ws.helper-agent' },
    ]);
    const view = workflowView({ ...wf, status: { phase: 'deployed', agents: nodeAgentIds(wf) } });
    expect(view).toMatchObject({
      workflow_id: 'ws.triage',
      phase: 'deployed',
      deployed: false,
      agents: [
        { node: 'lead', agent_id: 'ws.lead-agent' },
        { node: 'helper', agent_id: 'ws.helper-agent' },
      ],
    });
  });
});
