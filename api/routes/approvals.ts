// High-risk actions and their approvals. A write, merge, send or delete
// requested through the API becomes an ApprovalRequest beside the agent;
// nothing else changes until an Owner approves. Only an Owner decides (the
// policy table), never the requester and only one who was an Owner when it
// was requested (decision 84); a decision is final (optimistic write + CEL rule).
import type { ApprovalRequest } from '../../crds/generated/types.ts';
import { apiStatus } from '../../base/kube.ts';
import type { PlatformAgent } from '../agents/model.ts';
import { auditModeOf, isAuditMode } from '../agents/audit-mode.ts';
import { mutateAgent } from '../agents/mutate.ts';
import {
  agentKeyOf,
  approvalView,
  approversFor,
  assertDecidable,
  assertMayDecide,
  decisionRefusal,
  findPending,
  newApproval,
  operationOf,
  phaseOf,
  type HighRiskAction,
  type Operation,
} from '../approvals/model.ts';
import { conflict, HttpError, unprocessable } from '../../base/http-error.ts';
import { agentAccessManifest } from '../delegations/agent-manifest.ts';
import { assertGatewayServes } from '../delegations/model.ts';
import { actionRuling } from '../../policy/access-manifest.ts';
import { enumQuery } from '../http/validate.ts';
import { shareRoleOf } from '../policy/roles.ts';
import { pendingConsentsFor } from './delegations.ts';
import { bodyOf, type RouteCtx, type RouteSpec } from './route.ts';
import {
  APPROVAL_VIEW,
  APPROVAL_DECIDED,
  APPROVAL_LIST,
  APPROVAL_REQUESTED,
  NOTIFICATION_COUNT,
} from './responses.ts';

export interface ActionRequest {
  action: HighRiskAction;
  target: string;
  description?: string;
  operation: Operation;
  details?: Record<string, unknown>;
}

/** Creates (or returns the identical pending) ApprovalRequest for a high-risk action. */
export async function requestApproval(
  rc: RouteCtx,
  agent: PlatformAgent,
  req: ActionRequest,
): Promise<unknown> {
  const namespace = agent.metadata.namespace ?? '';
  const requestedBy = rc.principal.subject;
  const approvers = approversFor(agent.spec.owners, requestedBy);
  const input = { ...req, namespace, agent: agent.metadata.name ?? '', requestedBy, approvers };
  const now = rc.deps.now();
  const existing = findPending(rc.deps.approvals.list(), input, agent.spec.owners, now);
  if (existing) {
    rc.audit.details = { approval: existing.metadata.name, repeated: true };
    return { approval: approvalView(existing, now), applied: false };
  }
  if (approvers.length === 0) {
    rc.audit.details = { action: req.action, target: req.target, refused: 'no_approver' };
    throw conflict(
      'no Owner other than the requester could approve this; share the agent with another Owner first',
      'no_approver',
    );
  }
  const created = await rc.deps.writer.createApproval(newApproval(input, now, rc.deps.approvalTtlMs));
  let stored = created;
  try {
    stored = await rc.deps.writer.patchApprovalStatus(created, { phase: 'pending' });
  } catch (err) {
    rc.deps.log.warn({ err: String(err) }, 'could not mark approval pending; it reads as pending anyway');
  }
  rc.audit.details = { approval: stored.metadata.name, action: req.action, target: req.target, approvers };
  return { approval: approvalView(stored, now), applied: false };
}

const ACTION_BODY = {
  type: 'object',
  required: ['action', 'target'],
  additionalProperties: false,
  properties: {
    action: { type: 'string', minLength: 1, maxLength: 63, pattern: '^[a-z0-9]([-_a-z0-9]{0,61}[a-z0-9])?$' },
    target: { type: 'string', minLength: 1, maxLength: 2048 },
    description: { type: 'string', maxLength: 4096 },
    details: { type: 'object' },
  },
};
const DECISION_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: { reason: { type: 'string', maxLength: 4096 } },
};

/**
 * The actions domain of the agent's Access Manifest rules first (decision
 * 153): a denied action is refused outright, and only an action that needs an
 * Owner's approval (high-risk, or named by the manifest) becomes a request.
 */
async function requestAction(rc: RouteCtx): Promise<unknown> {
  const body = bodyOf<Omit<ActionRequest, 'operation'>>(rc);
  const agent = rc.agent as PlatformAgent;
  assertGatewayServes(rc.principal, `${agent.metadata.namespace}.${agent.metadata.name}`);
  const ruling = actionRuling(await agentAccessManifest(rc.deps.writer, agent), body.action);
  // The credential proxy also holds calls its rule sends to an Owner (`approval: owner`), whatever the action.
  const held = ruling === 'approval_required' || (ruling === 'allowed' && rc.principal.gateway === true);
  if (!held) {
    rc.audit.details = { action: body.action, target: body.target, refused: ruling };
    throw ruling === 'denied'
      ? new HttpError(403, `the Access Manifest of this agent denies ${body.action}`, 'action_not_permitted')
      : unprocessable(
          `${body.action} needs no approval for this agent (not high-risk, not named by its Access Manifest)`,
          'approval_not_required',
        );
  }
  rc.status = 202;
  return requestApproval(rc, agent, { ...body, operation: 'external' });
}

async function setAuditMode(
  rc: RouteCtx,
  a: ApprovalRequest,
): Promise<{ executed: boolean; result: string }> {
  const mode = a.spec.details?.auditMode;
  if (!isAuditMode(mode)) return { executed: false, result: 'the request names no valid audit mode' };
  await mutateAgent(rc.deps.writer, rc.agent as PlatformAgent, (fresh) => {
    if (auditModeOf(fresh.spec) === mode) return undefined;
    fresh.spec.auditMode = mode;
    return fresh;
  });
  return { executed: true, result: `audit mode set to ${mode}` };
}

async function execute(rc: RouteCtx, a: ApprovalRequest): Promise<{ executed: boolean; result: string }> {
  const op = operationOf(a);
  if (op === 'external') return { executed: false, result: 'approved; the requester performs the action' };
  if (op === 'agent.audit_mode') return setAuditMode(rc, a);
  const deleted = await rc.deps.writer.deleteAgent(a.metadata.namespace ?? '', a.spec.agent);
  return { executed: true, result: deleted ? 'agent deleted' : 'agent was already gone' };
}

/**
 * Writes the decision with the resourceVersion it was made on. A 409 is
 * another decision only when the request is no longer pending: the operator
 * writes the `Ready` condition too (controllers/ready), so a still-pending
 * request is re-read and the decision written once more on it.
 */
export async function recordDecision(
  rc: RouteCtx,
  a: ApprovalRequest,
  status: Record<string, unknown>,
): Promise<ApprovalRequest> {
  try {
    return await rc.deps.writer.patchApprovalStatus(a, status);
  } catch (err) {
    if (apiStatus(err) !== 409) throw err;
  }
  const fresh = await rc.deps.writer.readApproval(a.metadata.namespace ?? '', a.metadata.name ?? '');
  if (!fresh || (fresh.status?.phase ?? 'pending') !== 'pending') throw alreadyDecided();
  return rc.deps.writer.patchApprovalStatus(fresh, status).catch((err: unknown) => {
    throw apiStatus(err) === 409 ? alreadyDecided() : err;
  });
}

const alreadyDecided = (): HttpError =>
  conflict('another decision was recorded first; reload', 'already_decided');

async function decide(rc: RouteCtx, phase: 'approved' | 'denied'): Promise<unknown> {
  const a = rc.approval as ApprovalRequest;
  const now = rc.deps.now();
  assertMayDecide(a, rc.principal.subject);
  try {
    assertDecidable(a, now);
  } catch (err) {
    if (phaseOf(a, now) === 'expired' && a.status?.phase !== 'expired') {
      await rc.deps.writer.patchApprovalStatus(a, { phase: 'expired' }).catch(() => undefined);
    }
    throw err;
  }
  const reason = bodyOf<{ reason?: string } | undefined>(rc)?.reason;
  const status = {
    phase,
    decidedBy: rc.principal.subject,
    decidedTime: new Date(now).toISOString(),
    ...(reason ? { reason } : {}),
  };
  const stored = await recordDecision(rc, a, status);
  const outcome = phase === 'approved' ? await execute(rc, stored) : { executed: false, result: 'denied' };
  rc.audit.details = { decision: phase, ...outcome };
  return { approval: approvalView(stored, now), ...outcome };
}

/**
 * Pending approvals the caller can decide (an Owner of the agent, not the
 * requester, an Owner since before the request); with `all`, every request on
 * agents the caller owns, whatever its phase.
 */
function pendingFor(rc: RouteCtx, all: boolean): ApprovalRequest[] {
  const now = rc.deps.now();
  const subject = rc.principal.subject;
  return rc.deps.approvals.list().filter((a) => {
    const agent = rc.deps.agents.agent(agentKeyOf(a));
    if (shareRoleOf(subject, agent?.spec.owners) !== 'Owner') return false;
    return all || (phaseOf(a, now) === 'pending' && !decisionRefusal(a, subject));
  });
}

function list(rc: RouteCtx): Promise<unknown> {
  const status = enumQuery(rc.query, 'status', ['pending', 'all'] as const) ?? 'pending';
  const now = rc.deps.now();
  const items = pendingFor(rc, status === 'all')
    .map((a) => approvalView(a, now))
    .sort((x, y) => String(y.requested_at).localeCompare(String(x.requested_at)));
  rc.audit = { resource: 'approvals', details: { returned: items.length } };
  return Promise.resolve({ items });
}

function count(rc: RouteCtx): Promise<unknown> {
  const approvals = pendingFor(rc, false).length;
  const consents = pendingConsentsFor(rc);
  rc.audit = { resource: 'notifications' };
  return Promise.resolve({ count: approvals + consents, approvals, consents });
}

/** The agent's Gateway key reads its own agent's approvals (a held call waits on one). */
function readApproval(rc: RouteCtx): Promise<unknown> {
  const a = rc.approval as ApprovalRequest;
  assertGatewayServes(rc.principal, `${a.metadata.namespace}.${a.spec.agent}`);
  return Promise.resolve(approvalView(a, rc.deps.now()));
}

const APPROVAL = '/v1/approvals/{id}';

export const APPROVAL_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: '/v1/agents/{agent_id}/actions',
    action: 'agent.action.request',
    summary: 'Request a high-risk action (creates an ApprovalRequest)',
    success: 202,
    response: APPROVAL_REQUESTED,
    body: ACTION_BODY,
    handle: requestAction,
  },
  {
    method: 'GET',
    path: '/v1/approvals',
    action: 'approval.list',
    summary: 'Approvals the caller can decide',
    success: 200,
    response: APPROVAL_LIST,
    query: { status: 'pending (default) or all' },
    handle: list,
  },
  {
    method: 'GET',
    path: APPROVAL,
    action: 'approval.read',
    summary: 'One approval request',
    success: 200,
    response: APPROVAL_VIEW,
    handle: readApproval,
  },
  {
    method: 'POST',
    path: `${APPROVAL}/approve`,
    action: 'approval.decide',
    summary: 'Approve (an Owner other than the requester, Owner since the request); runs the action',
    success: 200,
    response: APPROVAL_DECIDED,
    body: DECISION_BODY,
    optionalBody: true,
    handle: (rc) => decide(rc, 'approved'),
  },
  {
    method: 'POST',
    path: `${APPROVAL}/deny`,
    action: 'approval.decide',
    summary: 'Deny (an Owner other than the requester, Owner since the request)',
    success: 200,
    response: APPROVAL_DECIDED,
    body: DECISION_BODY,
    optionalBody: true,
    handle: (rc) => decide(rc, 'denied'),
  },
  {
    method: 'GET',
    path: '/v1/notifications/count',
    action: 'notification.count',
    summary: 'Sidebar badge: pending approvals and consent requests for the caller',
    success: 200,
    response: NOTIFICATION_COUNT,
    handle: count,
  },
];
