import { describe, expect, it } from 'vitest';
import type { ScopedCredential } from '../../crds/generated/types.ts';
import {
  authStatusOf,
  enforcedCredential,
  resolveCredentials,
  workspaceCredentialRefusal,
  type CascadeTiers,
  type SharingMode,
} from './credential-cascade.ts';

const TIERS: CascadeTiers = {
  org: { name: 'acme', namespace: 'acme-home' },
  workspace: { name: 'ws', namespace: 'team' },
};

function cred(
  name: string,
  scope: 'org' | 'workspace',
  service: string,
  sharing: SharingMode | { mode: SharingMode; created: string },
): ScopedCredential {
  const { mode: sharingMode, created } =
    typeof sharing === 'string' ? { mode: sharing, created: '2024-01-01T00:00:00Z' } : sharing;
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'ScopedCredential',
    metadata: {
      name,
      namespace: scope === 'org' ? 'acme-home' : 'team',
      creationTimestamp: created as unknown as Date,
    },
    spec: {
      scope,
      scopeId: scope === 'org' ? 'acme' : 'ws',
      service,
      type: 'api_key',
      sharingMode,
      secretRef: { name, key: 'material' },
    },
  };
}

const effectiveName = (creds: ScopedCredential[], service: string): string | undefined =>
  resolveCredentials(creds, TIERS).effective.get(service)?.credential.metadata.name;

describe('the credential cascade', () => {
  it('gives the agent an org inherit credential as a default', () => {
    const r = resolveCredentials([cred('o', 'org', 'github', 'inherit')], TIERS);
    expect(r.effective.get('github')).toMatchObject({
      enforced: false,
      credential: { metadata: { name: 'o' } },
    });
  });

  it('lets the workspace override an inherited default, reporting the org one as overridden', () => {
    const creds = [cred('o', 'org', 'github', 'inherit'), cred('w', 'workspace', 'github', 'inherit')];
    const r = resolveCredentials(creds, TIERS);
    expect(effectiveName(creds, 'github')).toBe('w');
    expect(r.withheld).toEqual([{ credential: creds[0], reason: 'overridden' }]);
  });

  it('lets the workspace supplement the org with other services', () => {
    const creds = [cred('o', 'org', 'github', 'inherit'), cred('w', 'workspace', 'slack', 'inherit')];
    expect(effectiveName(creds, 'github')).toBe('o');
    expect(effectiveName(creds, 'slack')).toBe('w');
  });

  it('imposes an org enforce credential over any workspace credential, enforce included', () => {
    for (const mode of ['inherit', 'enforce', 'isolated'] as const) {
      const creds = [cred('o', 'org', 'github', 'enforce'), cred('w', 'workspace', 'github', mode)];
      const r = resolveCredentials(creds, TIERS);
      expect(r.effective.get('github')).toMatchObject({
        enforced: true,
        credential: { metadata: { name: 'o' } },
      });
      expect(r.withheld[0]?.reason, mode).toBe(mode === 'isolated' ? 'isolated' : 'enforced_above');
    }
  });

  it('enforces a workspace enforce credential on its agents', () => {
    const creds = [cred('o', 'org', 'github', 'inherit'), cred('w', 'workspace', 'github', 'enforce')];
    const r = resolveCredentials(creds, TIERS);
    expect(enforcedCredential(r, 'github')?.credential.metadata.name).toBe('w');
    expect(
      enforcedCredential(resolveCredentials([cred('o', 'org', 'github', 'inherit')], TIERS), 'github'),
    ).toBe(undefined);
  });

  it('never shares an isolated credential with an agent, at either tier', () => {
    const creds = [cred('o', 'org', 'github', 'isolated'), cred('w', 'workspace', 'slack', 'isolated')];
    const r = resolveCredentials(creds, TIERS);
    expect(r.effective.size).toBe(0);
    expect(r.withheld.map((w) => w.reason)).toEqual(['isolated', 'isolated']);
  });

  it('lets an org default reach the agent past a workspace credential that is isolated', () => {
    const creds = [cred('o', 'org', 'github', 'inherit'), cred('w', 'workspace', 'github', 'isolated')];
    expect(effectiveName(creds, 'github')).toBe('o');
  });

  it('ignores credentials of other orgs, workspaces and namespaces', () => {
    const other = cred('x', 'workspace', 'github', 'enforce');
    other.spec.scopeId = 'other-ws';
    const moved = cred('y', 'org', 'github', 'enforce');
    moved.metadata.namespace = 'team';
    expect(resolveCredentials([other, moved], TIERS).effective.size).toBe(0);
    expect(resolveCredentials([cred('o', 'org', 'github', 'enforce')], {}).effective.size).toBe(0);
  });

  it('chooses one credential per tier and service deterministically: enforce, then the oldest', () => {
    const creds = [
      cred('b', 'workspace', 'github', { mode: 'inherit', created: '2024-01-01T00:00:00Z' }),
      cred('a', 'workspace', 'github', { mode: 'inherit', created: '2024-02-01T00:00:00Z' }),
      cred('c', 'workspace', 'github', { mode: 'enforce', created: '2024-03-01T00:00:00Z' }),
    ];
    const r = resolveCredentials(creds, TIERS);
    expect(effectiveName(creds, 'github')).toBe('c');
    expect(r.withheld.map((w) => [w.credential.metadata.name, w.reason])).toEqual([
      ['b', 'duplicate'],
      ['a', 'duplicate'],
    ]);
  });

  it('refuses a workspace credential for a service the org enforces, and only then', () => {
    const orgCreds = [cred('o', 'org', 'github', 'enforce'), cred('p', 'org', 'slack', 'inherit')];
    expect(workspaceCredentialRefusal(orgCreds, 'github')).toContain('organization acme enforces');
    expect(workspaceCredentialRefusal(orgCreds, 'slack')).toBeUndefined();
    expect(workspaceCredentialRefusal(orgCreds, 'jira')).toBeUndefined();
  });

  it('reports the stored auth status, else connected with material and pending without', () => {
    const c = cred('o', 'org', 'github', 'inherit');
    expect(authStatusOf(c)).toBe('connected');
    expect(authStatusOf({ ...c, spec: { ...c.spec, secretRef: undefined } })).toBe('pending');
    expect(authStatusOf({ ...c, status: { authStatus: 'expired' } })).toBe('expired');
  });
});
