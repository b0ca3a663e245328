// /api/v1/workflows: create, list, get, update graph (PUT), deploy, stop and
// the composite passport. A workflow id is `<namespace>.<name>` of its
// Workflow. The route table admits administrators; here the namespace is
// checked: an org administrator anywhere, a workspace administrator in the
// namespaces it administers (decision 118). The graph is checked before any
// write (api/workflows/graph.ts); deploy plans every node before it writes one.
import type { PlatformAgent, Workflow } from '../../crds/generated/types.ts';
import { FREE_TEXT_PATTERN, ID_PATTERN, PLAIN_STRING_PATTERN } from '../../crds/schema/parts.ts';
import { API_VERSION } from '../../contract/kube.ts';
import { NAME_PATTERN, NAMESPACE_PATTERN, parseAgentId } from '../../contract/agent-id.ts';
import { conflict, forbidden, HttpError, notFound } from '../../base/http-error.ts';
import { mutateAgent } from '../agents/mutate.ts';
import type { Principal } from '../auth/principal.ts';
import { requireValidGraph, type WorkflowGraph } from '../workflows/graph.ts';
import { notCreatedStatus, phaseStatus } from '../workflows/phase.ts';
import {
  deployStep,
  type DeployStep,
  nodeAgentIds,
  ownedBy,
  workflowIdOf,
  workflowView,
} from '../workflows/deploy.ts';
import { agentPassport } from './agents.ts';
import { bodyOf, type RouteCtx, type RouteSpec } from './route.ts';
import { editWorkflow } from '../store/workflows.ts';
import { WORKFLOW_LIST, WORKFLOW_PASSPORT, WORKFLOW_VIEW } from './responses.ts';

const administers = (p: Principal, namespace: string): boolean =>
  p.orgAdmin || p.workspaceAdminOf.includes(namespace);

function requireAdmin(rc: RouteCtx, namespace: string): void {
  if (!administers(rc.principal, namespace))
    throw forbidden(`${rc.principal.subject} does not administer namespace ${namespace}`);
}

/** The Workflow of the path's id, after the namespace check. */
async function load(rc: RouteCtx): Promise<Workflow> {
  const id = rc.params.id ?? '';
  const ref = parseAgentId(id);
  rc.audit = { resource: `workflow:${id}`, ...(ref ? { namespace: ref.namespace } : {}) };
  if (!ref) throw notFound(`no workflow ${id}`);
  requireAdmin(rc, ref.namespace);
  const wf = await rc.deps.workflows.read(ref.namespace, ref.name);
  if (!wf) throw notFound(`no workflow ${id}`);
  return wf;
}

interface CreateBody extends WorkflowGraph {
  namespace: string;
  name: string;
  description?: string;
}

async function create(rc: RouteCtx): Promise<unknown> {
  const { namespace, name, ...graph } = bodyOf<CreateBody>(rc);
  rc.audit = { resource: `workflow:${namespace}.${name}`, namespace };
  requireAdmin(rc, namespace);
  requireValidGraph(namespace, graph);
  const wf: Workflow = {
    apiVersion: API_VERSION,
    kind: 'Workflow',
    metadata: { namespace, name },
    spec: { ...graph, deployed: false },
  };
  const stored = await rc.deps.workflows.create(wf);
  const status = phaseStatus(stored, () => undefined, new Date());
  return workflowView(await rc.deps.workflows.mergeStatus(stored, status));
}

async function list(rc: RouteCtx): Promise<unknown> {
  rc.audit = { resource: 'workflows' };
  const all = await rc.deps.workflows.list();
  const mine = all.filter((w) => administers(rc.principal, w.metadata.namespace ?? ''));
  return { items: mine.map(workflowView) };
}

/** PUT replaces the graph; a deployed workflow's agents follow on its next deploy. */
async function updateGraph(rc: RouteCtx): Promise<unknown> {
  const wf = await load(rc);
  const graph = bodyOf<WorkflowGraph & { description?: string }>(rc);
  requireValidGraph(wf.metadata.namespace ?? '', graph);
  wf.spec = { ...graph, deployed: wf.spec.deployed ?? false };
  return workflowView(await rc.deps.workflows.replace(wf));
}

const agentRef = (agentId: string) => parseAgentId(agentId) ?? { namespace: '', name: '' };

/** Suspends (or leaves) the agents of `agentIds` that this Workflow deployed. */
async function suspendOwned(rc: RouteCtx, wf: Workflow, agentIds: readonly string[]): Promise<void> {
  for (const id of agentIds) {
    const { namespace, name } = agentRef(id);
    const agent = await rc.deps.writer.readAgent(namespace, name);
    if (!agent || !ownedBy(agent, wf)) continue;
    await mutateAgent(rc.deps.writer, agent, (fresh) => {
      if (fresh.spec.suspend === true) return undefined;
      fresh.spec.suspend = true;
      return fresh;
    });
  }
}

/** Writes each step's agent; the first the apiserver refuses marks the workflow failed, naming its node. */
async function writeAgents(
  rc: RouteCtx,
  wf: Workflow,
  steps: DeployStep[],
): Promise<Map<string, PlatformAgent>> {
  const written = new Map<string, PlatformAgent>();
  for (const [i, step] of steps.entries()) {
    const agent: PlatformAgent = step.agent;
    try {
      written.set(agent.metadata.name ?? '', await writeAgent(rc, step));
    } catch (err) {
      const why = err instanceof HttpError ? err.detail : 'the apiserver refused it';
      const deployed = await markDeployed(rc, wf, true);
      const node = wf.spec.nodes[i]?.name ?? '';
      await rc.deps.workflows.mergeStatus(deployed, notCreatedStatus(deployed, node, why, new Date()));
      throw err;
    }
  }
  return written;
}

const writeAgent = (rc: RouteCtx, step: DeployStep): Promise<PlatformAgent> =>
  step.op === 'create' ? rc.deps.writer.createAgent(step.agent) : rc.deps.writer.replaceAgent(step.agent);

const markDeployed = (rc: RouteCtx, wf: Workflow, deployed: boolean): Promise<Workflow> =>
  editWorkflow(rc.deps.workflows, wf, (fresh) => ({ ...fresh, spec: { ...fresh.spec, deployed } }));

async function deploy(rc: RouteCtx): Promise<unknown> {
  const wf = await load(rc);
  const ns = wf.metadata.namespace ?? '';
  // Every step planned first: someone else's agent (409) or a lowered audit mode (422) writes nothing.
  const steps = await Promise.all(
    wf.spec.nodes.map(async (n) => deployStep(wf, n, await rc.deps.writer.readAgent(ns, n.agent))),
  );
  const written = await writeAgents(rc, wf, steps);
  const agents = nodeAgentIds(wf);
  const current = new Set(agents.map((a) => a.agentId));
  // Nodes removed since the last deploy: their agents stop with them.
  await suspendOwned(
    rc,
    wf,
    (wf.status?.agents ?? []).map((a) => a.agentId).filter((id) => !current.has(id)),
  );
  const stored = await markDeployed(rc, wf, true);
  rc.audit.details = { agents: agents.map((a) => a.agentId) };
  // The agents as just written: new or changed ones are `deploying` until their controller runs them.
  const status = phaseStatus(
    { ...stored, status: { ...stored.status, agents } },
    (n) => written.get(n),
    new Date(),
  );
  return workflowView(await rc.deps.workflows.mergeStatus(stored, { ...status, agents }));
}

async function stop(rc: RouteCtx): Promise<unknown> {
  const wf = await load(rc);
  const ids = new Set([...(wf.status?.agents ?? []), ...nodeAgentIds(wf)].map((a) => a.agentId));
  await suspendOwned(rc, wf, [...ids]);
  const stored = await markDeployed(rc, wf, false);
  const status = phaseStatus(stored, () => undefined, new Date());
  return workflowView(await rc.deps.workflows.mergeStatus(stored, status));
}

/**
 * A deployed workflow is refused (409): stop it first, so its agents are
 * suspended before they go. Deleting a draft or stopped one deletes the
 * agents it owns through their ownerReference (decision 125).
 */
async function remove(rc: RouteCtx): Promise<void> {
  const wf = await load(rc);
  if (wf.spec.deployed)
    throw conflict(
      `workflow ${workflowIdOf(wf)} is deployed; stop it first (POST /api/v1/workflows/${workflowIdOf(wf)}/stop)`,
      'workflow_deployed',
    );
  rc.audit.details = { agents: (wf.status?.agents ?? []).map((a) => a.agentId) };
  await rc.deps.workflows.delete(wf);
}

async function passport(rc: RouteCtx): Promise<unknown> {
  const wf = await load(rc);
  const entries = nodeAgentIds(wf).map((a) => {
    const { namespace, name } = agentRef(a.agentId);
    return { ...a, agent: rc.deps.agents.agent(`${namespace}/${name}`) };
  });
  const found = entries.filter((e) => e.agent && ownedBy(e.agent, wf));
  const agents = await Promise.all(
    found.map(async (e) => ({
      node: e.node,
      agent_id: e.agentId,
      passport: await agentPassport(rc.deps, e.agent as PlatformAgent),
    })),
  );
  const missing = entries
    .filter((e) => !found.includes(e))
    .map((e) => ({ node: e.node, agent_id: e.agentId }));
  return { workflow_id: workflowIdOf(wf), phase: wf.status?.phase ?? 'draft', agents, missing };
}

/** Generous parse limits: the graph's own limits (64 nodes, 256 edges) answer 422 by name. */
const NODE = {
  type: 'object',
  required: ['name', 'agent', 'spec'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 63, pattern: ID_PATTERN },
    agent: { type: 'string', minLength: 1, maxLength: 253, pattern: NAME_PATTERN },
    role: { type: 'string', maxLength: 253, pattern: PLAIN_STRING_PATTERN },
    spec: { type: 'object' },
  },
};
const EDGE = {
  type: 'object',
  required: ['from', 'to'],
  additionalProperties: false,
  properties: {
    from: { type: 'string', minLength: 1, maxLength: 63 },
    to: { type: 'string', minLength: 1, maxLength: 63 },
    condition: { type: 'string', maxLength: 1024, pattern: FREE_TEXT_PATTERN },
  },
};
const GRAPH_PROPS = {
  description: { type: 'string', maxLength: 4096, pattern: FREE_TEXT_PATTERN },
  nodes: { type: 'array', maxItems: 1024, items: NODE },
  edges: { type: 'array', maxItems: 4096, items: EDGE },
};
const CREATE_BODY = {
  type: 'object',
  required: ['namespace', 'name', 'nodes'],
  additionalProperties: false,
  properties: {
    namespace: { type: 'string', minLength: 1, maxLength: 63, pattern: NAMESPACE_PATTERN },
    name: { type: 'string', minLength: 1, maxLength: 253, pattern: NAME_PATTERN },
    ...GRAPH_PROPS,
  },
};
const UPDATE_BODY = {
  type: 'object',
  required: ['nodes'],
  additionalProperties: false,
  properties: GRAPH_PROPS,
};
const WORKFLOW = '/api/v1/workflows/{id}';

export const WORKFLOW_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: '/api/v1/workflows',
    action: 'workflow.write',
    summary: 'Create a workflow: nodes are agents (name, agent, spec), edges delegations; a bad graph is 422',
    success: 201,
    response: WORKFLOW_VIEW,
    body: CREATE_BODY,
    handle: create,
  },
  {
    method: 'GET',
    path: '/api/v1/workflows',
    action: 'workflow.list',
    summary: 'Workflows in the namespaces the caller administers',
    success: 200,
    response: WORKFLOW_LIST,
    handle: list,
  },
  {
    method: 'GET',
    path: WORKFLOW,
    action: 'workflow.read',
    summary: 'One workflow',
    success: 200,
    response: WORKFLOW_VIEW,
    handle: async (rc) => workflowView(await load(rc)),
  },
  {
    method: 'PUT',
    path: WORKFLOW,
    action: 'workflow.write',
    summary: 'Replace the graph (a bad graph is 422); deployed agents follow on the next deploy',
    success: 200,
    response: WORKFLOW_VIEW,
    body: UPDATE_BODY,
    handle: updateGraph,
  },
  {
    method: 'DELETE',
    path: WORKFLOW,
    action: 'workflow.write',
    summary:
      'Delete a draft or stopped workflow and the agents it deployed; a deployed one is 409 (stop it first)',
    success: 204,
    handle: remove,
  },
  {
    method: 'POST',
    path: `${WORKFLOW}/deploy`,
    action: 'workflow.deploy',
    summary: 'Create or update the agents of its nodes, owned by the workflow (idempotent)',
    success: 200,
    response: WORKFLOW_VIEW,
    handle: deploy,
  },
  {
    method: 'POST',
    path: `${WORKFLOW}/stop`,
    action: 'workflow.deploy',
    summary: 'Suspend the agents the workflow deployed',
    success: 200,
    response: WORKFLOW_VIEW,
    handle: stop,
  },
  {
    method: 'GET',
    path: `${WORKFLOW}/passport`,
    action: 'workflow.read',
    summary: 'The composite passport: the passport of each deployed node agent',
    success: 200,
    response: WORKFLOW_PASSPORT,
    handle: passport,
  },
];
