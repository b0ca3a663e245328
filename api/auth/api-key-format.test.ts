import { describe, expect, it } from 'vitest';
import { mintRequestFor } from '../routes/api-keys.ts';
import type { Principal } from './principal.ts';
import { hashKey, hashMatches, keyIdOf, mintKey } from './api-key-format.ts';

const p = (extra: Partial<Principal> = {}): Principal => ({
  subject: 'me',
  method: 'api_key',
  orgAdmin: false,
  workspaceAdminOf: [],
  ...extra,
});

describe('API keys', () => {
  it('carry their id and match only their own hash', () => {
    const k = mintKey();
    expect(keyIdOf(k.key)).toBe(k.id);
    expect(hashMatches(k.key, k.sha256)).toBe(true);
    expect(hashMatches(mintKey().key, k.sha256)).toBe(false);
    expect(hashKey(k.key)).toBe(k.sha256);
    expect(keyIdOf('pk_nothex_x')).toBeUndefined();
  });

  it('are minted for oneself unless an org administrator asks', () => {
    expect(mintRequestFor(p(), {}, 0)).toMatchObject({ subject: 'me', role: 'user', workspaces: [] });
    expect(() => mintRequestFor(p(), { role: 'org_admin' }, 0)).toThrow(/org administrator/);
    expect(() => mintRequestFor(p(), { subject: 'you' }, 0)).toThrow(/org administrator/);
    expect(
      mintRequestFor(
        p({ orgAdmin: true }),
        { subject: 'you', role: 'workspace_admin', workspaces: ['ns'] },
        0,
      ),
    ).toMatchObject({ subject: 'you', workspaces: ['ns'] });
    expect(() => mintRequestFor(p(), { expires_at: '2000-01-01T00:00:00Z' }, Date.now())).toThrow(/future/);
    const gateway = (workspaces?: string[]) =>
      mintRequestFor(p({ orgAdmin: true }), { role: 'gateway', ...(workspaces ? { workspaces } : {}) }, 0);
    expect(gateway(['ns'])).toMatchObject({ role: 'gateway', workspaces: ['ns'] });
    expect(gateway()).toMatchObject({ role: 'gateway', workspaces: [] });
    expect(mintRequestFor(p(), { workspaces: ['ns'] }, 0).workspaces).toEqual([]);
  });
});
