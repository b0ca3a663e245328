import { describe, expect, it } from 'vitest';
import {
  decideLease,
  leaseRecordChanged,
  releasedLease,
  validateLeaseTimings,
  type LeaseSpecRecord,
} from './lease-decision.ts';

const base = { identity: 'me', leaseDurationMs: 15_000 };
const held: LeaseSpecRecord = {
  holderIdentity: 'peer',
  leaseDurationSeconds: 15,
  acquireTime: '2026-01-01T00:00:00.000000Z',
  renewTime: '2026-01-01T00:00:00.000000Z',
  leaseTransitions: 3,
};

describe('decideLease', () => {
  it('creates the lease when there is none', () => {
    const d = decideLease({ ...base, current: undefined, nowMs: 1000, observedAtMs: 1000 });
    expect(d).toMatchObject({
      action: 'write',
      transition: true,
      spec: { holderIdentity: 'me', leaseTransitions: 0 },
    });
  });

  it('waits while a peer holds an unexpired lease, measured from when this process observed it', () => {
    const d = decideLease({ ...base, current: held, nowMs: 10_000, observedAtMs: 0 });
    expect(d).toEqual({ action: 'wait', holder: 'peer', expiresInMs: 5_000 });
  });

  it('takes over an expired lease and counts the transition', () => {
    const d = decideLease({ ...base, current: held, nowMs: 15_000, observedAtMs: 0 });
    expect(d).toMatchObject({
      action: 'write',
      transition: true,
      spec: { holderIdentity: 'me', leaseTransitions: 4 },
    });
  });

  it('takes a released lease (empty holder) at once', () => {
    const released = releasedLease(held, 0);
    const d = decideLease({ ...base, current: released, nowMs: 1, observedAtMs: 1 });
    expect(d).toMatchObject({ action: 'write', transition: true });
  });

  it('renews its own lease without a transition, keeping acquireTime', () => {
    const mine = { ...held, holderIdentity: 'me' };
    const d = decideLease({
      ...base,
      current: mine,
      nowMs: Date.parse('2026-01-01T00:00:05Z'),
      observedAtMs: 0,
    });
    expect(d).toMatchObject({
      action: 'write',
      transition: false,
      spec: { acquireTime: held.acquireTime, renewTime: '2026-01-01T00:00:05.000000Z', leaseTransitions: 3 },
    });
  });

  it("uses the lease's own duration, not ours, to judge a peer's expiry", () => {
    const long = { ...held, leaseDurationSeconds: 60 };
    expect(decideLease({ ...base, current: long, nowMs: 30_000, observedAtMs: 0 }).action).toBe('wait');
  });
});

describe('releasedLease', () => {
  it('clears the holder and shortens the duration', () => {
    expect(releasedLease(held, 0)).toMatchObject({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      leaseTransitions: 3,
    });
  });
});

describe('leaseRecordChanged', () => {
  it('sees renewals and holder changes', () => {
    expect(leaseRecordChanged(held, { ...held })).toBe(false);
    expect(leaseRecordChanged(held, { ...held, renewTime: 'later' })).toBe(true);
    expect(leaseRecordChanged(undefined, held)).toBe(true);
  });
});

describe('validateLeaseTimings', () => {
  it('accepts client-go defaults and rejects inverted timings', () => {
    expect(
      validateLeaseTimings({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }),
    ).toEqual([]);
    expect(
      validateLeaseTimings({ leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 9_000 }),
    ).toHaveLength(2);
  });
});
