// Where a Workflow is, from the state of its node agents (decision 125):
// `draft` (never deployed), `stopped`, `deploying` (some agent not running
// yet), `deployed` (every node agent running, as its controller observed it)
// and `failed` (a node's agent is missing, not this workflow's, suspended or
// its pod failed), with one `Ready` condition naming the nodes. Pure: the
// workflow controller and deploy both call it.
import type { PlatformAgent, Workflow, WorkflowStatus } from '../../crds/generated/types.ts';
import { mergeConditions, type DesiredCondition } from '../../base/controller/conditions.ts';
import { formatAgentId } from '../../contract/agent-id.ts';
import { ownedBy } from './deploy.ts';

export type WorkflowPhase = NonNullable<WorkflowStatus['phase']>;
export const WORKFLOW_READY = 'Ready';
/** Written by deploy when the apiserver refused a node's agent; kept while that agent is missing. */
export const AGENT_NOT_CREATED = 'AgentNotCreated';

export interface WorkflowState {
  phase: WorkflowPhase;
  ready: DesiredCondition;
}

type NodeState = { kind: 'running' } | { kind: 'starting' } | { kind: 'failed'; reason: string; why: string };

/** Pod outcomes that do not heal by waiting (a pod still being created or pulled does). */
const FAILED_AGENT_REASONS = new Set(['PodFailed']);

/** The agent's Ready reason and message (its controller's own words). */
function readyOf(agent: PlatformAgent): { reason: string; detail: string } {
  const ready = agent.status?.conditions?.find((c) => c.type === 'Ready');
  const reason = ready?.reason ?? '';
  return { reason, detail: `${reason}: ${ready?.message ?? ''}` };
}

/** An agent that exists, is this workflow's and whose controller has observed it. */
function observedState(agent: PlatformAgent): NodeState {
  const phase = agent.status?.phase;
  if (phase === 'running') return { kind: 'running' };
  const { reason, detail } = readyOf(agent);
  if (phase === 'suspended')
    return { kind: 'failed', reason: 'AgentSuspended', why: `is suspended (${detail})` };
  if (FAILED_AGENT_REASONS.has(reason))
    return { kind: 'failed', reason: 'AgentFailed', why: `failed (${detail})` };
  return { kind: 'starting' };
}

function nodeState(wf: Workflow, agent: PlatformAgent | undefined): NodeState {
  if (!agent) return { kind: 'failed', reason: 'AgentMissing', why: 'does not exist' };
  if (!ownedBy(agent, wf)) return { kind: 'failed', reason: 'AgentNotOwned', why: "is not this workflow's" };
  // Not observed since its last change (a deploy just wrote it): its phase is stale.
  if (agent.status?.observedGeneration !== agent.metadata.generation) return { kind: 'starting' };
  return observedState(agent);
}

const notDeployed = (wf: Workflow): WorkflowState =>
  (wf.status?.agents?.length ?? 0) > 0
    ? {
        phase: 'stopped',
        ready: {
          type: WORKFLOW_READY,
          status: 'False',
          reason: 'Stopped',
          message: 'the workflow was stopped; its agents are suspended',
        },
      }
    : {
        phase: 'draft',
        ready: {
          type: WORKFLOW_READY,
          status: 'False',
          reason: 'NotDeployed',
          message: 'the workflow has not been deployed',
        },
      };

/** A deploy-time refusal stays the reason while a node's agent is still missing. */
function keptNotCreated(wf: Workflow, failures: { reason: string }[]): DesiredCondition | undefined {
  const previous = wf.status?.conditions?.find((c) => c.type === WORKFLOW_READY);
  if (previous?.reason !== AGENT_NOT_CREATED || !failures.some((f) => f.reason === 'AgentMissing'))
    return undefined;
  return {
    type: WORKFLOW_READY,
    status: 'False',
    reason: AGENT_NOT_CREATED,
    message: previous.message ?? '',
  };
}

/** `agentOf(name)`: the PlatformAgent of that name in the workflow's namespace, if any. */
export function workflowState(
  wf: Workflow,
  agentOf: (name: string) => PlatformAgent | undefined,
): WorkflowState {
  if (!wf.spec.deployed) return notDeployed(wf);
  const ns = wf.metadata.namespace ?? '';
  const states = wf.spec.nodes.map((n) => ({ node: n, state: nodeState(wf, agentOf(n.agent)) }));
  const failures = states.flatMap(({ node, state }) =>
    state.kind === 'failed'
      ? [
          {
            reason: state.reason,
            text: `node ${node.name}: agent ${formatAgentId({ namespace: ns, name: node.agent })} ${state.why}`,
          },
        ]
      : [],
  );
  if (failures.length > 0) {
    const ready = keptNotCreated(wf, failures) ?? {
      type: WORKFLOW_READY,
      status: 'False' as const,
      reason: failures[0]?.reason ?? 'AgentFailed',
      message: failures.map((f) => f.text).join('; '),
    };
    return { phase: 'failed', ready };
  }
  const starting = states.filter((s) => s.state.kind === 'starting').map((s) => s.node.name);
  if (starting.length > 0) {
    const message = `waiting for the agents of ${starting.map((n) => `node ${n}`).join(', ')} to run`;
    return {
      phase: 'deploying',
      ready: { type: WORKFLOW_READY, status: 'False', reason: 'AgentsStarting', message },
    };
  }
  const message = `the agents of all ${states.length} nodes are running`;
  return {
    phase: 'deployed',
    ready: { type: WORKFLOW_READY, status: 'True', reason: 'AllAgentsRunning', message },
  };
}

/** The status fields the phase owns: `phase` and the `Ready` condition (its transition time kept). */
export function phaseStatus(
  wf: Workflow,
  agentOf: (name: string) => PlatformAgent | undefined,
  now: Date,
): Pick<WorkflowStatus, 'phase' | 'conditions'> {
  const { phase, ready } = workflowState(wf, agentOf);
  return { phase, conditions: mergeConditions(wf.status?.conditions, [ready], now, [WORKFLOW_READY]) };
}

/** Deploy could not write a node's agent: `failed`, naming the node and the apiserver's refusal. */
export function notCreatedStatus(
  wf: Workflow,
  node: string,
  why: string,
  now: Date,
): Pick<WorkflowStatus, 'phase' | 'conditions'> {
  const ready: DesiredCondition = {
    type: WORKFLOW_READY,
    status: 'False',
    reason: AGENT_NOT_CREATED,
    message: `node ${node}: its agent could not be written: ${why}`,
  };
  return {
    phase: 'failed',
    conditions: mergeConditions(wf.status?.conditions, [ready], now, [WORKFLOW_READY]),
  };
}
