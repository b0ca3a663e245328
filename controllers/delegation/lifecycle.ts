// DelegationGrant and ConsentRequest lifecycles, pure (spec "States"):
// - a grant is `active` until `spec.expiresAt`, then `expired` (the reconciler
//   requeues for that instant; nothing polls); `revoked` at once when an owner
//   revokes it (`status.revokedTime`, written by the API, or the
//   `platform.io/revoked-by` annotation for kubectl); expired and revoked are final;
// - a pending consent request resolves as `denied` by `platform:expired` when
//   its TTL since creation elapses.
import type { ConsentRequest, DelegationGrant } from '../../crds/generated/types.ts';
import { rfc3339, type DesiredCondition } from '../../base/controller/conditions.ts';
import type { EventSpec } from '../../base/controller/events.ts';
import { ANNOTATION } from '../../contract/kube.ts';
import { ready, readyFrom } from '../common/ready.ts';

export const EXPIRED_RESOLVER = 'platform:expired';

type GrantStatus = NonNullable<DelegationGrant['status']>;
type ConsentStatus = NonNullable<ConsentRequest['status']>;

export interface LifecycleResult<S> {
  status: S;
  conditions: DesiredCondition[];
  /** Reconcile again after this long (the next deadline). */
  requeueAfterMs?: number;
}

/** Who revoked the grant: the API's `status.revokedBy`, else the kubectl annotation. */
function revocation(grant: DelegationGrant): { revoked: boolean; by?: string } {
  const previous = grant.status ?? {};
  const annotated = grant.metadata.annotations?.[ANNOTATION.revokedBy];
  const by = previous.revokedBy ?? annotated;
  const revoked = previous.phase === 'revoked' || !!previous.revokedTime || !!annotated;
  return by ? { revoked, by } : { revoked };
}

function revokedGrant(
  grant: DelegationGrant,
  now: Date,
  by: string | undefined,
): LifecycleResult<GrantStatus> {
  const previous = grant.status ?? {};
  const status: GrantStatus = {
    ...previous,
    phase: 'revoked',
    revokedTime: previous.revokedTime ?? rfc3339(now),
  };
  if (by) status.revokedBy = by;
  const message = `revoked${by ? ` by ${by}` : ''}`;
  return { status, conditions: [{ type: 'Active', status: 'False', reason: 'Revoked', message }] };
}

/**
 * The grant's phase and its `Active` condition; `Ready` says the same (a
 * grant is Ready while it is in force; expired or revoked it is not).
 */
export function grantLifecycle(grant: DelegationGrant, now: Date): LifecycleResult<GrantStatus> {
  const result = grantState(grant, now);
  return { ...result, conditions: [...result.conditions, readyFrom(result.conditions[0]!)] };
}

function grantState(grant: DelegationGrant, now: Date): LifecycleResult<GrantStatus> {
  const previous = grant.status ?? {};
  const { revoked, by } = revocation(grant);
  if (revoked) return revokedGrant(grant, now, by);
  const expiresAtMs = Date.parse(grant.spec.expiresAt);
  if (previous.phase === 'expired' || !(expiresAtMs > now.getTime())) {
    return {
      status: { ...previous, phase: 'expired' },
      conditions: [
        { type: 'Active', status: 'False', reason: 'Expired', message: `expired at ${grant.spec.expiresAt}` },
      ],
    };
  }
  return {
    status: { ...previous, phase: 'active' },
    conditions: [
      {
        type: 'Active',
        status: 'True',
        reason: 'WithinTTL',
        message: `active until ${grant.spec.expiresAt}`,
      },
    ],
    requeueAfterMs: expiresAtMs - now.getTime(),
  };
}

const TTL_ELAPSED: DesiredCondition = {
  type: 'Expired',
  status: 'True',
  reason: 'TTLElapsed',
  message: 'no answer within the consent TTL; denied',
};

/** When a pending consent request expires: its TTL after creation (now, when creation is unknown). */
function consentDeadlineMs(consent: ConsentRequest, now: Date, ttlMs: number): number {
  const created = new Date(
    (consent.metadata.creationTimestamp as Date | string | undefined) ?? NaN,
  ).getTime();
  return (Number.isNaN(created) ? now.getTime() : created) + ttlMs;
}

/**
 * The request's phase and its `Expired` condition, and `Ready`: a consent
 * request is Ready while it waits for an answer before its TTL and once
 * answered (allowed, customized, denied, or denied by the TTL): every state
 * it can be in is a settled or a valid one.
 */
export function consentLifecycle(
  consent: ConsentRequest,
  now: Date,
  ttlMs: number,
): LifecycleResult<ConsentStatus> {
  const result = consentState(consent, now, ttlMs);
  return { ...result, conditions: [...result.conditions, consentReady(result)] };
}

function consentReady(result: LifecycleResult<ConsentStatus>): DesiredCondition {
  const st = result.status;
  if (st.phase !== 'resolved') return ready('AwaitingAnswer', result.conditions[0]?.message ?? 'pending');
  if (st.resolvedBy === EXPIRED_RESOLVER) return ready('Expired', TTL_ELAPSED.message ?? '');
  return ready('Resolved', `${st.resolution ?? 'answered'} by ${st.resolvedBy ?? 'the user'}`);
}

function consentState(consent: ConsentRequest, now: Date, ttlMs: number): LifecycleResult<ConsentStatus> {
  const previous = consent.status ?? {};
  if (previous.phase === 'resolved') {
    const expired = previous.resolvedBy === EXPIRED_RESOLVER;
    return {
      status: previous,
      conditions: [expired ? TTL_ELAPSED : { type: 'Expired', status: 'False', reason: 'Resolved' }],
    };
  }
  const deadlineMs = consentDeadlineMs(consent, now, ttlMs);
  if (deadlineMs <= now.getTime()) {
    return {
      status: {
        ...previous,
        phase: 'resolved',
        resolution: 'denied',
        resolvedBy: EXPIRED_RESOLVER,
        resolvedTime: rfc3339(now),
      },
      conditions: [TTL_ELAPSED],
    };
  }
  const message = `awaiting an answer until ${rfc3339(new Date(deadlineMs))}`;
  return {
    status: { ...previous, phase: 'pending' },
    conditions: [{ type: 'Expired', status: 'False', reason: 'Pending', message }],
    requeueAfterMs: deadlineMs - now.getTime(),
  };
}

/** The Event of a phase change (`phase pending → resolved: …`); none when the phase stays. */
export function phaseEvent(
  previousPhase: string | undefined,
  result: LifecycleResult<{ phase?: string }>,
): EventSpec | undefined {
  const from = previousPhase ?? 'none';
  const to = String(result.status.phase);
  if (from === to) return undefined;
  return {
    type: 'Normal',
    reason: to === 'resolved' ? 'Resolved' : `${to[0]!.toUpperCase()}${to.slice(1)}`,
    action: 'UpdateStatus',
    note: `phase ${from} → ${to}: ${result.conditions[0]?.message ?? ''}`,
  };
}
