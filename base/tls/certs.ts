// Issuing certificates: a CA and serving or client certificates signed by it
// (the webhook's own, the credential proxy's pod-local CA). node-forge builds
// and signs X.509; keys come from node:crypto, which is fast and native.
// Reading them is webhooks/tls/x509.ts, with Node's own X.509.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface KeyPair {
  certPem: string;
  keyPem: string;
}

export interface Names {
  dnsNames: string[];
  ipAddresses: string[];
}

const DAY_MS = 86_400_000;

function rsaKeyPem(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

interface Issue {
  commonName: string;
  names?: Names;
  isCA: boolean;
  validDays: number;
  now: Date;
  /** What a leaf certificate may prove: a server's identity or a client's. */
  purpose?: 'server' | 'client';
}

/** A leaf proves a server's identity or a client's; a CA neither. */
function extKeyUsage(request: Issue): object[] {
  if (request.isCA) return [];
  return [
    { name: 'extKeyUsage', ...(request.purpose === 'client' ? { clientAuth: true } : { serverAuth: true }) },
  ];
}

function issue(request: Issue, issuer?: KeyPair): KeyPair {
  const keys = rsaKeyPem();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicPem);
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(request.now.getTime() - 5 * 60_000); // tolerate clock skew
  cert.validity.notAfter = new Date(request.now.getTime() + request.validDays * DAY_MS);
  const subject = [{ name: 'commonName', value: request.commonName }];
  cert.setSubject(subject);
  cert.setIssuer(issuer ? forge.pki.certificateFromPem(issuer.certPem).subject.attributes : subject);
  const altNames = [
    ...(request.names?.dnsNames ?? []).map((value) => ({ type: 2, value })),
    ...(request.names?.ipAddresses ?? []).map((ip) => ({ type: 7, ip })),
  ];
  cert.setExtensions([
    { name: 'basicConstraints', cA: request.isCA, critical: true },
    request.isCA
      ? { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true }
      : { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    ...extKeyUsage(request),
    { name: 'subjectKeyIdentifier' },
    ...(altNames.length ? [{ name: 'subjectAltName', altNames }] : []),
  ]);
  cert.sign(forge.pki.privateKeyFromPem(issuer ? issuer.keyPem : keys.privatePem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privatePem };
}

export function issueCa(now: Date, validDays: number, commonName = 'platform-webhook-ca'): KeyPair {
  return issue({ commonName, isCA: true, validDays, now });
}

export function issueServing(ca: KeyPair, names: Names, now: Date, validDays: number): KeyPair {
  return issue(
    {
      commonName: names.dnsNames[0] ?? names.ipAddresses[0] ?? 'platform-webhook',
      names,
      isCA: false,
      validDays,
      now,
    },
    ca,
  );
}

/**
 * A client certificate signed by `ca` (extKeyUsage clientAuth: a TLS server
 * refuses a serving certificate presented as a client's), such as the
 * platform's registry client certificate (PLATFORM_REGISTRY_CLIENT_CERT).
 */
export function issueClient(ca: KeyPair, commonName: string, now: Date, validDays: number): KeyPair {
  return issue({ commonName, isCA: false, validDays, now, purpose: 'client' }, ca);
}
