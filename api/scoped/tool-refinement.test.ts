import { describe, expect, it } from 'vitest';
import type { ScopedCredential, ScopedToolInstall } from '../../crds/generated/types.ts';
import type { ToolEnforcement, ToolRuling } from '../catalog/tool-cascade.ts';
import { resolveCredentials, type CascadeTiers } from './credential-cascade.ts';
import { effectiveTools, workspaceToolRefusal } from './tool-refinement.ts';

const TIERS: CascadeTiers = {
  org: { name: 'acme', namespace: 'acme-home' },
  workspace: { name: 'ws', namespace: 'team' },
};

function tool(
  scope: 'org' | 'workspace',
  name: string,
  enforcement: ToolEnforcement,
  extra: Partial<ScopedToolInstall['spec']> = {},
): ScopedToolInstall {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'ScopedToolInstall',
    metadata: { name: `${scope}-${name}`, namespace: scope === 'org' ? 'acme-home' : 'team' },
    spec: { scope, scopeId: scope === 'org' ? 'acme' : 'ws', tool: name, enforcement, ...extra },
  };
}

const orgRuling = (enforcement: ToolEnforcement): ToolRuling => ({
  tool: 'jira',
  enforcement,
  scope: 'org',
  scopeId: 'acme',
});

const noCredentials = resolveCredentials([], TIERS);

describe('a workspace refining the org tool policy', () => {
  it('may set anything under an org available, or where the org says nothing', () => {
    for (const wanted of ['available', 'required', 'blocked'] as const) {
      expect(workspaceToolRefusal(orgRuling('available'), wanted)).toBeUndefined();
      expect(workspaceToolRefusal(undefined, wanted)).toBeUndefined();
    }
  });

  it('cannot lift an org block', () => {
    expect(workspaceToolRefusal(orgRuling('blocked'), 'available')?.code).toBe('tool_blocked');
    expect(workspaceToolRefusal(orgRuling('blocked'), 'required')?.code).toBe('tool_blocked');
    expect(workspaceToolRefusal(orgRuling('blocked'), 'blocked')).toBeUndefined();
  });

  it('cannot block or loosen a tool the org requires', () => {
    expect(workspaceToolRefusal(orgRuling('required'), 'blocked')).toMatchObject({
      code: 'tool_required',
      detail: expect.stringContaining('required by organization acme'),
    });
    expect(workspaceToolRefusal(orgRuling('required'), 'available')?.code).toBe('tool_required');
    expect(workspaceToolRefusal(orgRuling('required'), 'required')).toBeUndefined();
  });
});

describe('the effective tools of an agent', () => {
  it('lists each ruled tool with its state, tier and each tier’s own ruling', () => {
    const items = effectiveTools(
      [
        tool('org', 'jira', 'available'),
        tool('workspace', 'jira', 'required'),
        tool('workspace', 'wiki', 'available'),
      ],
      TIERS,
      noCredentials,
    );
    expect(items.map((i) => [i.tool, i.state, i.scope, i.scope_id])).toEqual([
      ['jira', 'required', 'workspace', 'team.ws'],
      ['wiki', 'available', 'workspace', 'team.ws'],
    ]);
    expect(items[0]?.tiers).toEqual({ org: 'available', workspace: 'required' });
  });

  it('resolves an org requirement the workspace blocks (written past the API) to blocked, and says so', () => {
    const [jira] = effectiveTools(
      [tool('org', 'jira', 'required'), tool('workspace', 'jira', 'blocked')],
      TIERS,
      noCredentials,
    );
    expect(jira).toMatchObject({ state: 'blocked', scope: 'workspace', auth_status: null });
    expect(jira?.conflict).toContain('blocked holds');
  });

  it('reports the auth status of the credential the cascade gives the tool’s service', () => {
    const cred: ScopedCredential = {
      apiVersion: 'platform.io/v1alpha1',
      kind: 'ScopedCredential',
      metadata: { name: 'c', namespace: 'acme-home' },
      spec: { scope: 'org', scopeId: 'acme', service: 'jira', type: 'api_key', sharingMode: 'enforce' },
      status: { authStatus: 'expired' },
    };
    const items = effectiveTools(
      [
        tool('org', 'jira', 'required', { service: 'jira' }),
        tool('org', 'wiki', 'available', { service: 'wiki' }),
      ],
      TIERS,
      resolveCredentials([cred], TIERS),
    );
    expect(items.map((i) => i.auth_status)).toEqual(['expired', 'not_connected']);
  });
});
