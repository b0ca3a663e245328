import { describe, expect, it } from 'vitest';
import { createKeyring, decrypt, generateKey } from '../../base/crypto/envelope.ts';
import type { ScopedCredential } from '../../crds/generated/types.ts';
import { needsRefresh, OAUTH_KEY, REFRESH_AHEAD_MS, tokenSecret } from './oauth-refresh.ts';

const cred: ScopedCredential = {
  apiVersion: 'platform.io/v1alpha1',
  kind: 'ScopedCredential',
  metadata: { name: 'cred-docs', namespace: 'ns', uid: 'u1' },
  spec: {
    scope: 'workspace',
    scopeId: 'ws',
    service: 'docs',
    type: 'oauth_token',
    secretRef: { name: 'cred-docs', key: 'material' },
  },
};

describe('needsRefresh', () => {
  const now = 10_000_000;
  it('refreshes a token with a refresh token that expires within a minute, or has expired', () => {
    expect(needsRefresh({ refresh_token: 'r', expires_at: now + REFRESH_AHEAD_MS }, now)).toBe(true);
    expect(needsRefresh({ refresh_token: 'r', expires_at: now - 1 }, now)).toBe(true);
  });
  it('leaves a token alone that lives longer, has no expiry or no refresh token', () => {
    expect(needsRefresh({ refresh_token: 'r', expires_at: now + REFRESH_AHEAD_MS + 1 }, now)).toBe(false);
    expect(needsRefresh({ refresh_token: 'r' }, now)).toBe(false);
    expect(needsRefresh({ expires_at: now - 1 }, now)).toBe(false);
    expect(needsRefresh(undefined, now)).toBe(false);
  });
});

describe('tokenSecret', () => {
  const keyring = createKeyring('k1', { k1: generateKey() });
  it('encrypts the access token as the material and the refresh token beside it, each bound to its key', () => {
    const s = tokenSecret(cred, keyring, { access_token: 'A', refresh_token: 'R', expires_at: 5 });
    expect(s.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ScopedCredential', uid: 'u1' });
    const data = s.stringData ?? {};
    expect(JSON.stringify(data)).not.toMatch(/"A"|"R"/);
    expect(decrypt(keyring, data.material ?? '', 'ns/cred-docs/material').toString()).toBe('A');
    const extra = JSON.parse(
      decrypt(keyring, data[OAUTH_KEY] ?? '', 'ns/cred-docs/oauth').toString(),
    ) as object;
    expect(extra).toEqual({ refresh_token: 'R', expires_at: 5 });
    expect(() => decrypt(keyring, data[OAUTH_KEY] ?? '', 'ns/cred-docs/material')).toThrow();
  });
  it('stores the material alone when the provider gave neither refresh token nor expiry', () => {
    expect(Object.keys(tokenSecret(cred, keyring, { access_token: 'A' }).stringData ?? {})).toEqual([
      'material',
    ]);
  });
});
