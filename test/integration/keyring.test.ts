// The key-encryption keyring kept in a Secret: created with one key on first
// use, shared by every replica (concurrent first starts agree), and readable
// after a rotation written into the Secret.
import { describe, expect, it } from 'vitest';
import { decrypt, encrypt, generateKey } from '../../base/crypto/envelope.ts';
import { keyringFromSecret } from '../../base/crypto/keyring-source.ts';
import { k8s } from '../../base/kube.ts';
import { kubeConfig, useNamespace } from './harness.ts';

const ns = useNamespace('keyring');

describe('keyring Secret', () => {
  it('is created once and shared by replicas that start together', async () => {
    const kc = kubeConfig();
    const rings = await Promise.all([1, 2, 3].map(() => keyringFromSecret(kc, ns.name, 'platform-keyring')));
    const ids = new Set(rings.map((r) => r.activeKeyId));
    expect(ids.size).toBe(1);
    const record = encrypt(rings[0]!, 'oauth-client-secret', `${ns.name}/agent/secret`);
    expect(decrypt(rings[2]!, record, `${ns.name}/agent/secret`).toString()).toBe('oauth-client-secret');
  });

  it('keeps old records readable after a key is added and made active in the Secret', async () => {
    const kc = kubeConfig();
    const before = await keyringFromSecret(kc, ns.name, 'platform-keyring');
    const record = encrypt(before, 'v', 'ctx');
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const secret = await core.readNamespacedSecret({ namespace: ns.name, name: 'platform-keyring' });
    secret.data = {
      ...secret.data,
      active: Buffer.from('k2').toString('base64'),
      k2: Buffer.from(generateKey().toString('base64')).toString('base64'),
    };
    await core.replaceNamespacedSecret({ namespace: ns.name, name: 'platform-keyring', body: secret });
    const after = await keyringFromSecret(kc, ns.name, 'platform-keyring');
    expect(after.activeKeyId).toBe('k2');
    expect(decrypt(after, record, 'ctx').toString()).toBe('v');
  });
});
