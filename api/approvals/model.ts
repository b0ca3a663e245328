// Pure approval logic: building an ApprovalRequest for a high-risk action,
// its API view, and whether it can still be decided.
import { randomBytes } from 'node:crypto';
import type { ApprovalRequest } from '../../crds/generated/types.ts';
import { API_VERSION } from '../../crds/kit.ts';
import { conflict } from '../http/errors.ts';

export type HighRiskAction = ApprovalRequest['spec']['action'];

/** What the API does once approved: `external` means the requester acts (gateway, proxy). */
export const OPERATIONS = ['agent.delete', 'external'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface ApprovalInput {
  namespace: string;
  agent: string;
  action: HighRiskAction;
  target: string;
  description?: string;
  operation: Operation;
  requestedBy: string;
  details?: Record<string, unknown>;
}

export const OPERATION_ANNOTATION = 'platform.io/operation';
export const REQUESTED_BY_ANNOTATION = 'platform.io/requested-by';

export function newApproval(input: ApprovalInput, nowMs: number, ttlMs: number): ApprovalRequest {
  return {
    apiVersion: API_VERSION,
    kind: 'ApprovalRequest',
    metadata: {
      namespace: input.namespace,
      name: `approval-${randomBytes(6).toString('hex')}`,
      labels: { 'platform.io/agent': input.agent },
      annotations: { [OPERATION_ANNOTATION]: input.operation, [REQUESTED_BY_ANNOTATION]: input.requestedBy },
    },
    spec: {
      agent: input.agent,
      action: input.action,
      target: input.target,
      ...(input.description ? { description: input.description } : {}),
      onBehalfOf: input.requestedBy,
      expiresAt: new Date(nowMs + ttlMs).toISOString(),
      ...(input.details ? { details: input.details } : {}),
    },
  };
}

export const approvalId = (a: ApprovalRequest): string => `${a.metadata.namespace}.${a.metadata.name}`;
export const agentKeyOf = (a: ApprovalRequest): string => `${a.metadata.namespace}/${a.spec.agent}`;
export const operationOf = (a: ApprovalRequest): Operation =>
  (a.metadata.annotations?.[OPERATION_ANNOTATION] as Operation | undefined) ?? 'external';

export function phaseOf(a: ApprovalRequest, nowMs: number): string {
  const phase = a.status?.phase ?? 'pending';
  if (phase === 'pending' && a.spec.expiresAt && Date.parse(a.spec.expiresAt) <= nowMs) return 'expired';
  return phase;
}

export function approvalView(a: ApprovalRequest, nowMs: number): Record<string, unknown> {
  return {
    id: approvalId(a),
    agent_id: `${a.metadata.namespace}.${a.spec.agent}`,
    action: a.spec.action,
    target: a.spec.target,
    description: a.spec.description ?? null,
    operation: operationOf(a),
    phase: phaseOf(a, nowMs),
    requested_by: a.metadata.annotations?.[REQUESTED_BY_ANNOTATION] ?? a.spec.onBehalfOf ?? null,
    requested_at: a.metadata.creationTimestamp ? String(a.metadata.creationTimestamp) : null,
    expires_at: a.spec.expiresAt ?? null,
    decided_by: a.status?.decidedBy ?? null,
    decided_at: a.status?.decidedTime ?? null,
    reason: a.status?.reason ?? null,
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

/** A pending request for the same operation and target, to answer a repeated request idempotently. */
export function findPending(
  all: Iterable<ApprovalRequest>,
  input: Pick<ApprovalInput, 'namespace' | 'agent' | 'action' | 'target' | 'operation'>,
  nowMs: number,
): ApprovalRequest | undefined {
  for (const a of all) {
    if (a.metadata.namespace !== input.namespace || a.spec.agent !== input.agent) continue;
    if (a.spec.action !== input.action || a.spec.target !== input.target) continue;
    if (operationOf(a) === input.operation && phaseOf(a, nowMs) === 'pending') return a;
  }
  return undefined;
}
