// Signs an agent's SVIDs with the current trust-domain key (the Verifier
// creates and rotates the keys, decision 133; the operator only reads them).
import { issueJwtSvid } from '../../base/identity/jwt-svid.ts';
import { currentKey } from '../../base/identity/rotation.ts';
import { signingKeyOf, trustBundle, type StoredTrustKey } from '../../base/identity/trust-keys.ts';
import { issueX509Svid } from '../../base/identity/x509-svid.ts';
import type { SvidIdentity, SvidMaterial, SvidPolicy } from './svid.ts';

/** The key that would sign now, for `svidRenewalAt`; undefined before the Verifier made one. */
export function signingKeyId(keys: readonly StoredTrustKey[], trustDomain: string): string | undefined {
  return currentKey(keys.filter((k) => k.trustDomain === trustDomain))?.kid;
}

export async function issueSvids(
  spiffeId: string,
  keys: readonly StoredTrustKey[],
  trustDomain: string,
  policy: SvidPolicy,
): Promise<{ identity: SvidIdentity; material: SvidMaterial } | undefined> {
  const ours = keys.filter((k) => k.trustDomain === trustDomain);
  const current = currentKey(ours);
  const key = await signingKeyOf(ours);
  if (!current || !key) return undefined;
  const now = new Date();
  const jwt = await issueJwtSvid({ spiffeId, audience: policy.audience, ttlSeconds: policy.ttlSeconds, key });
  const x509 = issueX509Svid({
    spiffeId,
    ttlSeconds: policy.ttlSeconds,
    ca: { certPem: current.caCertPem, keyPem: current.caKeyPem },
    now,
  });
  const bundle = trustBundle(trustDomain, ours, 300);
  return {
    identity: { spiffeId, keyId: current.kid },
    material: {
      jwt,
      certPem: x509.certPem,
      keyPem: x509.keyPem,
      bundlePem: bundle.x509_authorities.join(''),
      jwks: JSON.stringify(bundle.jwt_authorities),
      expires: new Date(now.getTime() + policy.ttlSeconds * 1000),
    },
  };
}
