import { X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { issueTrustDomainCa, issueX509Svid } from './x509-svid.ts';
import { trustBundle, generateTrustKey, publicJwk } from './trust-keys.ts';

const TD = 'td.test';
const ID = `spiffe://${TD}/agent/ns.alice`;
const now = new Date('2027-01-01T00:00:00Z');

describe('X.509-SVIDs', () => {
  const ca = issueTrustDomainCa(TD, now, 30 * 86_400_000);
  const leaf = issueX509Svid({ spiffeId: ID, ttlSeconds: 3600, ca, now });
  const cert = new X509Certificate(leaf.certPem);
  const caCert = new X509Certificate(ca.certPem);

  it('carries exactly one URI SAN, the SPIFFE ID, and is no CA', () => {
    expect(cert.subjectAltName).toBe(`URI:${ID}`);
    expect(cert.ca).toBe(false);
    expect(caCert.ca).toBe(true);
    expect(caCert.subjectAltName).toBe(`URI:spiffe://${TD}`);
  });

  it('is for signatures and both client and server authentication', () => {
    expect(cert.keyUsage.sort()).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    const parsed = forge.pki.certificateFromPem(leaf.certPem);
    expect(parsed.getExtension('keyUsage')).toMatchObject({ digitalSignature: true, keyCertSign: false });
    expect(new Date(cert.validTo).getTime()).toBe(now.getTime() + 3600_000);
  });

  it('chains to the bundle CA and to no other', () => {
    expect(cert.checkIssued(caCert) && cert.verify(caCert.publicKey)).toBe(true);
    const store = forge.pki.createCaStore([ca.certPem]);
    expect(
      forge.pki.verifyCertificateChain(store, [forge.pki.certificateFromPem(leaf.certPem)], {
        validityCheckDate: now,
      }),
    ).toBe(true);
    const other = new X509Certificate(issueTrustDomainCa(TD, now, 86_400_000).certPem);
    expect(cert.verify(other.publicKey)).toBe(false);
  });

  it('refuses an id that is not a SPIFFE ID', () => {
    expect(() => issueX509Svid({ spiffeId: 'https://x/y', ttlSeconds: 60, ca, now })).toThrow();
  });
});

describe('the trust bundle', () => {
  it('holds public keys only', async () => {
    const stored = await generateTrustKey(TD, now.getTime(), 86_400_000);
    expect(stored.jwk.d).toBeDefined();
    const bundle = trustBundle(TD, [stored], 300);
    expect(bundle.jwt_authorities.keys).toEqual([publicJwk(stored.jwk)]);
    expect(bundle.jwt_authorities.keys[0]).toMatchObject({ kid: stored.kid, use: 'jwt-svid', kty: 'EC' });
    expect(JSON.stringify(bundle)).not.toMatch(/"d"|PRIVATE KEY/);
    expect(bundle.x509_authorities).toEqual([stored.caCertPem]);
  });
});
