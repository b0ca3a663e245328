// Pure approval logic: building an ApprovalRequest for a high-risk action,
// its API view, whether it can still be decided, and who may decide it.
import { randomBytes } from 'node:crypto';
import type { ApprovalRequest } from '../../crds/generated/types.ts';
import { conflict, HttpError } from '../../base/http-error.ts';
import type { Owner } from '../policy/roles.ts';
import { ANNOTATION, API_VERSION, LABEL } from '../../contract/kube.ts';

export type HighRiskAction = ApprovalRequest['spec']['action'];

/** What the API does once approved: `external` means the requester acts (gateway, proxy). */
export const OPERATIONS = ['agent.delete', 'agent.audit_mode', 'external'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface ApprovalInput {
  namespace: string;
  agent: string;
  action: HighRiskAction;
  target: string;
  description?: string;
  operation: Operation;
  requestedBy: string;
  /** Who may decide: the agent's Owners at request time, without the requester (decision 84). */
  approvers: readonly string[];
  details?: Record<string, unknown>;
}

export function newApproval(input: ApprovalInput, nowMs: number, ttlMs: number): ApprovalRequest {
  return {
    apiVersion: API_VERSION,
    kind: 'ApprovalRequest',
    metadata: {
      namespace: input.namespace,
      name: `approval-${randomBytes(6).toString('hex')}`,
      labels: { [LABEL.agent]: input.agent },
      annotations: { [ANNOTATION.operation]: input.operation, [ANNOTATION.requestedBy]: input.requestedBy },
    },
    spec: {
      agent: input.agent,
      action: input.action,
      target: input.target,
      ...(input.description ? { description: input.description } : {}),
      onBehalfOf: input.requestedBy,
      approvers: [...input.approvers],
      expiresAt: new Date(nowMs + ttlMs).toISOString(),
      ...(input.details ? { details: input.details } : {}),
    },
  };
}

export const approvalId = (a: ApprovalRequest): string => `${a.metadata.namespace}.${a.metadata.name}`;
export const agentKeyOf = (a: ApprovalRequest): string => `${a.metadata.namespace}/${a.spec.agent}`;
export const operationOf = (a: ApprovalRequest): Operation =>
  (a.metadata.annotations?.[ANNOTATION.operation] as Operation | undefined) ?? 'external';

export function phaseOf(a: ApprovalRequest, nowMs: number): string {
  const phase = a.status?.phase ?? 'pending';
  if (phase === 'pending' && a.spec.expiresAt && Date.parse(a.spec.expiresAt) <= nowMs) return 'expired';
  return phase;
}

/** The decision part of the view: who decided, when and why (null while undecided). */
function decisionView(a: ApprovalRequest): Record<string, unknown> {
  const st = a.status ?? {};
  return { decided_by: st.decidedBy ?? null, decided_at: st.decidedTime ?? null, reason: st.reason ?? null };
}

export function approvalView(a: ApprovalRequest, nowMs: number): Record<string, unknown> {
  const created = a.metadata.creationTimestamp;
  return {
    id: approvalId(a),
    agent_id: `${a.metadata.namespace}.${a.spec.agent}`,
    action: a.spec.action,
    target: a.spec.target,
    description: a.spec.description ?? null,
    operation: operationOf(a),
    phase: phaseOf(a, nowMs),
    requested_by: requesterOf(a) ?? null,
    approvers: approversOf(a),
    requested_at: created ? String(created) : null,
    expires_at: a.spec.expiresAt ?? null,
    ...decisionView(a),
    details: a.spec.details ?? {},
  };
}

/** Throws 409 unless the request is still pending. */
export function assertDecidable(a: ApprovalRequest, nowMs: number): void {
  const phase = phaseOf(a, nowMs);
  if (phase === 'expired')
    throw conflict('this approval request expired; request the action again', 'approval_expired');
  if (phase !== 'pending') throw conflict(`this approval request was already ${phase}`, 'already_decided');
}

/** A pending request for the same operation and target that an Owner can still decide, to answer a repeated request idempotently. */
export function findPending(
  all: Iterable<ApprovalRequest>,
  input: Pick<ApprovalInput, 'namespace' | 'agent' | 'action' | 'target' | 'operation'>,
  owners: readonly Owner[] | undefined,
  nowMs: number,
): ApprovalRequest | undefined {
  for (const a of all) {
    if (a.metadata.namespace !== input.namespace || a.spec.agent !== input.agent) continue;
    if (a.spec.action !== input.action || a.spec.target !== input.target) continue;
    if (operationOf(a) !== input.operation || phaseOf(a, nowMs) !== 'pending') continue;
    if (approversOf(a).some((s) => isOwner(s, owners))) return a;
  }
  return undefined;
}

/** Who asked for the action (the API records it twice; either names the requester). */
export const requesterOf = (a: ApprovalRequest): string | undefined =>
  a.metadata.annotations?.[ANNOTATION.requestedBy] ?? a.spec.onBehalfOf;

/** Who may decide; a request from before approvers were recorded has none and expires undecided. */
export const approversOf = (a: ApprovalRequest): string[] => [...(a.spec.approvers ?? [])];

const isOwner = (subject: string, owners: readonly Owner[] | undefined): boolean =>
  (owners ?? []).some((o) => o.subject === subject && o.role === 'Owner');

/** The agent's Owners who may decide a request `requester` makes now: everyone but the requester. */
export function approversFor(owners: readonly Owner[] | undefined, requester: string): string[] {
  return (owners ?? []).filter((o) => o.role === 'Owner' && o.subject !== requester).map((o) => o.subject);
}

export interface DecisionRefusal {
  detail: string;
  code: 'own_request' | 'not_an_approver';
}

/**
 * Why `subject` may not decide `a` (undefined when it may). The policy table
 * already demands that the subject is an Owner now; this adds that nobody
 * decides their own request and that only an Owner from before the request
 * decides it, so an administrator who shares Owner to itself cannot decide
 * what is already pending (decision 84).
 */
export function decisionRefusal(a: ApprovalRequest, subject: string): DecisionRefusal | undefined {
  const requesters = [a.metadata.annotations?.[ANNOTATION.requestedBy], a.spec.onBehalfOf];
  if (requesters.includes(subject)) {
    return {
      detail: 'you requested this action; another Owner of the agent decides it',
      code: 'own_request',
    };
  }
  if (!approversOf(a).includes(subject)) {
    return {
      detail:
        'you were not an Owner of this agent when this action was requested; only its Owners at that time decide it',
      code: 'not_an_approver',
    };
  }
  return undefined;
}

/** Throws 403 unless `subject` may decide `a` (see decisionRefusal). */
export function assertMayDecide(a: ApprovalRequest, subject: string): void {
  const refusal = decisionRefusal(a, subject);
  if (refusal) throw new HttpError(403, refusal.detail, refusal.code);
}
