import { describe, expect, it } from 'vitest';
import type { AuditorPolicy } from '../../crds/generated/types.ts';
import { effectivePolicyId } from './policy-id.ts';

const policy = (
  namespace: string,
  name: string,
  scope: 'org' | 'workspace',
  scopeId: string,
): AuditorPolicy => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'AuditorPolicy',
  metadata: { namespace, name },
  spec: { scope, scopeId },
});

const member = { metadata: { namespace: 'team' }, spec: { workspace: 'research' } };
const standalone = { metadata: { namespace: 'team' }, spec: {} };
const all = [
  policy('acme-home', 'org-baseline', 'org', 'acme'),
  policy('team', 'team-preset', 'workspace', 'team'),
  policy('team', 'research-strict', 'workspace', 'research'),
  policy('team', 'research-b', 'workspace', 'research'),
  policy('other', 'research-elsewhere', 'workspace', 'research'),
];

describe('effectivePolicyId', () => {
  it("picks the workspace's own policy in the agent's namespace, lowest id on a tie", () => {
    expect(effectivePolicyId(member, 'acme', all)).toEqual({
      id: 'team.research-b',
      source: 'the AuditorPolicy of workspace research',
    });
  });

  it('falls back to the namespace policy apply-preset writes, then to the organization policy', () => {
    expect(effectivePolicyId(standalone, undefined, all).id).toBe('team.team-preset');
    const orgOnly = all.filter((p) => p.spec.scope === 'org');
    expect(effectivePolicyId(member, 'acme', orgOnly).id).toBe('acme-home.org-baseline');
    expect(effectivePolicyId(member, 'globex', orgOnly).id).toBeUndefined();
  });

  it('names no policy (the Gateway applies the built-in default) when none governs the agent', () => {
    expect(effectivePolicyId(standalone, undefined, [])).toEqual({
      source: 'no AuditorPolicy governs the agent: the built-in default',
    });
    const leaving = { ...all[2]!, metadata: { ...all[2]!.metadata, deletionTimestamp: new Date() } };
    expect(effectivePolicyId(member, undefined, [leaving]).id).toBeUndefined();
  });
});
