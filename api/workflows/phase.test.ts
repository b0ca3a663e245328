import { describe, expect, it } from 'vitest';
import type { PlatformAgent, Workflow } from '../../crds/generated/types.ts';
import { desiredAgent } from './deploy.ts';
import { AGENT_NOT_CREATED, workflowState } from './phase.ts';

const spec = { owners: [{ subject: 'alice@example.com', role: 'Owner' }], model: { id: 'gpt-test' } };
const base: Workflow = {
  apiVersion: 'platform.io/v1alpha1',
  kind: 'Workflow',
  metadata: { namespace: 'ws', name: 'triage', uid: 'wf-uid' },
  spec: {
    deployed: true,
    nodes: [
      { name: 'lead', agent: 'lead-agent', spec },
      { name: 'helper', agent: 'helper-agent', spec },
    ],
  },
  status: { agents: [{ node: 'lead', agentId: 'ws.lead-agent' }] },
};

type AgentPhase = 'pending' | 'running' | 'suspended';

/** The node's agent as its controller left it: observed at its generation unless `stale`. */
function agent(node: 0 | 1, phase: AgentPhase, readyReason = 'PodRunning', stale = false): PlatformAgent {
  const a = desiredAgent(base, base.spec.nodes[node]!);
  a.metadata.generation = 2;
  a.status = {
    phase,
    observedGeneration: stale ? 1 : 2,
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        reason: readyReason,
        message: 'why',
        lastTransitionTime: '2024-01-01T00:00:00Z',
      },
    ],
  };
  return a;
}

const lookup =
  (...agents: PlatformAgent[]) =>
  (name: string) =>
    agents.find((a) => a.metadata.name === name);

describe('workflow phase', () => {
  it('is draft before the first deploy and stopped after a stop', () => {
    const draft = { ...base, spec: { ...base.spec, deployed: false }, status: {} };
    expect(workflowState(draft, lookup())).toMatchObject({
      phase: 'draft',
      ready: { reason: 'NotDeployed' },
    });
    const stopped = { ...base, spec: { ...base.spec, deployed: false } };
    expect(workflowState(stopped, lookup())).toMatchObject({ phase: 'stopped', ready: { status: 'False' } });
  });

  it('is deploying while an agent is pending or not yet observed since deploy wrote it', () => {
    const pending = workflowState(base, lookup(agent(0, 'running'), agent(1, 'pending', 'PodNotCreated')));
    expect(pending).toMatchObject({ phase: 'deploying', ready: { reason: 'AgentsStarting' } });
    expect(pending.ready.message).toContain('node helper');
    expect(pending.ready.message).not.toContain('node lead');
    // Suspended by the last stop, but deploy has just unsuspended it (generation not observed yet).
    const stale = workflowState(
      base,
      lookup(agent(0, 'running'), agent(1, 'suspended', 'SuspendRequested', true)),
    );
    expect(stale.phase).toBe('deploying');
  });

  it('is deployed when every node agent runs', () => {
    expect(workflowState(base, lookup(agent(0, 'running'), agent(1, 'running')))).toMatchObject({
      phase: 'deployed',
      ready: { status: 'True', reason: 'AllAgentsRunning' },
    });
  });

  it('is failed naming each node whose agent is missing, foreign, suspended or failed', () => {
    const missing = workflowState(base, lookup(agent(0, 'running')));
    expect(missing).toMatchObject({ phase: 'failed', ready: { status: 'False', reason: 'AgentMissing' } });
    expect(missing.ready.message).toBe('node helper: agent ws.helper-agent does not exist');

    const foreign = agent(0, 'running');
    foreign.metadata.ownerReferences = [];
    const both = workflowState(base, lookup(foreign, agent(1, 'pending', 'PodFailed')));
    expect(both.phase).toBe('failed');
    expect(both.ready.reason).toBe('AgentNotOwned');
    expect(both.ready.message).toBe(
      "node lead: agent ws.lead-agent is not this workflow's; node helper: agent ws.helper-agent failed (PodFailed: why)",
    );

    const suspended = workflowState(base, lookup(agent(0, 'running'), agent(1, 'suspended', 'NoOwner')));
    expect(suspended).toMatchObject({ phase: 'failed', ready: { reason: 'AgentSuspended' } });
    expect(suspended.ready.message).toContain('node helper: agent ws.helper-agent is suspended (NoOwner');
  });

  it('keeps the reason deploy recorded while the refused agent is still missing', () => {
    const refused: Workflow = {
      ...base,
      status: {
        ...base.status,
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: AGENT_NOT_CREATED,
            message: 'node helper: denied',
            lastTransitionTime: 't',
          },
        ],
      },
    };
    expect(workflowState(refused, lookup(agent(0, 'running'))).ready).toMatchObject({
      reason: AGENT_NOT_CREATED,
      message: 'node helper: denied',
    });
    expect(workflowState(refused, lookup(agent(0, 'running'), agent(1, 'pending'))).phase).toBe('deploying');
  });
});
