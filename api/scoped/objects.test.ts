import { describe, expect, it } from 'vitest';
import { createKeyring, decrypt, generateKey } from '../../base/crypto/envelope.ts';
import { credentialObject, credentialView, materialContext, materialSecret, scopedName } from './objects.ts';

const CANARY = 'canary-7f3a9c-DO-NOT-LEAK';
const place = { scope: 'workspace' as const, name: 'ws', namespace: 'team' };

describe('scoped credential objects', () => {
  const cred = credentialObject(place, {
    service: 'GitHub',
    type: 'api_key',
    sharing_mode: 'enforce',
    hasMaterial: true,
  });
  cred.metadata.uid = 'uid-1';

  it('names a credential from its tier and service, stably, as a valid object name', () => {
    expect(cred.metadata.name).toMatch(/^cred-github-[0-9a-f]{12}$/);
    expect(
      credentialObject(place, {
        service: 'GitHub',
        type: 'api_key',
        sharing_mode: 'inherit',
        hasMaterial: false,
      }).metadata.name,
    ).toBe(cred.metadata.name);
    expect(scopedName('cred', { ...place, name: 'other' }, 'GitHub')).not.toBe(cred.metadata.name);
    expect(scopedName('tool', place, 'x'.repeat(300)).length).toBeLessThanOrEqual(63);
  });

  it('encrypts the material into a Secret owned by the credential, bound to that Secret', () => {
    const keyring = createKeyring('k1', { k1: generateKey() });
    const secret = materialSecret(cred, keyring, CANARY);
    expect(JSON.stringify(secret)).not.toContain(CANARY);
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ScopedCredential', uid: 'uid-1' });
    const record = secret.stringData?.material ?? '';
    expect(decrypt(keyring, record, materialContext('team', cred.metadata.name ?? '')).toString()).toBe(
      CANARY,
    );
    expect(() => decrypt(keyring, record, materialContext('elsewhere', cred.metadata.name ?? ''))).toThrow();
  });

  it('shows metadata only, with the workspace scope id as <namespace>.<workspace>', () => {
    const view = credentialView(cred);
    expect(view).toMatchObject({
      id: `team.${cred.metadata.name}`,
      scope: 'workspace',
      scope_id: 'team.ws',
      service: 'GitHub',
      sharing_mode: 'enforce',
      auth_status: 'connected',
    });
    expect(Object.keys(view)).not.toContain('secret_ref');
  });
});
