// X.509-SVIDs (https://github.com/spiffe/spiffe/blob/main/standards/X509-SVID.md):
// a trust-domain CA (CA:true, URI SAN `spiffe://<trust domain>`) signs leaves
// with exactly one URI SAN (the SPIFFE ID), CA:false, digitalSignature, and
// clientAuth + serverAuth. node-forge builds and signs (RSA); keys come from
// node:crypto, as in base/tls/certs.ts.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { trustDomainOf } from './spiffe-id.ts';

export interface CertAndKey {
  certPem: string;
  keyPem: string;
}

const SKEW_MS = 5 * 60_000;

function rsaKeys(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

function newCertificate(publicPem: string, notBefore: Date, notAfter: Date): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicPem);
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  return cert;
}

/** A self-signed trust-domain CA valid from `now` for `validMs`. */
export function issueTrustDomainCa(trustDomain: string, now: Date, validMs: number): CertAndKey {
  const keys = rsaKeys();
  const cert = newCertificate(
    keys.publicPem,
    new Date(now.getTime() - SKEW_MS),
    new Date(now.getTime() + validMs),
  );
  const subject = [
    { name: 'organizationName', value: 'SPIFFE' },
    { name: 'commonName', value: `${trustDomain} trust domain CA` },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'subjectAltName', altNames: [{ type: 6, value: `spiffe://${trustDomain}` }] },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keys.privatePem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privatePem };
}

export interface X509SvidRequest {
  spiffeId: string;
  ttlSeconds: number;
  ca: CertAndKey;
  now?: Date;
}

/** A leaf X.509-SVID and its fresh private key; never valid beyond its CA. */
export function issueX509Svid(r: X509SvidRequest): CertAndKey {
  if (!trustDomainOf(r.spiffeId)) throw new Error('the SVID needs a SPIFFE ID with a path');
  if (!(r.ttlSeconds > 0)) throw new Error('ttl must be positive');
  const now = r.now ?? new Date();
  const caCert = forge.pki.certificateFromPem(r.ca.certPem);
  const end = Math.min(now.getTime() + r.ttlSeconds * 1000, caCert.validity.notAfter.getTime());
  const keys = rsaKeys();
  const cert = newCertificate(keys.publicPem, new Date(now.getTime() - SKEW_MS), new Date(end));
  cert.setSubject([{ name: 'organizationName', value: 'SPIFFE' }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'subjectAltName', altNames: [{ type: 6, value: r.spiffeId }] },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(r.ca.keyPem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privatePem };
}
