// DelegationGrant and ConsentRequest lifecycles, pure (spec "States"):
// - a grant is `active` until `spec.expiresAt`, then `expired` (the reconciler
//   requeues for that instant; nothing polls); `revoked` at once when an owner
//   revokes it (`status.revokedTime`, written by the API, or the
//   `platform.io/revoked-by` annotation for kubectl); expired and revoked are final;
// - a pending consent request resolves as `denied` by `platform:expired` when
//   its TTL since creation elapses.
import type { ConsentRequest, DelegationGrant } from '../../crds/generated/types.ts';
import { rfc3339, type DesiredCondition } from '../../base/controller/conditions.ts';
import { ANNOTATION } from '../../contract/kube.ts';

export const EXPIRED_RESOLVER = 'platform:expired';

type GrantStatus = NonNullable<DelegationGrant['status']>;
type ConsentStatus = NonNullable<ConsentRequest['status']>;

export interface LifecycleResult<S> {
  status: S;
  conditions: DesiredCondition[];
  /** Reconcile again after this long (the next deadline). */
  requeueAfterMs?: number;
}

export function grantLifecycle(grant: DelegationGrant, now: Date): LifecycleResult<GrantStatus> {
  const previous = grant.status ?? {};
  const g = grant.metadata.generation !== undefined ? { observedGeneration: grant.metadata.generation } : {};
  const revokedBy = grant.metadata.annotations?.[ANNOTATION.revokedBy];
  if (previous.phase === 'revoked' || previous.revokedTime || revokedBy) {
    const status: GrantStatus = {
      ...previous,
      phase: 'revoked',
      revokedTime: previous.revokedTime ?? rfc3339(now),
    };
    const by = previous.revokedBy ?? revokedBy;
    if (by) status.revokedBy = by;
    return {
      status,
      conditions: [
        {
          type: 'Active',
          status: 'False',
          reason: 'Revoked',
          message: `revoked${by ? ` by ${by}` : ''}`,
          ...g,
        },
      ],
    };
  }
  const expiresAtMs = Date.parse(grant.spec.expiresAt);
  if (previous.phase === 'expired' || !(expiresAtMs > now.getTime())) {
    return {
      status: { ...previous, phase: 'expired' },
      conditions: [
        {
          type: 'Active',
          status: 'False',
          reason: 'Expired',
          message: `expired at ${grant.spec.expiresAt}`,
          ...g,
        },
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
        ...g,
      },
    ],
    requeueAfterMs: expiresAtMs - now.getTime(),
  };
}

export function consentLifecycle(
  consent: ConsentRequest,
  now: Date,
  ttlMs: number,
): LifecycleResult<ConsentStatus> {
  const previous = consent.status ?? {};
  const g =
    consent.metadata.generation !== undefined ? { observedGeneration: consent.metadata.generation } : {};
  if (previous.phase === 'resolved') {
    const expired = previous.resolvedBy === EXPIRED_RESOLVER;
    return {
      status: previous,
      conditions: [
        expired
          ? {
              type: 'Expired',
              status: 'True',
              reason: 'TTLElapsed',
              message: 'no answer within the consent TTL; denied',
              ...g,
            }
          : { type: 'Expired', status: 'False', reason: 'Resolved', ...g },
      ],
    };
  }
  const created = new Date(
    (consent.metadata.creationTimestamp as Date | string | undefined) ?? NaN,
  ).getTime();
  const deadlineMs = (Number.isNaN(created) ? now.getTime() : created) + ttlMs;
  if (deadlineMs <= now.getTime()) {
    return {
      status: {
        ...previous,
        phase: 'resolved',
        resolution: 'denied',
        resolvedBy: EXPIRED_RESOLVER,
        resolvedTime: rfc3339(now),
      },
      conditions: [
        {
          type: 'Expired',
          status: 'True',
          reason: 'TTLElapsed',
          message: 'no answer within the consent TTL; denied',
          ...g,
        },
      ],
    };
  }
  return {
    status: { ...previous, phase: 'pending' },
    conditions: [
      {
        type: 'Expired',
        status: 'False',
        reason: 'Pending',
        message: `awaiting an answer until ${rfc3339(new Date(deadlineMs))}`,
        ...g,
      },
    ],
    requeueAfterMs: deadlineMs - now.getTime(),
  };
}
