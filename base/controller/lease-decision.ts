// The pure core of leader election on a coordination.k8s.io/v1 Lease, after
// client-go's leaderelection package. Expiry is judged against the local time
// at which this process last saw the lease record change (`observedAtMs`), not
// the holder's `renewTime`, so clock skew between replicas does not matter.

export interface LeaseSpecRecord {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface LeaseTimings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

export type LeaseDecision =
  | { action: 'wait'; holder: string; expiresInMs: number }
  | { action: 'write'; spec: LeaseSpecRecord; transition: boolean };

export interface LeaseInput {
  /** The lease as read; undefined when it does not exist yet. */
  current: LeaseSpecRecord | undefined;
  identity: string;
  nowMs: number;
  /** Local time when the current record was first observed in this form. */
  observedAtMs: number;
  leaseDurationMs: number;
}

function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

/** What to do with the lease now: renew or take it (write), or wait for the holder's lease to expire. */
export function decideLease(input: LeaseInput): LeaseDecision {
  const { current, identity, nowMs, observedAtMs, leaseDurationMs } = input;
  const leaseDurationSeconds = Math.ceil(leaseDurationMs / 1000);
  const holder = current?.holderIdentity ?? '';
  const expiresAtMs = observedAtMs + (current?.leaseDurationSeconds ?? leaseDurationSeconds) * 1000;
  if (heldByAnother(holder, identity) && expiresAtMs > nowMs) {
    return { action: 'wait', holder, expiresInMs: expiresAtMs - nowMs };
  }
  const now = microTime(nowMs);
  if (current && holder === identity) {
    return { action: 'write', transition: false, spec: { ...current, leaseDurationSeconds, renewTime: now } };
  }
  return {
    action: 'write',
    transition: true,
    spec: {
      holderIdentity: identity,
      leaseDurationSeconds,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: transitionsAfterTaking(current),
    },
  };
}

const heldByAnother = (holder: string, identity: string): boolean => holder !== '' && holder !== identity;

/** A new lease starts at 0 transitions; taking an existing one adds one. */
const transitionsAfterTaking = (current: LeaseSpecRecord | undefined): number =>
  current ? (current.leaseTransitions ?? 0) + 1 : 0;

/** The record a leader writes when it steps down: empty holder, so others acquire at once. */
export function releasedLease(current: LeaseSpecRecord, nowMs: number): LeaseSpecRecord {
  return { ...current, holderIdentity: '', leaseDurationSeconds: 1, renewTime: microTime(nowMs) };
}

/** The fields whose change means a new holder, a renewal or a transition. */
const LEASE_RECORD_FIELDS = [
  'holderIdentity',
  'renewTime',
  'leaseTransitions',
  'leaseDurationSeconds',
] as const;

/** True when the record changed (a new holder, renewal or transition). */
export function leaseRecordChanged(a: LeaseSpecRecord | undefined, b: LeaseSpecRecord | undefined): boolean {
  return LEASE_RECORD_FIELDS.some((field) => a?.[field] !== b?.[field]);
}

/** Problems with the timings; client-go requires lease > renew deadline > 1.2 × retry period. */
export function validateLeaseTimings(t: LeaseTimings): string[] {
  const problems: string[] = [];
  if (t.leaseDurationMs < 1000) problems.push('lease duration must be at least 1s');
  if (t.leaseDurationMs <= t.renewDeadlineMs)
    problems.push('lease duration must be greater than the renew deadline');
  if (t.renewDeadlineMs <= 1.2 * t.retryPeriodMs)
    problems.push('renew deadline must be greater than 1.2 × the retry period');
  if (t.retryPeriodMs <= 0) problems.push('retry period must be positive');
  return problems;
}
