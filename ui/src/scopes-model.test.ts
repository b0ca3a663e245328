import { describe, expect, it } from 'vitest';
import { noneWords, targetOf, tierOptions, type ScopesView } from './scopes-model.ts';

const SCOPES: ScopesView = {
  organizations: [
    { name: 'acme', home_namespace: 'platform-org-acme', can_write: true },
    { name: 'zeta', home_namespace: null, can_write: false },
  ],
  workspaces: [
    {
      namespace: 'default',
      name: 'research',
      scope_id: 'default.research',
      organization: 'acme',
      can_write: true,
    },
    { namespace: 'loose', name: 'solo', scope_id: 'loose.solo', organization: null, can_write: false },
  ],
};

describe('tierOptions', () => {
  it('lists organizations, marking the ones the person may only read', () => {
    expect(tierOptions('org', SCOPES, [])).toEqual([
      { value: 'acme', label: 'acme', canWrite: true },
      { value: 'zeta', label: 'zeta (read only)', canWrite: false },
    ]);
  });

  it('lists workspaces as namespace/name with their organization', () => {
    expect(tierOptions('workspace', SCOPES, []).map((o) => [o.value, o.label])).toEqual([
      ['default/research', 'default/research · acme'],
      ['loose/solo', 'loose/solo (read only)'],
    ]);
  });

  it('lists agents by id', () => {
    expect(tierOptions('agent', SCOPES, ['default.bot']).map((o) => o.value)).toEqual(['default.bot']);
  });
});

describe('targetOf', () => {
  it('turns a picked value into the target of that tier', () => {
    expect(targetOf('org', 'acme')).toEqual({ scope: 'org', organization: 'acme' });
    expect(targetOf('workspace', 'default/research')).toEqual({
      scope: 'workspace',
      namespace: 'default',
      workspace: 'research',
    });
    expect(targetOf('agent', 'default.bot')).toEqual({ scope: 'agent', agent_id: 'default.bot' });
  });

  it('refuses an empty or malformed value', () => {
    expect(targetOf('org', '')).toBeUndefined();
    expect(targetOf('workspace', 'default')).toBeUndefined();
    expect(targetOf('workspace', 'a/b/c')).toBeUndefined();
  });

  it('says in words when a tier has nothing to pick', () => {
    expect(noneWords('workspace')).toMatch(/no workspace/);
  });
});
