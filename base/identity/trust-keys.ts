// One generation of trust-domain keys: an ES256 key pair that signs JWT-SVIDs
// (private JWK, kept only in the Secret) and a CA that signs X.509-SVIDs;
// the bundle is their public halves. Private material never leaves through
// `trustBundle`.
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { randomBytes } from 'node:crypto';
import { currentKey, type KeyTimes } from './rotation.ts';
import { issueTrustDomainCa } from './x509-svid.ts';

export const JWT_SVID_ALG = 'ES256';

export interface StoredTrustKey extends KeyTimes {
  /** The ES256 private key, as a JWK. */
  jwk: JWK;
  caCertPem: string;
  caKeyPem: string;
}

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey | Uint8Array;
}

export interface TrustBundle {
  trust_domain: string;
  jwt_authorities: { keys: JWK[] };
  x509_authorities: string[];
  /** Seconds after which a holder should fetch the bundle again. */
  refresh_hint: number;
}

/** A fresh generation of keys; its CA outlives the key's signing period plus retention. */
export async function generateTrustKey(
  trustDomain: string,
  nowMs: number,
  caValidMs: number,
): Promise<StoredTrustKey> {
  const { privateKey } = await generateKeyPair(JWT_SVID_ALG, { extractable: true });
  const kid = `${nowMs.toString(36)}-${randomBytes(6).toString('hex')}`;
  const ca = issueTrustDomainCa(trustDomain, new Date(nowMs), caValidMs);
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: JWT_SVID_ALG };
  return { kid, trustDomain, createdAt: nowMs, jwk, caCertPem: ca.certPem, caKeyPem: ca.keyPem };
}

/** The key that signs now, ready for `issueJwtSvid`; undefined when there is none. */
export async function signingKeyOf(keys: readonly StoredTrustKey[]): Promise<SigningKey | undefined> {
  const current = currentKey(keys);
  if (!current) return undefined;
  const privateKey = await importJWK(current.jwk, JWT_SVID_ALG);
  return { kid: current.kid, alg: JWT_SVID_ALG, privateKey };
}

/** The public half of a JWK: only the public members, never `d` (nor RSA's private factors). */
export function publicJwk(jwk: JWK): JWK {
  const { kty, crv, x, y, n, e, kid, alg } = jwk;
  const members = { kty, kid, alg, use: 'jwt-svid', crv, x, y, n, e };
  return Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined)) as JWK;
}

export function trustBundle(
  trustDomain: string,
  keys: readonly StoredTrustKey[],
  refreshHintSeconds: number,
): TrustBundle {
  const ours = keys.filter((k) => k.trustDomain === trustDomain);
  return {
    trust_domain: trustDomain,
    jwt_authorities: { keys: ours.map((k) => publicJwk(k.jwk)) },
    x509_authorities: ours.map((k) => k.caCertPem),
    refresh_hint: refreshHintSeconds,
  };
}
