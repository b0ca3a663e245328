import { describe, expect, it } from 'vitest';
import { createKeyring, encrypt, generateKey } from '../../base/crypto/envelope.ts';
import type { Principal } from '../auth/principal.ts';
import type { BundleRule } from './bundle.ts';
import { assertAgentBoundKey, audiencePermitted, openMaterial, assertNotSuspended } from './secrets.ts';

const principal = (p: Partial<Principal>): Principal => ({
  subject: 'x',
  method: 'api_key',
  orgAdmin: false,
  workspaceAdminOf: [],
  ...p,
});

describe('assertAgentBoundKey', () => {
  it('admits only a Gateway key bound to the agent', () => {
    expect(() =>
      assertAgentBoundKey(principal({ gateway: true, gatewayAgents: ['ns.a'] }), 'ns.a'),
    ).not.toThrow();
    for (const p of [
      principal({ gateway: true, gatewayAgents: ['ns.b'] }),
      principal({ gateway: true, gatewayWorkspaces: ['ns'] }),
      principal({ gateway: true }),
      principal({ orgAdmin: true }),
    ])
      expect(() => assertAgentBoundKey(p, 'ns.a')).toThrow(expect.objectContaining({ status: 403 }));
  });
});

describe('audiencePermitted', () => {
  const rule = (over: Partial<BundleRule>): BundleRule => ({
    destination: 'x.test',
    injection_method: 'client_credentials',
    credential_ref: null,
    ttl_seconds: null,
    approval: 'auto',
    service: 'x',
    token_endpoint: 'https://as.x.test/token',
    client_id: 'c',
    audience: 'https://as.x.test',
    source: 'install:x',
    ...over,
  });

  it('permits the platform issuer, its token endpoint and a client_credentials rule’s endpoint and audience', () => {
    const rules = [
      rule({}),
      rule({ injection_method: 'sidecar', token_endpoint: 'https://side.test/token' }),
    ];
    for (const a of [
      'https://verifier.test',
      'https://verifier.test/oauth/token',
      'https://as.x.test/token',
      'https://as.x.test',
    ])
      expect(audiencePermitted(a, 'https://verifier.test', rules), a).toBe(true);
    for (const a of ['https://side.test/token', 'https://evil.test', 'https://verifier.test/'])
      expect(audiencePermitted(a, 'https://verifier.test', rules), a).toBe(false);
  });
});

describe('openMaterial', () => {
  const keyring = createKeyring('k1', { k1: generateKey() });

  it('decrypts what the API stored, for the place it was stored at only', () => {
    const stored = encrypt(keyring, 'sk-secret', 'ns/cred/material');
    expect(openMaterial(keyring, stored, 'ns/cred/material')).toBe('sk-secret');
    expect(() => openMaterial(keyring, stored, 'ns/other/material')).toThrow(
      expect.objectContaining({ status: 409, code: 'credential_unreadable' }),
    );
  });

  it('serves a hand-written Secret’s value as it is', () => {
    expect(openMaterial(keyring, 'plain-token', 'ns/cred/material')).toBe('plain-token');
  });
});

describe('assertNotSuspended', () => {
  const owner = { role: 'Owner' };
  it('hands out secrets only to an agent with an Owner that is not suspended', () => {
    expect(() => assertNotSuspended({ spec: { owners: [owner] } })).not.toThrow();
    expect(() => assertNotSuspended({ spec: { owners: [owner], suspend: true } })).toThrow(
      expect.objectContaining({ status: 409, code: 'agent_suspended' }),
    );
    expect(() => assertNotSuspended({ spec: { owners: [{ role: 'Editor' }] } })).toThrow(/no Owner/);
  });
});
