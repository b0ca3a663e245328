import { describe, expect, it } from 'vitest';
import type { PlatformAgent } from '../agent/types.ts';
import { SVID_FILE, credentialsCondition, svidRenewalAt, svidSecret } from './svid.ts';

const agent: PlatformAgent = {
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformAgent',
  metadata: { name: 'bot', namespace: 'team', uid: 'u-1' },
  spec: {},
};
const want = { spiffeId: 'spiffe://platform.local/agent/team.bot', keyId: 'k1' };
const policy = { ttlSeconds: 3600, audience: 'https://verifier.example' };
const material = (expires: Date) => ({
  jwt: 'j',
  certPem: 'c',
  keyPem: 'k',
  bundlePem: 'b',
  jwks: '{}',
  expires,
});

describe('the SVID Secret', () => {
  it('holds the five files, owned by the agent, and says what signed it', () => {
    const s = svidSecret(agent, want, material(new Date('2026-11-24T20:00:00Z')));
    expect(s.metadata?.name).toBe('agent-bot-svid');
    expect(Object.keys(s.stringData ?? {}).sort()).toEqual(Object.values(SVID_FILE).sort());
    expect(s.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'PlatformAgent',
      name: 'bot',
      uid: 'u-1',
    });
    expect(s.metadata?.annotations?.['platform.io/svid-key-id']).toBe('k1');
  });

  it('is due at half its life, and at once when missing, for another SPIFFE ID or after a key rotation', () => {
    const expires = new Date(Date.now() + 3_600_000);
    const s = svidSecret(agent, want, material(expires));
    expect(svidRenewalAt(s, want, policy)).toBe(expires.getTime() - 1_800_000);
    expect(svidRenewalAt(undefined, want, policy)).toBe(0);
    expect(svidRenewalAt(s, { ...want, keyId: 'k2' }, policy)).toBe(0);
    expect(svidRenewalAt(s, { ...want, spiffeId: 'spiffe://platform.local/agent/team.other' }, policy)).toBe(
      0,
    );
  });

  it('makes CredentialsReady say whether the client obtained a token with its SVID', () => {
    const s = svidSecret(agent, want, material(new Date()));
    expect(credentialsCondition('c-1', undefined)).toMatchObject({ status: 'False', reason: 'SvidPending' });
    expect(credentialsCondition('c-1', s)).toMatchObject({ status: 'False', reason: 'SvidPending' });
    const refused = {
      ...s,
      metadata: { ...s.metadata, annotations: { 'platform.io/token-check': 'invalid_client' } },
    };
    expect(credentialsCondition('c-1', refused)).toMatchObject({ status: 'False', reason: 'TokenRefused' });
    expect(credentialsCondition('c-1', refused).message).toContain('invalid_client');
    const ok = { ...s, metadata: { ...s.metadata, annotations: { 'platform.io/token-check': 'ok' } } };
    expect(credentialsCondition('c-1', ok)).toMatchObject({ status: 'True', reason: 'TokenObtained' });
  });
});
