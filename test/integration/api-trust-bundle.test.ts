// The trust bundle: served without credentials, it holds the public key that
// verifies an SVID signed with the key stored in the Secret; after a rotation
// both keys are in it; no private key material ever.
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueJwtSvid, verifyJwtSvid } from '../../base/identity/jwt-svid.ts';
import { maintainTrustKeys, readTrustKeys } from '../../base/identity/key-secret.ts';
import { signingKeyOf, type SigningKey, type TrustBundle } from '../../base/identity/trust-keys.ts';
import { issueX509Svid } from '../../base/identity/x509-svid.ts';
import { k8s } from '../../base/kube.ts';
import { trustKeyPolicy } from '../../api/identity/trust-bundle.ts';
import { DEFAULT_NAME } from '../../contract/kube.ts';
import { useApi, type Reply } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';

const TD = 'bundle.test';
const ns = useNamespace('api-trust-bundle');
const fx = useApi(ns, () => ({ PLATFORM_TRUST_DOMAIN: TD }));
const ref = () => ({ namespace: ns.name, name: DEFAULT_NAME.trustKeySecret });
const core = () => kubeConfig().makeApiClient(k8s.CoreV1Api);
const SUB = `spiffe://${TD}/agent/ns.alice`;

const kidsOf = (r: Reply): string[] =>
  (r.body as unknown as TrustBundle).jwt_authorities.keys.map((k) => String(k.kid)).sort();

async function storedSigningKey(): Promise<SigningKey> {
  const keys = await readTrustKeys(core(), ref());
  return (await signingKeyOf(keys))!;
}

function expectNoPrivateMaterial(r: Reply): void {
  const bundle = r.body as unknown as TrustBundle;
  for (const jwk of bundle.jwt_authorities.keys) expect(jwk).not.toHaveProperty('d');
  expect(JSON.stringify(r.body)).not.toMatch(/PRIVATE KEY|"d":/);
}

describe('GET /v1/trust-bundle', () => {
  it('serves, without credentials, the public key that verifies an SVID of the stored key', async () => {
    const r = await fx.until('/v1/trust-bundle', (x) => x.status === 200 && kidsOf(x).length === 1);
    const anonymous = await fx.call('GET', '/v1/trust-bundle');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({ trust_domain: TD, refresh_hint: 300 });
    expectNoPrivateMaterial(anonymous);
    const key = await storedSigningKey();
    expect(kidsOf(r)).toEqual([key.kid]);
    const token = await issueJwtSvid({ spiffeId: SUB, audience: 'svc', ttlSeconds: 60, key });
    const bundle = anonymous.body as unknown as TrustBundle;
    const verified = await verifyJwtSvid(token, {
      bundle: bundle.jwt_authorities,
      audience: 'svc',
      trustDomain: TD,
    });
    expect(verified).toMatchObject({ ok: true, spiffeId: SUB });
    const [stored] = await readTrustKeys(core(), ref());
    const leaf = issueX509Svid({
      spiffeId: SUB,
      ttlSeconds: 60,
      ca: { certPem: stored!.caCertPem, keyPem: stored!.caKeyPem },
    });
    const ca = new X509Certificate(bundle.x509_authorities[0]!);
    expect(new X509Certificate(leaf.certPem).verify(ca.publicKey)).toBe(true);
  });

  it('keeps the previous key in the bundle after a rotation; both verify', async () => {
    await fx.until('/v1/trust-bundle', (x) => x.status === 200 && kidsOf(x).length === 1);
    const before = await storedSigningKey();
    const oldToken = await issueJwtSvid({ spiffeId: SUB, audience: 'svc', ttlSeconds: 60, key: before });
    await maintainTrustKeys(core(), ref(), trustKeyPolicy(TD, 0));
    const after = await storedSigningKey();
    expect(after.kid).not.toBe(before.kid);
    const r = await fx.until('/v1/trust-bundle', (x) => kidsOf(x).length === 2, 'stranger');
    expect(kidsOf(r)).toEqual([before.kid, after.kid].sort());
    expect((r.body as unknown as TrustBundle).x509_authorities).toHaveLength(2);
    expectNoPrivateMaterial(r);
    const jwks = (r.body as unknown as TrustBundle).jwt_authorities;
    const newToken = await issueJwtSvid({ spiffeId: SUB, audience: 'svc', ttlSeconds: 60, key: after });
    for (const token of [oldToken, newToken]) {
      expect(await verifyJwtSvid(token, { bundle: jwks, audience: 'svc', trustDomain: TD })).toMatchObject({
        ok: true,
      });
    }
  });
});
