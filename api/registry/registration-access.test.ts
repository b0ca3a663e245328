// Issue 13, finding 1: a Gateway key, even one limited to one workspace,
// rewrote a cluster-wide AuditorRegistration's endpoint and auth, and the
// registry kept showing the old tier. These are the pure decisions behind the
// fix: who may write which registration, and the tier a registration shows.
import { describe, expect, it } from 'vitest';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import type { Principal } from '../auth/principal.ts';
import { registeredTier, registrationFrom, type RegistrationBody } from './auditors.ts';
import {
  defaultWorkspaces,
  gatewayScope,
  lockedChanges,
  registrationVerdict,
} from './registration-access.ts';

const admin: Principal = { subject: 'admin', method: 'api_key', orgAdmin: true, workspaceAdminOf: [] };
const gateway = (workspaces: string[] = [], agents: string[] = []): Principal => ({
  subject: 'gw',
  method: 'api_key',
  orgAdmin: false,
  workspaceAdminOf: [],
  gateway: true,
  gatewayWorkspaces: workspaces,
  gatewayAgents: agents,
});

const ORIGINAL: RegistrationBody = {
  auditor_id: 'ext',
  endpoint: 'https://ext.example.com',
  deployment_mode: 'external',
  auth: { type: 'mtls', cert_pem: 'PEM' },
};
const stored = (body: RegistrationBody, principal: Principal = admin): AuditorRegistration => {
  const reg = registrationFrom(body, undefined, defaultWorkspaces(principal));
  return { ...reg, metadata: { name: body.auditor_id, resourceVersion: '3' } };
};

/** The verdict for `principal` sending `body` over `existing`, as the route computes it. */
function verdictOf(principal: Principal, body: RegistrationBody, existing?: AuditorRegistration) {
  const next = registrationFrom(body, existing, defaultWorkspaces(principal));
  return registrationVerdict(principal, next.spec, existing?.spec);
}

describe('who may write an auditor registration', () => {
  const clusterWide = stored(ORIGINAL);
  const hijack: RegistrationBody = {
    auditor_id: 'ext',
    endpoint: 'https://attacker.example.net',
    auth: { type: 'none' },
  };

  it('refuses a workspace-limited gateway key rewriting a cluster-wide registration, naming the fields', () => {
    const v = verdictOf(gateway(['team']), hijack, clusterWide);
    expect(v).toMatchObject({ kind: 'refuse', code: 'registration_locked' });
    expect(v.kind === 'refuse' && v.detail).toMatch(/cannot change its endpoint, auth/);
  });

  it('refuses any gateway key changing endpoint, auth or deployment mode, even of its own registration', () => {
    const own = stored(ORIGINAL, gateway(['team']));
    expect(own.spec.workspaces).toEqual(['team']);
    for (const change of [
      { endpoint: 'https://elsewhere.example.com' },
      { auth: { type: 'api_key' as const, secret_ref: { name: 's', key: 'k' } } },
      { deployment_mode: 'in-cluster' as const },
      { workspaces: ['team', 'other'] },
    ]) {
      const v = verdictOf(gateway(['team']), { ...ORIGINAL, ...change }, own);
      expect(v, JSON.stringify(change)).toMatchObject({ kind: 'refuse', code: 'registration_locked' });
    }
    expect(verdictOf(gateway(), hijack, clusterWide)).toMatchObject({ kind: 'refuse' });
  });

  it('acknowledges an identical re-registration without a write, so restarting auditors keep working', () => {
    expect(verdictOf(gateway(['team']), ORIGINAL, clusterWide)).toEqual({ kind: 'acknowledge' });
    expect(verdictOf(gateway(), ORIGINAL, clusterWide)).toEqual({ kind: 'acknowledge' });
    // The plain self-registration body (no mode, no auth) changes nothing locked either.
    const plain = { auditor_id: 'ext', endpoint: 'https://ext.example.com', health_check_interval: 30 };
    expect(verdictOf(gateway(['team']), plain, clusterWide)).toEqual({ kind: 'acknowledge' });
  });

  it('lets a gateway key update descriptive fields of its own workspace’s registration only', () => {
    const own = stored(ORIGINAL, gateway(['team']));
    const newer = { ...ORIGINAL, version: '2' };
    expect(verdictOf(gateway(['team']), newer, own)).toEqual({ kind: 'write' });
    // Someone else's (cluster-wide) registration is only acknowledged, never written.
    expect(verdictOf(gateway(['team']), newer, clusterWide)).toEqual({ kind: 'acknowledge' });
  });

  it('scopes a new registration to a limited gateway key’s workspaces; wider is for an org administrator', () => {
    expect(verdictOf(gateway(['team']), ORIGINAL)).toEqual({ kind: 'write' });
    expect(verdictOf(gateway(['team']), { ...ORIGINAL, workspaces: ['other'] })).toMatchObject({
      kind: 'refuse',
      code: 'forbidden',
    });
    expect(verdictOf(gateway(['team']), { ...ORIGINAL, workspaces: [] })).toMatchObject({ kind: 'refuse' });
    // An org-wide gateway key (no workspaces) may create a cluster-wide one; an agent-bound key may not.
    expect(verdictOf(gateway(), ORIGINAL)).toEqual({ kind: 'write' });
    expect(gatewayScope(gateway([], ['team.bot']))).toEqual(['team']);
    expect(verdictOf(gateway([], ['team.bot']), { ...ORIGINAL, workspaces: [] })).toMatchObject({
      kind: 'refuse',
    });
  });

  it('lets an org administrator change anything', () => {
    expect(verdictOf(admin, hijack, clusterWide)).toEqual({ kind: 'write' });
    expect(verdictOf(admin, { ...ORIGINAL, workspaces: ['team'] }, clusterWide)).toEqual({ kind: 'write' });
  });

  it('never compares a sidecar’s endpoint: the one its Gateway relays is pod-local and is not stored', () => {
    const sidecar = stored({ auditor_id: 'sc', endpoint: 'http://sc.example', deployment_mode: 'sidecar' });
    const relayed = registrationFrom({ auditor_id: 'sc', endpoint: 'http://127.0.0.1:8101' }, sidecar);
    expect(relayed.spec.endpoint).toBe('http://sc.example');
    expect(lockedChanges(sidecar.spec, relayed.spec)).toEqual([]);
  });
});

describe('the tier a registration shows', () => {
  const reg = (spec: Partial<AuditorRegistration['spec']>, trustTier?: string): AuditorRegistration =>
    ({
      metadata: { name: 'x' },
      spec: { auditorId: 'x', category: 'security', phase: 'input_guarding', ...spec },
      ...(trustTier ? { status: { trustTier } } : {}),
    }) as AuditorRegistration;

  it('follows the registration in force, never a stored status', () => {
    const noAuth = reg({ deploymentMode: 'external', auth: { type: 'none' } }, 'mtls_verified');
    expect(registeredTier('x', noAuth)).toBe('unverified');
    expect(registeredTier('x', reg({ deploymentMode: 'external' }))).toBe('unverified');
    expect(registeredTier('x', reg({ deploymentMode: 'external', auth: { type: 'mtls' } }))).toBe(
      'mtls_verified',
    );
    expect(registeredTier('x', reg({ deploymentMode: 'external', auth: { type: 'api_key' } }))).toBe(
      'key_authenticated',
    );
    expect(registeredTier('x', reg({ deploymentMode: 'in-cluster', auth: { type: 'api_key' } }))).toBe(
      'key_authenticated',
    );
    // Without a verified quote a sidecar shows mtls_verified, like the built-ins.
    expect(registeredTier('x', reg({ deploymentMode: 'sidecar' }))).toBe('mtls_verified');
    expect(registeredTier('injection', undefined)).toBe('mtls_verified');
    expect(registeredTier('nobody', undefined)).toBe('unverified');
  });
});
