import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/principal.ts';
import { visibleScopes } from './visible-scopes.ts';

const person = (over: Partial<Principal> = {}): Principal => ({
  subject: 'user:ana@acme.example',
  method: 'api_key',
  orgAdmin: false,
  workspaceAdminOf: [],
  ...over,
});
const ORGS = [{ name: 'zeta' }, { name: 'acme', homeNamespace: 'platform-org-acme' }];
const WORKSPACES = [
  { namespace: 'research', name: 'lab', organization: 'acme' },
  { namespace: 'sales', name: 'crm', organization: 'zeta' },
  { namespace: 'loose', name: 'solo' },
];

describe('visibleScopes', () => {
  it('shows an org administrator every tier, sorted, all writable', () => {
    const v = visibleScopes(person({ orgAdmin: true }), ORGS, WORKSPACES, []);
    expect(v.organizations.map((o) => [o.name, o.home_namespace, o.can_write])).toEqual([
      ['acme', 'platform-org-acme', true],
      ['zeta', null, true],
    ]);
    expect(v.workspaces.map((w) => [w.scope_id, w.organization, w.can_write])).toEqual([
      ['loose.solo', null, true],
      ['research.lab', 'acme', true],
      ['sales.crm', 'zeta', true],
    ]);
  });

  it('shows a workspace administrator its namespaces and, read-only, their organizations', () => {
    const v = visibleScopes(person({ workspaceAdminOf: ['sales'] }), ORGS, WORKSPACES, []);
    expect(v.workspaces.map((w) => [w.scope_id, w.can_write])).toEqual([['sales.crm', true]]);
    expect(v.organizations.map((o) => [o.name, o.can_write])).toEqual([['zeta', false]]);
  });

  it('shows anyone else only the tiers above the agents shared with them, read-only', () => {
    const v = visibleScopes(person(), ORGS, WORKSPACES, [
      { namespace: 'research', workspace: 'lab' },
      { namespace: 'default' },
    ]);
    expect(v.workspaces.map((w) => [w.scope_id, w.can_write])).toEqual([['research.lab', false]]);
    expect(v.organizations.map((o) => o.name)).toEqual(['acme']);
  });

  it('shows nothing to someone with no agents and no grants', () => {
    expect(visibleScopes(person(), ORGS, WORKSPACES, [])).toEqual({ organizations: [], workspaces: [] });
  });
});
