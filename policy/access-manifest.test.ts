import { describe, expect, it } from 'vitest';
import {
  PLATFORM_MAX_DELEGATION_TTL_MS,
  accountDecision,
  actionRuling,
  dataPermitted,
  effectiveManifest,
  hostPermitted,
  toolPermitted,
  type AccessManifest,
} from './access-manifest.ts';

const H = 3_600_000;
const org: AccessManifest = {
  account: {
    services: [
      { service: 'slack', allowedScopes: ['chat:read', 'chat:write', 'files:read'], maxDelegationTtl: '8h' },
      { service: 'github', deniedScopes: ['admin:org'], consentRequired: false },
    ],
  },
  tools: { denied: ['shell'] },
  network: { allowedHosts: ['*.example.com', 'api.slack.com'] },
  data: { deniedClasses: ['pii'] },
  actions: { approvalRequired: ['deploy'] },
};

describe('accountDecision', () => {
  const m = effectiveManifest(org);

  it('permits allowed scopes within the TTL and says the maximum', () => {
    expect(accountDecision(m, 'slack', ['chat:read'], 2 * H)).toEqual({
      permitted: true,
      scopes: ['chat:read'],
      maxTtlMs: 8 * H,
      consentRequired: true,
    });
  });

  it('refuses a scope not allowed, a denied one, a service not listed and a TTL over the maximum', () => {
    expect(accountDecision(m, 'slack', ['chat:read', 'admin'])).toMatchObject({
      permitted: false,
      code: 'scope_not_permitted',
      reason: expect.stringContaining('admin') as unknown,
    });
    expect(accountDecision(m, 'github', ['repo', 'admin:org'])).toMatchObject({
      code: 'scope_not_permitted',
    });
    expect(accountDecision(m, 'jira', ['read'])).toMatchObject({ code: 'service_not_permitted' });
    expect(accountDecision(m, 'slack', ['chat:read'], 9 * H)).toMatchObject({ code: 'ttl_too_long' });
  });

  it('lets a service without allowedScopes delegate any scope not denied, up to the platform maximum', () => {
    expect(accountDecision(m, 'github', ['repo'])).toMatchObject({
      permitted: true,
      maxTtlMs: PLATFORM_MAX_DELEGATION_TTL_MS,
      consentRequired: false,
    });
  });

  it('without any account domain, bounds delegation by the platform only', () => {
    expect(accountDecision(effectiveManifest(), 'anything', ['x'])).toMatchObject({
      permitted: true,
      maxTtlMs: PLATFORM_MAX_DELEGATION_TTL_MS,
      consentRequired: true,
    });
  });
});

describe('effectiveManifest: a workspace narrows, never widens', () => {
  const ws: AccessManifest = {
    account: {
      services: [
        { service: 'slack', allowedScopes: ['chat:read', 'admin'], maxDelegationTtl: '30m' },
        { service: 'jira', allowedScopes: ['read'] },
      ],
    },
    tools: { allowed: ['github', 'shell'] },
    network: { allowedHosts: ['api.example.com', 'evil.test'] },
    data: { allowedClasses: ['source-code', 'pii'] },
    actions: { denied: ['delete'] },
  };
  const m = effectiveManifest(org, ws);

  it('keeps only scopes both tiers allow, the shorter TTL, services both list', () => {
    expect(accountDecision(m, 'slack', ['chat:read'])).toMatchObject({
      permitted: true,
      maxTtlMs: 30 * 60_000,
    });
    expect(accountDecision(m, 'slack', ['admin'])).toMatchObject({ code: 'scope_not_permitted' });
    expect(accountDecision(m, 'slack', ['chat:write'])).toMatchObject({ code: 'scope_not_permitted' });
    expect(accountDecision(m, 'jira', ['read'])).toMatchObject({ code: 'service_not_permitted' });
    expect(accountDecision(m, 'github', ['repo'])).toMatchObject({ code: 'service_not_permitted' });
  });

  it('an org without an account domain is narrowed by the workspace one', () => {
    const only = effectiveManifest({ tools: {} }, ws);
    expect(accountDecision(only, 'jira', ['read'])).toMatchObject({ permitted: true });
    expect(accountDecision(only, 'github', ['repo'])).toMatchObject({ code: 'service_not_permitted' });
  });

  it('consent is required if either tier requires it', () => {
    const a = effectiveManifest(
      { account: { services: [{ service: 'x', consentRequired: false }] } },
      { account: { services: [{ service: 'x' }] } },
    );
    expect(accountDecision(a, 'x', ['s'])).toMatchObject({ consentRequired: true });
  });

  it('tools: denied by the org stays denied though the workspace allows it', () => {
    expect(toolPermitted(m, 'github')).toBe(true);
    expect(toolPermitted(m, 'shell')).toBe(false);
    expect(toolPermitted(m, 'jira')).toBe(false);
    expect(toolPermitted(effectiveManifest(org), 'jira')).toBe(true);
  });

  it('network: a host must be in both tiers; wildcards match subdomains only', () => {
    expect(hostPermitted(m, 'API.example.com')).toBe(true);
    expect(hostPermitted(m, 'evil.test')).toBe(false);
    expect(hostPermitted(effectiveManifest(org), 'a.b.example.com')).toBe(true);
    expect(hostPermitted(effectiveManifest(org), 'example.com')).toBe(false);
    expect(hostPermitted(effectiveManifest(org), 'badexample.com')).toBe(false);
  });

  it('data: denied classes win over allowed ones', () => {
    expect(dataPermitted(m, 'source-code')).toBe(true);
    expect(dataPermitted(m, 'pii')).toBe(false);
    expect(dataPermitted(m, 'financial')).toBe(false);
  });

  it('actions: high-risk ones always need approval; tiers add more or deny', () => {
    expect(actionRuling(m, 'write')).toBe('approval_required');
    expect(actionRuling(m, 'deploy')).toBe('approval_required');
    expect(actionRuling(m, 'delete')).toBe('denied');
    expect(actionRuling(m, 'read')).toBe('allowed');
  });
});
