// /v1/agents: create, list, get, update (lowering the audit mode is an
// approval), delete (an approval), suspend, reactivate, stale list, access
// review and passport. Thin: parse, call the pure agent model, write.
import { changesBesidesAuditMode, loweredAuditMode, type AuditModeChange } from '../agents/audit-mode.ts';
import {
  accessReview,
  agentView,
  requireOwnerOnCreate,
  staleList,
  updatedSpec,
  type PlatformAgent,
} from '../agents/model.ts';
import { mutateAgent } from '../agents/mutate.ts';
import {
  accessesFromDataLog,
  accessesFromEvidence,
  buildPassport,
  mergedAccesses,
  type Passport,
} from '../agents/passport.ts';
import { badRequest, conflict, forbidden, unprocessable } from '../../base/http-error.ts';
import { intQuery, patternQuery, validateKind } from '../http/validate.ts';
import { can } from '../policy/roles.ts';
import { page } from '../store/cache.ts';
import { requestApproval } from './approvals.ts';
import { isValidAgentName, NAME_PATTERN, NAMESPACE_PATTERN } from '../../contract/agent-id.ts';
import { bodyOf, type ApiDeps, type RouteCtx, type RouteSpec } from './route.ts';
import {
  ACCESS_REVIEW,
  AGENT_VIEW,
  AGENT_LIST,
  APPROVAL_REQUESTED,
  PASSPORT,
  STALE_AGENTS,
} from './responses.ts';
import { API_VERSION } from '../../contract/kube.ts';
import { shellControlActions } from '../shell/passport.ts';

const CREATE_BODY = {
  type: 'object',
  required: ['namespace', 'name', 'spec'],
  additionalProperties: false,
  properties: {
    namespace: { type: 'string', minLength: 1, maxLength: 63, pattern: NAMESPACE_PATTERN },
    name: { type: 'string', minLength: 1, maxLength: 253, pattern: NAME_PATTERN },
    spec: { type: 'object' },
  },
};
const UPDATE_BODY = {
  type: 'object',
  required: ['spec'],
  additionalProperties: false,
  properties: { spec: { type: 'object' } },
};
const REASON_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: { reason: { type: 'string', maxLength: 1024 } },
};

const agentOf = (rc: RouteCtx): PlatformAgent => rc.agent as PlatformAgent;

async function create(rc: RouteCtx): Promise<unknown> {
  const body = bodyOf<{ namespace: string; name: string; spec: PlatformAgent['spec'] }>(rc);
  if (!isValidAgentName(body.namespace, body.name))
    throw badRequest('namespace or name is not a valid Kubernetes name');
  rc.audit = { resource: `${body.namespace}.${body.name}`, namespace: body.namespace };
  if (!can(rc.principal, 'agent.create', { namespace: body.namespace })) {
    throw forbidden(`creating agents in ${body.namespace} needs a workspace or org administrator`);
  }
  const agent = validateKind<PlatformAgent>(
    {
      apiVersion: API_VERSION,
      kind: 'PlatformAgent',
      metadata: { namespace: body.namespace, name: body.name },
      spec: body.spec,
    },
    'agent',
  );
  requireOwnerOnCreate(agent.spec);
  return agentView(await rc.deps.writer.createAgent(agent));
}

const NAMESPACE_QUERY = new RegExp(NAMESPACE_PATTERN);

function list(rc: RouteCtx): Promise<unknown> {
  const limit = intQuery(rc.query, 'limit', { fallback: 100, min: 1, max: 1000 });
  const keys = rc.deps.agents.visibleKeys(rc.principal);
  const ns = patternQuery(rc.query, 'namespace', NAMESPACE_QUERY);
  const scoped = ns ? keys.filter((k) => k.startsWith(`${ns}/`)) : keys;
  const after = rc.query.continue ? Buffer.from(rc.query.continue, 'base64url').toString('utf8') : undefined;
  const { items, next } = page(scoped, limit, after);
  const agents = items.flatMap((k) => {
    const a = rc.deps.agents.agent(k);
    return a ? [agentView(a)] : [];
  });
  rc.audit = { resource: ns ? `namespace:${ns}` : 'agents', details: { returned: agents.length } };
  return Promise.resolve({
    items: agents,
    ...(next ? { continue: Buffer.from(next).toString('base64url') } : {}),
  });
}

function stale(rc: RouteCtx): Promise<unknown> {
  const days = intQuery(rc.query, 'days', { fallback: 30, min: 0, max: 3650 });
  const visible = rc.deps.agents.visibleKeys(rc.principal).flatMap((k) => rc.deps.agents.agent(k) ?? []);
  rc.audit = { resource: 'agents', details: { days } };
  return Promise.resolve({ days, items: staleList(visible, days, rc.deps.now()) });
}

async function update(rc: RouteCtx): Promise<unknown> {
  const patch = bodyOf<{ spec: Record<string, unknown> }>(rc).spec;
  const current = agentOf(rc);
  const next = updatedSpec(current.spec, patch);
  const lowered = loweredAuditMode(current.spec, next);
  if (lowered) return requestLowerAuditMode(rc, current, next, lowered);
  const stored = await mutateAgent(rc.deps.writer, current, (fresh) => {
    const spec = updatedSpec(fresh.spec, patch);
    // The mode was raised in between: this update would now lower it without approval.
    if (loweredAuditMode(fresh.spec, spec))
      throw conflict('the audit mode changed while this update was applied; retry');
    fresh.spec = spec;
    return validateKind<PlatformAgent>(fresh, 'agent');
  });
  return agentView(stored);
}

/** Lowering the audit mode is high-risk: it becomes an ApprovalRequest, on its own. */
function requestLowerAuditMode(
  rc: RouteCtx,
  agent: PlatformAgent,
  next: PlatformAgent['spec'],
  change: AuditModeChange,
): Promise<unknown> {
  if (changesBesidesAuditMode(agent.spec, next)) {
    throw unprocessable(
      `spec.auditMode: lowering it from ${change.from} to ${change.to} needs an Owner's approval; send it in an update of its own and the other changes separately`,
      'approval_required',
    );
  }
  const { namespace, name } = agent.metadata;
  rc.status = 202;
  return requestApproval(rc, agent, {
    action: 'write',
    target: `platformagents/${namespace}/${name}/spec.auditMode`,
    description: `lower the audit mode of agent ${namespace}.${name} from ${change.from} to ${change.to}`,
    operation: 'agent.audit_mode',
    details: { auditMode: change.to, from: change.from },
  });
}

async function setSuspend(rc: RouteCtx, suspend: boolean): Promise<unknown> {
  const stored = await mutateAgent(rc.deps.writer, agentOf(rc), (fresh) => {
    if ((fresh.spec.suspend ?? false) === suspend) return undefined;
    if (suspend) fresh.spec.suspend = true;
    else delete fresh.spec.suspend;
    return fresh;
  });
  rc.audit.details = { suspend, reason: bodyOf<{ reason?: string } | undefined>(rc)?.reason };
  return agentView(stored);
}

/** One agent's passport from its current Evidence (the composite workflow passport uses it too). */
export async function agentPassport(deps: ApiDeps, a: PlatformAgent): Promise<Passport> {
  const id = `${a.metadata.namespace}.${a.metadata.name}`;
  const reg = (auditorId: string) => deps.auditors.get(auditorId);
  // Only the current agent's records: a predecessor of the same name had another uid.
  const uid = a.metadata.uid ?? '';
  const page = { limit: PASSPORT_ACCESSES };
  const [recent, data, evidenceCount, dataCount] = await Promise.all([
    deps.evidence.store.listByAgent(id, uid, page),
    deps.accesses.listByAgent(id, uid, page),
    deps.evidence.store.countByAgent(id, uid),
    deps.accesses.countByAgent(id, uid),
  ]);
  return buildPassport(
    a,
    reg,
    {
      items: mergedAccesses(accessesFromEvidence(recent), accessesFromDataLog(data), PASSPORT_ACCESSES),
      count: evidenceCount + dataCount,
    },
    recent.slice(0, PASSPORT_RESULTS).map((e) => e.result),
  );
}

/** Accesses and AttestationResults shown in the passport; the full history is `/evidence`. */
const PASSPORT_ACCESSES = 50;
const PASSPORT_RESULTS = 10;

async function remove(rc: RouteCtx): Promise<unknown> {
  const a = agentOf(rc);
  rc.status = 202;
  return requestApproval(rc, a, {
    action: 'delete',
    target: `platformagents/${a.metadata.namespace}/${a.metadata.name}`,
    description: `delete agent ${a.metadata.namespace}.${a.metadata.name}`,
    operation: 'agent.delete',
  });
}

const AGENT = '/v1/agents/{agent_id}';

export const AGENT_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/agents/stale',
    action: 'agent.stale',
    summary: 'Agents without activity for `days`',
    success: 200,
    response: STALE_AGENTS,
    query: { days: 'integer, default 30' },
    handle: stale,
  },
  {
    method: 'GET',
    path: '/v1/agents',
    action: 'agent.list',
    summary: 'Agents the caller may see',
    success: 200,
    response: AGENT_LIST,
    query: { limit: 'integer 1-1000', continue: 'paging token', namespace: 'workspace namespace' },
    handle: list,
  },
  {
    method: 'POST',
    path: '/v1/agents',
    action: 'agent.create',
    summary: 'Create an agent (needs one Owner)',
    success: 201,
    response: AGENT_VIEW,
    body: CREATE_BODY,
    handle: create,
  },
  {
    method: 'GET',
    path: AGENT,
    action: 'agent.read',
    summary: 'One agent',
    success: 200,
    response: AGENT_VIEW,
    handle: (rc) => Promise.resolve(agentView(agentOf(rc))),
  },
  {
    method: 'PATCH',
    path: AGENT,
    action: 'agent.update',
    summary:
      'Merge-patch the spec (not owners or suspend); lowering auditMode from enforce answers 202 with an ApprovalRequest instead',
    success: 200,
    response: AGENT_VIEW,
    otherSuccess: { 202: APPROVAL_REQUESTED },
    body: UPDATE_BODY,
    handle: update,
  },
  {
    method: 'DELETE',
    path: AGENT,
    action: 'agent.delete',
    summary: 'Request deletion: creates an ApprovalRequest for the Owners',
    success: 202,
    response: APPROVAL_REQUESTED,
    handle: remove,
  },
  {
    method: 'POST',
    path: `${AGENT}/suspend`,
    action: 'agent.suspend',
    summary: 'Suspend the agent',
    success: 200,
    response: AGENT_VIEW,
    body: REASON_BODY,
    optionalBody: true,
    handle: (rc) => setSuspend(rc, true),
  },
  {
    method: 'POST',
    path: `${AGENT}/reactivate`,
    action: 'agent.reactivate',
    summary: 'Clear a requested suspension',
    success: 200,
    response: AGENT_VIEW,
    body: REASON_BODY,
    optionalBody: true,
    handle: (rc) => setSuspend(rc, false),
  },
  {
    method: 'GET',
    path: `${AGENT}/access-review`,
    action: 'agent.access_review',
    summary: 'Who has access and what to review',
    success: 200,
    response: ACCESS_REVIEW,
    handle: (rc) => Promise.resolve(accessReview(agentOf(rc), rc.deps.now())),
  },
  {
    method: 'GET',
    path: `${AGENT}/passport`,
    action: 'agent.passport',
    summary: 'The agent passport',
    success: 200,
    response: PASSPORT,
    handle: async (rc) => ({
      ...(await agentPassport(rc.deps, agentOf(rc))),
      control_actions: await shellControlActions(rc.deps, agentOf(rc), rc.principal),
    }),
  },
];
