import { describe, expect, it } from 'vitest';
import { effectiveManifest } from '../../policy/access-manifest.ts';
import { CedarAccess } from './cedar-access.ts';
import type { AccessQuestion, EgressBundle, EgressRule } from '../../contract/egress.ts';

const rule: EgressRule = {
  destination: 'api.example.com',
  injectionMethod: 'sidecar',
  approval: 'auto',
  service: 'svc',
  source: 'agent',
};
const q = (over: Partial<AccessQuestion> = {}): AccessQuestion => ({
  host: 'api.example.com',
  port: 443,
  action: 'read',
  method: 'GET',
  user: '',
  rule,
  ...over,
});
const bundleOf = (cedar: string, version = cedar): EgressBundle => ({
  agentId: 'ns.a',
  version,
  rules: [rule],
  mcpServers: [],
  cedar,
});

describe('CedarAccess', () => {
  it('refuses everything until the bundle is known, and when the policy does not parse', () => {
    let bundle: EgressBundle | undefined = undefined;
    const access = new CedarAccess({ agentId: 'ns.a', bundle: () => bundle, manifest: () => undefined });
    expect(access.decide(q())).toMatchObject({ allow: false, reason: /not been read/ });
    bundle = bundleOf('permit(principal, action, resource');
    expect(access.decide(q())).toMatchObject({ allow: false, reason: /does not parse/ });
  });

  it('decides on the attributes of contract B and names the forbidding policy', () => {
    const cedar = `
      @id("svc-users") forbid(principal, action, resource) when { resource.service == "svc" && resource.routed } unless { ["alice"].contains(context.user) };
      @id("all") permit(principal == Egress::Agent::"ns.a", action, resource) when { resource.port == 443 && context.method != "TRACE" };`;
    const access = new CedarAccess({
      agentId: 'ns.a',
      bundle: () => bundleOf(cedar),
      manifest: () => undefined,
    });
    expect(access.decide(q({ user: 'alice' }))).toEqual({ allow: true });
    expect(access.decide(q({ user: 'bob' }))).toMatchObject({
      allow: false,
      reason: /forbidden by svc-users/,
    });
    expect(access.decide(q({ user: 'bob', rule: undefined }))).toEqual({ allow: true });
    expect(access.decide(q({ user: 'alice', port: 80 }))).toMatchObject({
      allow: false,
      reason: /no policy permits/,
    });
  });

  it('picks up a new policy when the bundle version changes', () => {
    let bundle = bundleOf('permit(principal, action, resource);', 'v1');
    const access = new CedarAccess({ agentId: 'ns.a', bundle: () => bundle, manifest: () => undefined });
    expect(access.decide(q())).toEqual({ allow: true });
    bundle = bundleOf('forbid(principal, action, resource);', 'v2');
    expect(access.decide(q()).allow).toBe(false);
  });

  it('needs an approval for high-risk actions, owner rules and what the manifest names', () => {
    const manifest = effectiveManifest({ actions: { approvalRequired: ['read'] } } as never, undefined);
    const plain = new CedarAccess({ agentId: 'ns.a', bundle: () => undefined, manifest: () => undefined });
    expect(plain.needsApproval(q())).toBe(false);
    expect(plain.needsApproval(q({ action: 'delete' }))).toBe(true);
    expect(plain.needsApproval(q({ action: 'write' }))).toBe(true);
    expect(plain.needsApproval(q({ rule: { ...rule, approval: 'owner' } }))).toBe(true);
    const strict = new CedarAccess({ agentId: 'ns.a', bundle: () => undefined, manifest: () => manifest });
    expect(strict.needsApproval(q())).toBe(true);
  });
});
