import { describe, expect, it } from 'vitest';
import type { ConsentRequest, DelegationGrant } from '../../crds/generated/types.ts';
import { consentLifecycle, grantLifecycle, phaseEvent } from './lifecycle.ts';

const grant = (
  status?: DelegationGrant['status'],
  annotations?: Record<string, string>,
): DelegationGrant => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'DelegationGrant',
  metadata: { name: 'g', generation: 1, ...(annotations ? { annotations } : {}) },
  spec: {
    user: 'u',
    agent: 'a',
    service: 's',
    scopes: ['x'],
    grantedAt: '2026-01-01T00:00:00Z',
    expiresAt: '2026-01-01T01:00:00Z',
  },
  ...(status ? { status } : {}),
});

describe('grantLifecycle', () => {
  it('is active before expiry and requeues exactly at the expiry instant', () => {
    const r = grantLifecycle(grant(), new Date('2026-01-01T00:59:00Z'));
    expect(r.status.phase).toBe('active');
    expect(r.requeueAfterMs).toBe(60_000);
  });

  it('expires at the deadline and stays expired', () => {
    expect(grantLifecycle(grant(), new Date('2026-01-01T01:00:00Z')).status.phase).toBe('expired');
    const r = grantLifecycle(grant({ phase: 'expired' }), new Date('2026-01-01T00:00:00Z'));
    expect(r).toMatchObject({ status: { phase: 'expired' } });
    expect(r.requeueAfterMs).toBeUndefined();
  });

  it('is revoked at once by the annotation or a recorded revocation, and revocation is final', () => {
    const now = new Date('2026-01-01T00:10:00Z');
    expect(grantLifecycle(grant(undefined, { 'platform.io/revoked-by': 'alice' }), now).status).toEqual({
      phase: 'revoked',
      revokedTime: '2026-01-01T00:10:00Z',
      revokedBy: 'alice',
    });
    expect(grantLifecycle(grant({ revokedTime: '2026-01-01T00:05:00Z' }), now).status.phase).toBe('revoked');
    expect(grantLifecycle(grant({ phase: 'revoked' }), new Date('2027-01-01T00:00:00Z')).status.phase).toBe(
      'revoked',
    );
  });
});

describe('grant Ready', () => {
  const ready = (g: DelegationGrant, at: string) =>
    grantLifecycle(g, new Date(at)).conditions.find((c) => c.type === 'Ready');

  it('is Ready while in force, and not Ready (Expired, Revoked) once it no longer grants anything', () => {
    expect(ready(grant(), '2026-01-01T00:30:00Z')).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'WithinTTL',
      message: 'active until 2026-01-01T01:00:00Z',
    });
    expect(ready(grant(), '2026-01-01T01:00:00Z')).toMatchObject({ status: 'False', reason: 'Expired' });
    expect(ready(grant(undefined, { 'platform.io/revoked-by': 'alice' }), '2026-01-01T00:30:00Z')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'Revoked',
      message: 'revoked by alice',
    });
  });
});

describe('consentLifecycle', () => {
  const consent = (status?: ConsentRequest['status']): ConsentRequest => ({
    apiVersion: 'platform.io/v1alpha1',
    kind: 'ConsentRequest',
    metadata: { name: 'c', creationTimestamp: new Date('2026-01-01T00:00:00Z') },
    spec: { user: 'u', agent: 'a', service: 's', scopes: ['x'] },
    ...(status ? { status } : {}),
  });

  it('stays pending until the TTL and requeues for it', () => {
    const r = consentLifecycle(consent(), new Date('2026-01-01T00:10:00Z'), 900_000);
    expect(r).toMatchObject({ status: { phase: 'pending' }, requeueAfterMs: 300_000 });
  });

  it('resolves as denied by platform:expired after the TTL', () => {
    const r = consentLifecycle(consent(), new Date('2026-01-01T00:15:00Z'), 900_000);
    expect(r.status).toMatchObject({
      phase: 'resolved',
      resolution: 'denied',
      resolvedBy: 'platform:expired',
    });
  });

  it('never changes a consent already resolved by a user', () => {
    const resolved = { phase: 'resolved' as const, resolution: 'allowed' as const, resolvedBy: 'u' };
    const r = consentLifecycle(consent(resolved), new Date('2027-01-01T00:00:00Z'), 900_000);
    expect(r.status).toEqual(resolved);
    expect(r.conditions[0]).toMatchObject({ type: 'Expired', status: 'False' });
  });
});

describe('consent Ready', () => {
  const consent = (status?: ConsentRequest['status']): ConsentRequest => ({
    apiVersion: 'platform.io/v1alpha1',
    kind: 'ConsentRequest',
    metadata: { name: 'c', creationTimestamp: new Date('2026-01-01T00:00:00Z') },
    spec: { user: 'u', agent: 'a', service: 's', scopes: ['x'] },
    ...(status ? { status } : {}),
  });
  const ready = (c: ConsentRequest, at: string) =>
    consentLifecycle(c, new Date(at), 900_000).conditions.find((x) => x.type === 'Ready');

  it('is Ready in every state it can be in, with the state as the reason', () => {
    expect(ready(consent(), '2026-01-01T00:10:00Z')).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'AwaitingAnswer',
      message: 'awaiting an answer until 2026-01-01T00:15:00Z',
    });
    expect(ready(consent(), '2026-01-01T00:15:00Z')).toMatchObject({ status: 'True', reason: 'Expired' });
    const answered = consent({ phase: 'resolved', resolution: 'customized', resolvedBy: 'u' });
    expect(ready(answered, '2026-01-01T00:20:00Z')).toMatchObject({
      status: 'True',
      reason: 'Resolved',
      message: 'customized by u',
    });
  });
});

describe('phaseEvent', () => {
  it('names the phase change with the first condition, and is none while the phase stays', () => {
    const expired = grantLifecycle(grant(), new Date('2026-01-01T02:00:00Z'));
    expect(phaseEvent('active', expired)).toEqual({
      type: 'Normal',
      reason: 'Expired',
      action: 'UpdateStatus',
      note: 'phase active → expired: expired at 2026-01-01T01:00:00Z',
    });
    expect(phaseEvent('expired', expired)).toBeUndefined();
    expect(phaseEvent(undefined, { status: { phase: 'resolved' }, conditions: [] })?.reason).toBe('Resolved');
  });
});
