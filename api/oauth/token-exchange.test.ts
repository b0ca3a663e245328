import { describe, expect, it } from 'vitest';
import type { DelegationGrant } from '../../crds/generated/types.ts';
import { effectiveManifest } from '../../policy/access-manifest.ts';
import { OAuthError } from './errors.ts';
import { GRANT_TOKEN_EXCHANGE } from './metadata.ts';
import { SubjectTokenLedger } from './subject-ledger.ts';
import {
  chooseGrant,
  exchangeRequest,
  tokenTerms,
  TOKEN_TYPE_ACCESS,
  TOKEN_TYPE_JWT,
  type ExchangeParams,
} from './token-exchange.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const params: ExchangeParams = {
  grant_type: GRANT_TOKEN_EXCHANGE,
  subject_token: 's',
  subject_token_type: TOKEN_TYPE_ACCESS,
  actor_token: 'a',
  actor_token_type: TOKEN_TYPE_JWT,
  audience: 'slack',
};

function grant(
  over: Partial<DelegationGrant['spec']> = {},
  status?: DelegationGrant['status'],
): DelegationGrant {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'DelegationGrant',
    metadata: { namespace: 'ns', name: `g-${Math.random()}` },
    spec: {
      user: 'u@x',
      agent: 'bot',
      service: 'slack',
      scopes: ['chat:read', 'chat:write'],
      grantedAt: new Date(NOW - 60_000).toISOString(),
      expiresAt: new Date(NOW + 3_600_000).toISOString(),
      consentRef: 'c',
      ...over,
    },
    ...(status ? { status } : {}),
  };
}

const d = { user: 'u@x', namespace: 'ns', agent: 'bot', service: 'slack' };

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    return err instanceof OAuthError ? err.code : 'other';
  }
  return undefined;
}

describe('exchangeRequest', () => {
  it('reads the service, scopes and asked lifetime', () => {
    expect(exchangeRequest({ ...params, scope: 'chat:read chat:read', expires_in: '60' })).toEqual({
      subjectToken: 's',
      actorToken: 'a',
      service: 'slack',
      scopes: ['chat:read'],
      ttlSeconds: 60,
    });
    expect(exchangeRequest({ ...params, audience: undefined, resource: 'slack' }).service).toBe('slack');
  });

  it('refuses missing, wrongly typed and conflicting parameters with their codes', () => {
    const cases: [ExchangeParams, string][] = [
      [{ ...params, grant_type: 'client_credentials' }, 'unsupported_grant_type'],
      [{ ...params, subject_token: undefined }, 'invalid_request'],
      [{ ...params, actor_token: '' }, 'invalid_request'],
      [{ ...params, subject_token_type: 'urn:x' }, 'invalid_request'],
      [{ ...params, actor_token_type: TOKEN_TYPE_ACCESS }, 'invalid_request'],
      [{ ...params, requested_token_type: TOKEN_TYPE_JWT }, 'invalid_request'],
      [{ ...params, audience: undefined }, 'invalid_request'],
      [{ ...params, resource: 'github' }, 'invalid_target'],
      [{ ...params, scope: 'a  b' }, 'invalid_scope'],
      [{ ...params, expires_in: '-5' }, 'invalid_request'],
    ];
    for (const [p, code] of cases)
      expect(
        codeOf(() => exchangeRequest(p)),
        JSON.stringify(p),
      ).toBe(code);
  });
});

describe('chooseGrant', () => {
  it('picks the latest-expiring active grant covering the scopes', () => {
    const short = grant({ expiresAt: new Date(NOW + 60_000).toISOString() });
    const long = grant();
    expect(chooseGrant([short, long], d, ['chat:read'], NOW)).toBe(long);
  });

  it('invalid_grant without a grant, or when it is revoked or expired', () => {
    expect(codeOf(() => chooseGrant([], d, undefined, NOW))).toBe('invalid_grant');
    const revoked = grant({}, { phase: 'revoked', revokedTime: new Date(NOW).toISOString() });
    expect(() => chooseGrant([revoked], d, undefined, NOW)).toThrow(/revoked/);
    const expired = grant({ expiresAt: new Date(NOW - 1).toISOString() });
    expect(() => chooseGrant([expired], d, undefined, NOW)).toThrow(/expired/);
    expect(codeOf(() => chooseGrant([grant({ service: 'github' })], d, undefined, NOW))).toBe(
      'invalid_grant',
    );
  });

  it('unauthorized_client when only another agent holds the grant', () => {
    expect(codeOf(() => chooseGrant([grant({ agent: 'other' })], d, undefined, NOW))).toBe(
      'unauthorized_client',
    );
  });

  it('invalid_scope for scopes beyond the grant', () => {
    expect(() => chooseGrant([grant()], d, ['chat:read', 'admin'], NOW)).toThrow(/admin/);
    expect(codeOf(() => chooseGrant([grant()], d, ['admin'], NOW))).toBe('invalid_scope');
  });
});

describe('tokenTerms', () => {
  const open = effectiveManifest();
  const req = { service: 'slack' };

  it('defaults to the grant’s scopes and the platform’s longest token', () => {
    expect(tokenTerms(grant(), open, req, NOW)).toEqual({ scope: 'chat:read chat:write', ttlSeconds: 3600 });
  });

  it('caps the lifetime by the asked one, the grant and the manifest', () => {
    expect(tokenTerms(grant(), open, { ...req, ttlSeconds: 30 }, NOW).ttlSeconds).toBe(30);
    const soon = grant({ expiresAt: new Date(NOW + 90_500).toISOString() });
    expect(tokenTerms(soon, open, req, NOW).ttlSeconds).toBe(90);
    const manifest = effectiveManifest({
      account: { services: [{ service: 'slack', maxDelegationTtl: '5m' }] },
    });
    expect(tokenTerms(grant(), manifest, { ...req, ttlSeconds: 9999 }, NOW).ttlSeconds).toBe(300);
  });

  it('invalid_target for a service the manifest refuses, invalid_scope for a scope it refuses', () => {
    const manifest = effectiveManifest({
      account: { services: [{ service: 'github' }, { service: 'slack', deniedScopes: ['chat:write'] }] },
    });
    expect(codeOf(() => tokenTerms(grant(), manifest, { service: 'mail' }, NOW))).toBe('invalid_target');
    expect(codeOf(() => tokenTerms(grant(), manifest, req, NOW))).toBe('invalid_scope');
    expect(tokenTerms(grant(), manifest, { ...req, scopes: ['chat:read'] }, NOW).scope).toBe('chat:read');
  });
});

describe('SubjectTokenLedger', () => {
  it('binds a token to the first agent until it expires', () => {
    const ledger = new SubjectTokenLedger();
    expect(ledger.claim('k', 'a', 100, 10)).toBe(true);
    expect(ledger.claim('k', 'a', 100, 20)).toBe(true);
    expect(ledger.claim('k', 'b', 100, 30)).toBe(false);
    expect(ledger.claim('k', 'b', 200, 100)).toBe(true);
  });

  it('keys by issuer and jti, else by a digest of the token', () => {
    expect(SubjectTokenLedger.keyOf('https://idp', 'j1', 'tok')).toBe('https://idp j1');
    expect(SubjectTokenLedger.keyOf('https://idp', undefined, 'tok')).toMatch(/^sha256:/);
    expect(SubjectTokenLedger.keyOf('https://idp', undefined, 'tok')).not.toContain('tok');
  });

  it('stays within its capacity, dropping expired entries first', () => {
    const ledger = new SubjectTokenLedger(10);
    for (let i = 0; i < 10; i++) ledger.claim(`k${i}`, 'a', i < 5 ? 5 : 100, 0);
    ledger.claim('new', 'a', 100, 50);
    expect(ledger.size).toBe(6);
    expect(ledger.claim('k7', 'b', 100, 50)).toBe(false);
  });
});
