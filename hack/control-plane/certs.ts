// Certificates for the local control plane: one CA that signs the apiserver's
// serving certificate and the admin client certificate (group system:masters),
// plus the service-account signing key pair. Keys come from node:crypto (fast,
// native); node-forge builds and signs the X.509 certificates.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface KeyPairPem {
  certPem: string;
  keyPem: string;
}

export interface ControlPlaneCerts {
  ca: KeyPairPem;
  serving: KeyPairPem;
  admin: KeyPairPem;
  serviceAccount: { publicPem: string; privatePem: string };
}

function rsaKeys(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

interface CertRequest {
  commonName: string;
  organization?: string;
  isCA?: boolean;
  dnsNames?: string[];
  ipAddresses?: string[];
  clientAuth?: boolean;
  serverAuth?: boolean;
  validDays: number;
  now?: Date;
}

/** Key usage by role: a CA signs certificates, a leaf serves or authenticates with its key. */
function certificateExtensions(request: CertRequest): object[] {
  const altNames = [
    ...(request.dnsNames ?? []).map((value) => ({ type: 2, value })),
    ...(request.ipAddresses ?? []).map((ip) => ({ type: 7, ip })),
  ];
  const extensions: object[] = [
    { name: 'basicConstraints', cA: request.isCA === true, critical: true },
    request.isCA
      ? { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true }
      : { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ];
  if (!request.isCA) {
    extensions.push({
      name: 'extKeyUsage',
      serverAuth: request.serverAuth === true,
      clientAuth: request.clientAuth === true,
    });
  }
  if (altNames.length > 0) extensions.push({ name: 'subjectAltName', altNames });
  return extensions;
}

export function issueCertificate(request: CertRequest, issuer?: KeyPairPem): KeyPairPem {
  const keys = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicPem);
  cert.serialNumber = '01' + randomBytes(15).toString('hex');
  const now = request.now ?? new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + request.validDays * 86_400_000);
  const subject = [{ name: 'commonName', value: request.commonName }];
  if (request.organization) subject.push({ name: 'organizationName', value: request.organization });
  cert.setSubject(subject);
  const issuerCert = issuer ? forge.pki.certificateFromPem(issuer.certPem) : undefined;
  cert.setIssuer(issuerCert ? issuerCert.subject.attributes : subject);
  const extensions = certificateExtensions(request);
  cert.setExtensions(extensions);
  const signingKey = forge.pki.privateKeyFromPem(issuer ? issuer.keyPem : keys.privatePem);
  cert.sign(signingKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privatePem };
}

export function generateControlPlaneCerts(): ControlPlaneCerts {
  const ca = issueCertificate({ commonName: 'platform-local-ca', isCA: true, validDays: 30 });
  const serving = issueCertificate(
    {
      commonName: 'kube-apiserver',
      dnsNames: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
      ipAddresses: ['127.0.0.1', '10.0.0.1'],
      serverAuth: true,
      validDays: 30,
    },
    ca,
  );
  const admin = issueCertificate(
    { commonName: 'platform-admin', organization: 'system:masters', clientAuth: true, validDays: 30 },
    ca,
  );
  const sa = rsaKeys();
  return { ca, serving, admin, serviceAccount: { publicPem: sa.publicPem, privatePem: sa.privatePem } };
}
