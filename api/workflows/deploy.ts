// The deploy plan of a Workflow: the PlatformAgent each node describes, owned
// by the Workflow (ownerReference, label), and what deploy does with the agent
// of that name that exists now. Pure; the route performs the steps.
import type { PlatformAgent, Workflow, WorkflowStatus } from '../../crds/generated/types.ts';
import { conflict, unprocessable } from '../../base/http-error.ts';
import { API_VERSION, LABEL } from '../../contract/kube.ts';
import { formatAgentId } from '../../contract/agent-id.ts';
import { loweredAuditMode } from '../agents/audit-mode.ts';
import { nodeAgent, type WorkflowNode } from './graph.ts';

export type DeployStep = { op: 'create'; agent: PlatformAgent } | { op: 'replace'; agent: PlatformAgent };

/** `<namespace>.<name>`, as agent ids and policy ids are spelt. */
export const workflowIdOf = (wf: Workflow): string => `${wf.metadata.namespace}.${wf.metadata.name}`;

export const ownedBy = (agent: PlatformAgent, wf: Workflow): boolean =>
  (agent.metadata.ownerReferences ?? []).some((r) => r.kind === 'Workflow' && r.uid === wf.metadata.uid);

/** The node's agent as deploy writes it: running, labelled and owned by the Workflow. */
export function desiredAgent(wf: Workflow, node: WorkflowNode): PlatformAgent {
  const agent = nodeAgent(wf.metadata.namespace ?? '', node);
  agent.metadata.labels = { [LABEL.workflow]: wf.metadata.name ?? '' };
  agent.metadata.ownerReferences = [
    {
      apiVersion: API_VERSION,
      kind: 'Workflow',
      name: wf.metadata.name ?? '',
      uid: wf.metadata.uid ?? '',
      controller: true,
    },
  ];
  return agent;
}

/**
 * Create the agent, or replace the one this Workflow deployed before (its
 * spec becomes the node's again, unsuspended). Someone else's agent of that
 * name is a 409; lowering the audit mode is an Owner's approval, never a deploy.
 */
export function deployStep(wf: Workflow, node: WorkflowNode, existing?: PlatformAgent): DeployStep {
  const agent = desiredAgent(wf, node);
  if (!existing) return { op: 'create', agent };
  const id = formatAgentId({ namespace: wf.metadata.namespace ?? '', name: node.agent });
  if (!ownedBy(existing, wf))
    throw conflict(`agent ${id} exists and is not this workflow's (node ${node.name})`, 'agent_exists');
  const lowered = loweredAuditMode(existing.spec, agent.spec);
  if (lowered) {
    throw unprocessable(
      `nodes.${node.name}.spec.auditMode: deploying would lower agent ${id} from ${lowered.from} to ${lowered.to}; lower it through PATCH /v1/agents/${id} (an Owner approves)`,
      'approval_required',
    );
  }
  const labels = { ...existing.metadata.labels, ...agent.metadata.labels };
  return {
    op: 'replace',
    agent: { ...existing, metadata: { ...existing.metadata, labels }, spec: agent.spec },
  };
}

/** Node → agent id, for the status and the composite passport. */
export const nodeAgentIds = (wf: Workflow): NonNullable<WorkflowStatus['agents']> =>
  wf.spec.nodes.map((n) => ({
    node: n.name,
    agentId: formatAgentId({ namespace: wf.metadata.namespace ?? '', name: n.agent }),
  }));

/** The status conditions, as the API spells fields. */
const conditionsView = (wf: Workflow): Record<string, unknown>[] =>
  (wf.status?.conditions ?? []).map((c) => ({
    type: c.type,
    status: c.status,
    reason: c.reason,
    ...(c.message ? { message: c.message } : {}),
    last_transition_time: c.lastTransitionTime,
  }));

/** What the API answers for a Workflow. */
export function workflowView(wf: Workflow): Record<string, unknown> {
  return {
    workflow_id: workflowIdOf(wf),
    namespace: wf.metadata.namespace,
    name: wf.metadata.name,
    ...(wf.spec.description ? { description: wf.spec.description } : {}),
    nodes: wf.spec.nodes,
    edges: wf.spec.edges ?? [],
    deployed: wf.spec.deployed ?? false,
    phase: wf.status?.phase ?? 'draft',
    agents: (wf.status?.agents ?? []).map((a) => ({ node: a.node, agent_id: a.agentId })),
    conditions: conditionsView(wf),
    ...(wf.metadata.creationTimestamp ? { created_at: String(wf.metadata.creationTimestamp) } : {}),
  };
}
