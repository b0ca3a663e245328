// Reading certificates with Node's own X.509 (OpenSSL): validity, names,
// issuer signature, key match. node-forge stays in certs.ts for issuing only,
// so no certificate the rotation trusts is parsed or verified by it.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { KeyPair, Names } from '../../base/tls/certs.ts';

export interface CertInfo extends Names {
  commonName: string;
  notBefore: Date;
  notAfter: Date;
  isCA: boolean;
  serial: string;
}

/** An IP as the WHATWG URL parser writes it: IPv6 compressed and lower-case, IPv4 as is. */
export function canonicalIp(ip: string): string {
  if (!ip.includes(':')) return ip;
  try {
    return new URL(`http://[${ip}]`).hostname.slice(1, -1);
  } catch {
    return ip.toLowerCase();
  }
}

// OpenSSL writes a value holding a separator as a JSON string ("x\u002cy"), so
// ", " only ever separates entries.
function sanValue(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  try {
    return String(JSON.parse(raw));
  } catch {
    return raw;
  }
}

/** The DNS names and IPs of `X509Certificate.subjectAltName` (other kinds are ignored). */
export function parseSubjectAltName(san: string | undefined): Names {
  const names: Names = { dnsNames: [], ipAddresses: [] };
  for (const entry of san ? san.split(', ') : []) {
    const colon = entry.indexOf(':');
    const kind = entry.slice(0, colon);
    const value = sanValue(entry.slice(colon + 1));
    if (kind === 'DNS') names.dnsNames.push(value);
    else if (kind === 'IP Address') names.ipAddresses.push(canonicalIp(value));
  }
  return names;
}

/** The CN of an X509Certificate `subject` (one `KEY=value` per line). */
export function commonNameOf(subject: string): string {
  const line = subject.split('\n').find((l) => l.startsWith('CN='));
  return line ? sanValue(line.slice(3)) : '';
}

/** Parses a PEM certificate; throws with a short reason when it is not one. */
export function inspect(certPem: string): CertInfo {
  const cert = new X509Certificate(certPem);
  return {
    commonName: commonNameOf(cert.subject),
    notBefore: new Date(cert.validFrom),
    notAfter: new Date(cert.validTo),
    isCA: cert.ca,
    serial: cert.serialNumber.toLowerCase(),
    ...parseSubjectAltName(cert.subjectAltName),
  };
}

/** True when `caPem` names the certificate's issuer and its key signed it. */
export function signedBy(certPem: string, caPem: string): boolean {
  try {
    const cert = new X509Certificate(certPem);
    const ca = new X509Certificate(caPem);
    return cert.checkIssued(ca) && cert.verify(ca.publicKey);
  } catch {
    return false;
  }
}

/** True when the private key belongs to the certificate. */
export function keyMatches(pair: KeyPair): boolean {
  try {
    return new X509Certificate(pair.certPem).checkPrivateKey(createPrivateKey(pair.keyPem));
  } catch {
    return false;
  }
}

/** The required names the certificate does not cover, as `DNS:x` / `IP:y`. */
export function missingNames(info: Names, required: Names): string[] {
  const ips = info.ipAddresses.map(canonicalIp);
  return [
    ...required.dnsNames.filter((n) => !info.dnsNames.includes(n)).map((n) => `DNS:${n}`),
    ...required.ipAddresses.filter((n) => !ips.includes(canonicalIp(n))).map((n) => `IP:${n}`),
  ];
}

export function describeNames(n: Names): string {
  const all = [...n.dnsNames.map((d) => `DNS:${d}`), ...n.ipAddresses.map((i) => `IP:${i}`)];
  return all.length ? all.join(', ') : '(no names)';
}
