import { describe, expect, it } from 'vitest';
import { HttpError } from '../../base/http-error.ts';
import type { ConsentRequest, DelegationGrant } from '../../crds/generated/types.ts';
import type { Principal } from '../auth/principal.ts';
import {
  assertAnswerable,
  assertGatewayServes,
  assertRequestable,
  assertRevocable,
  consentPhaseOf,
  grantPhaseOf,
  grantTerms,
  newConsent,
  newGrant,
  ttlMs,
  type AgentFacts,
} from './model.ts';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const agent: AgentFacts = {
  namespace: 'ws',
  name: 'bot',
  uid: 'uid-1',
  owners: [
    { subject: 'olivia', role: 'Owner' },
    { subject: 'eddie', role: 'Editor' },
    { subject: 'vera', role: 'Viewer' },
  ],
};

const consent = (
  o: Partial<ConsentRequest['spec']> = {},
  status?: ConsentRequest['status'],
): ConsentRequest => {
  const c = newConsent({ user: 'vera', service: 'slack', scopes: ['chat:read', 'chat:write'], ...o }, agent);
  c.metadata.creationTimestamp = new Date(T0) as unknown as ConsentRequest['metadata']['creationTimestamp'];
  return status ? { ...c, status } : c;
};

/** The HTTP status and code a call throws. */
function refusal(fn: () => unknown): [number, string | undefined] | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (err instanceof HttpError) return [err.status, err.code];
    throw err;
  }
}

describe('ttlMs', () => {
  it('reads minutes and hours and nothing else', () => {
    expect(ttlMs('15m')).toBe(900_000);
    expect(ttlMs('2h')).toBe(2 * HOUR);
    expect(ttlMs('0h')).toBeUndefined();
    expect(ttlMs('1d')).toBeUndefined();
    expect(ttlMs(undefined)).toBeUndefined();
  });
});

describe('assertRequestable', () => {
  const input = { user: 'vera', service: 'slack', scopes: ['chat:write'] };
  it('accepts a user on the share list within the maximum TTL', () => {
    expect(refusal(() => assertRequestable({ ...input, ttl: '24h' }, agent, 24 * HOUR))).toBeUndefined();
  });
  it('refuses a user the agent is not shared with, and a TTL over the maximum', () => {
    expect(refusal(() => assertRequestable({ ...input, user: 'sam' }, agent, 24 * HOUR))).toEqual([
      422,
      'user_not_shared',
    ]);
    expect(refusal(() => assertRequestable({ ...input, ttl: '25h' }, agent, 24 * HOUR))).toEqual([
      422,
      'ttl_too_long',
    ]);
  });
});

describe('assertGatewayServes', () => {
  const gw = (o: Partial<Principal>): Principal => ({
    subject: 'gw',
    method: 'api_key',
    orgAdmin: false,
    workspaceAdminOf: [],
    gateway: true,
    ...o,
  });
  it('lets an agent-bound key ask only for its own agent', () => {
    expect(refusal(() => assertGatewayServes(gw({ gatewayAgents: ['ws.bot'] }), 'ws.bot'))).toBeUndefined();
    expect(refusal(() => assertGatewayServes(gw({ gatewayAgents: ['ws.other'] }), 'ws.bot'))?.[0]).toBe(403);
    expect(refusal(() => assertGatewayServes(gw({ gatewayWorkspaces: ['x'] }), 'ws.bot'))?.[0]).toBe(403);
  });
});

describe('grantTerms', () => {
  it('Allow grants what was asked for the requested TTL (1h by default)', () => {
    expect(grantTerms(consent({ ttl: '2h' }), {}, 24 * HOUR)).toEqual({
      scopes: ['chat:read', 'chat:write'],
      ttl: '2h',
      resolution: 'allowed',
    });
    expect(grantTerms(consent(), {}, 24 * HOUR).ttl).toBe('1h');
  });
  it('Customize narrows scopes or shortens the TTL', () => {
    expect(grantTerms(consent(), { scopes: ['chat:read'] }, 24 * HOUR)).toMatchObject({
      scopes: ['chat:read'],
      resolution: 'customized',
    });
    expect(grantTerms(consent({ ttl: '2h' }), { ttl: '30m' }, 24 * HOUR)).toMatchObject({
      ttl: '30m',
      resolution: 'customized',
    });
  });
  it('never grants more than requested, nor longer than the maximum', () => {
    expect(refusal(() => grantTerms(consent(), { scopes: ['admin'] }, 24 * HOUR))).toEqual([
      422,
      'scope_not_requested',
    ]);
    expect(refusal(() => grantTerms(consent({ ttl: '1h' }), { ttl: '2h' }, 24 * HOUR))).toEqual([
      422,
      'ttl_too_long',
    ]);
    expect(grantTerms(consent({ ttl: '48h' }), {}, 24 * HOUR).ttl).toBe('24h');
  });
});

describe('assertAnswerable and consentPhaseOf', () => {
  it('only the delegating user answers, once, before the consent lapses', () => {
    expect(refusal(() => assertAnswerable(consent(), 'vera', T0 + 1000, HOUR))).toBeUndefined();
    expect(refusal(() => assertAnswerable(consent(), 'olivia', T0 + 1000, HOUR))?.[0]).toBe(403);
    const resolved = consent({}, { phase: 'resolved', resolution: 'denied', resolvedBy: 'vera' });
    expect(refusal(() => assertAnswerable(resolved, 'vera', T0 + 1000, HOUR))).toEqual([
      409,
      'consent_resolved',
    ]);
    expect(refusal(() => assertAnswerable(consent(), 'vera', T0 + HOUR, HOUR))).toEqual([
      409,
      'consent_resolved',
    ]);
    expect(consentPhaseOf(consent(), T0 + HOUR, HOUR)).toBe('expired');
  });
});

describe('newGrant and grant phases', () => {
  const grant = (): DelegationGrant =>
    newGrant(consent(), { scopes: ['chat:read'], ttl: '30m', resolution: 'customized' }, agent, T0);

  it('is owned by the agent, points at its consent and expires after its TTL', () => {
    const g = grant();
    expect(g.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'PlatformAgent', uid: 'uid-1' });
    expect(g.spec).toMatchObject({ user: 'vera', agent: 'bot', expiresAt: '2026-01-01T00:30:00.000Z' });
    expect(g.spec.consentRef).toMatch(/^consent-/);
    expect(grantPhaseOf(g, T0 + 29 * 60_000)).toBe('active');
    expect(grantPhaseOf(g, T0 + 30 * 60_000)).toBe('expired');
    expect(grantPhaseOf({ ...g, status: { revokedTime: 'x' } }, T0)).toBe('revoked');
  });

  it('is revoked by an Owner or its user, not an Editor, and only while active', () => {
    const g = grant();
    expect(refusal(() => assertRevocable(g, 'olivia', agent.owners, T0))).toBeUndefined();
    expect(refusal(() => assertRevocable(g, 'vera', agent.owners, T0))).toBeUndefined();
    expect(refusal(() => assertRevocable(g, 'eddie', agent.owners, T0))?.[0]).toBe(403);
    expect(refusal(() => assertRevocable(g, 'olivia', agent.owners, T0 + HOUR))).toEqual([
      409,
      'grant_inactive',
    ]);
  });
});
