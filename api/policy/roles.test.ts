import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/principal.ts';
import { can, POLICY, rolesInWords, rolesOf } from './roles.ts';

const user = (subject: string, extra: Partial<Principal> = {}): Principal => ({
  subject,
  method: 'api_key',
  orgAdmin: false,
  workspaceAdminOf: [],
  ...extra,
});
const agent = {
  namespace: 'team-a',
  owners: [
    { subject: 'o', role: 'Owner' as const },
    { subject: 'e', role: 'Editor' as const },
    { subject: 'v', role: 'Viewer' as const },
  ],
};

describe('the policy table', () => {
  it('lets only an Owner approve, never an administrator or Editor', () => {
    expect(can(user('o'), 'approval.decide', agent)).toBe(true);
    expect(can(user('e'), 'approval.decide', agent)).toBe(false);
    expect(can(user('x', { orgAdmin: true }), 'approval.decide', agent)).toBe(false);
    expect(can(user('x', { workspaceAdminOf: ['team-a'] }), 'approval.decide', agent)).toBe(false);
  });

  it('gives workspace administrators their own namespaces only', () => {
    const wanda = user('w', { workspaceAdminOf: ['team-a'] });
    expect(can(wanda, 'agent.update', agent)).toBe(true);
    expect(can(wanda, 'agent.update', { ...agent, namespace: 'team-b' })).toBe(false);
    expect(can(wanda, 'agent.create', { namespace: 'team-b' })).toBe(false);
  });

  it('keeps Viewers read-only', () => {
    // `auditor.settings.write` only lets a credential reach the handler, which checks the tier's own action;
    // a Viewer answers and revokes only delegations of their own access (the handler checks the user, decision 134);
    // validating a definition file writes nothing, and applying one is checked per resource (decision 283);
    // `delegation.mine` reads the caller's own delegations.
    const gates = new Set([
      'auditor.settings.write',
      'delegation.answer',
      'delegation.revoke',
      'definition.validate',
      'definition.apply',
      'delegation.mine',
    ]);
    const writes = Object.keys(POLICY).filter(
      (a) => !/read|list|passport|stale|count|apikey/.test(a) && !gates.has(a),
    );
    for (const action of writes)
      expect(can(user('v'), action as keyof typeof POLICY, agent), action).toBe(false);
    expect(can(user('v'), 'agent.passport', agent)).toBe(true);
  });

  it('holds several roles at once', () => {
    expect([...rolesOf(user('o', { orgAdmin: true }), agent)].sort()).toEqual([
      'authenticated',
      'org_admin',
      'owner',
    ]);
  });
});

describe('attester keys', () => {
  it('are revoked by org administrators only', () => {
    expect(can(user('x', { orgAdmin: true }), 'attester.key.revoke')).toBe(true);
    expect(can(user('w', { workspaceAdminOf: ['team-a'] }), 'attester.key.revoke')).toBe(false);
    expect(can(user('gw', { gateway: true }), 'attester.key.revoke')).toBe(false);
    expect(can(user('o'), 'attester.key.revoke', agent)).toBe(false);
  });
});

describe('the gateway role', () => {
  const gateway = user('gw', { gateway: true });
  it('submits evidence, reads effective policies, its access manifest and egress bundle and secrets, holds calls for approval, records data accesses, registers auditors and asks for consent, and nothing else', () => {
    const allowed = Object.keys(POLICY).filter((a) => can(gateway, a as keyof typeof POLICY, agent));
    expect(allowed.sort()).toEqual([
      'agent.access_manifest.read',
      'agent.accesses.record',
      'agent.action.request',
      'agent.egress.credential',
      'agent.egress.read',
      'agent.svid',
      'approval.read',
      'auditor.register',
      'delegation.request',
      'evidence.submit',
      'policy.effective',
    ]);
  });
  it('is not held by anyone else', () => {
    expect(can(user('x', { orgAdmin: true }), 'evidence.submit')).toBe(false);
    expect(can(user('o'), 'evidence.submit', agent)).toBe(false);
  });
});

describe('scoped credentials and tools', () => {
  it('keep the org tier to org admins and a workspace tier to admins of its namespace', () => {
    const admin = user('a', { orgAdmin: true });
    const wanda = user('w', { workspaceAdminOf: ['team-a'] });
    expect(can(admin, 'scoped.write_org')).toBe(true);
    expect(can(wanda, 'scoped.write_org')).toBe(false);
    expect(can(wanda, 'scoped.write_workspace', { namespace: 'team-a' })).toBe(true);
    expect(can(wanda, 'scoped.write_workspace', { namespace: 'team-b' })).toBe(false);
    expect(can(admin, 'scoped.write_workspace', { namespace: 'team-b' })).toBe(true);
    expect(can(user('o'), 'scoped.write')).toBe(false);
    expect(can(user('o'), 'scoped.list')).toBe(false);
  });
});

describe('rolesInWords', () => {
  it('says who an action is for in words, for a refusal a person reads', () => {
    expect(rolesInWords('scoped.list')).toBe(
      'an organization administrator or an administrator of the workspace',
    );
    expect(rolesInWords('approval.decide')).toBe('an Owner of the agent');
    expect(rolesInWords('agent.update')).toBe(
      'an organization administrator, an administrator of the workspace, an Owner of the agent or an Editor',
    );
  });
});
