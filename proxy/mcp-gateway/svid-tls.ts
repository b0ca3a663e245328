// The agent's X.509-SVID as TLS client options for MCP servers (decision
// 170): `svid.pem` + `svid.key` presented, `bundle.pem` the only trust, and
// the server accepted by the SPIFFE ID in its certificate (an SVID names no
// host) when it is of the agent's own trust domain. The files are looked at
// on every use and read again when one changed: the kubelet replaces them as
// the operator renews the SVID.
import { X509Certificate } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PeerCertificate } from 'node:tls';
import { SVID_FILE } from '../../contract/kube.ts';
import { trustDomainOf } from '../../base/identity/spiffe-id.ts';

export interface SvidTlsOptions {
  cert: string;
  key: string;
  ca: string;
  checkServerIdentity: (host: string, cert: PeerCertificate) => Error | undefined;
}

/** The SPIFFE IDs among a certificate's URI SANs (`URI:spiffe://…` in Node's `subjectaltname`). */
export function spiffeIdsOf(subjectAltName: string | undefined): string[] {
  return (subjectAltName ?? '')
    .split(/,\s*/)
    .filter((san) => san.startsWith('URI:spiffe://'))
    .map((san) => san.slice('URI:'.length));
}

/** Accepts a server whose certificate carries a SPIFFE ID of `trustDomain` (the chain is checked against the bundle by TLS). */
export function spiffeServerCheck(trustDomain: string): SvidTlsOptions['checkServerIdentity'] {
  return (_host, cert) => {
    const ids = spiffeIdsOf(cert.subjectaltname);
    if (ids.some((id) => trustDomainOf(id) === trustDomain)) return undefined;
    return new Error(`the server presents no SPIFFE ID of trust domain ${trustDomain}`);
  };
}

export class SvidUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SvidUnavailable';
  }
}

export interface SvidSource {
  /** The TLS options of the SVID as its files hold it now; rejects with `SvidUnavailable`. */
  tlsOptions(): Promise<SvidTlsOptions>;
}

export function svidFiles(dir: string): SvidSource {
  const paths = [SVID_FILE.cert, SVID_FILE.key, SVID_FILE.bundle].map((f) => join(dir, f));
  let cached: { stamp: string; options: SvidTlsOptions } | undefined;
  const read = async (): Promise<SvidTlsOptions> => {
    const [cert, key, ca] = await Promise.all(paths.map((p) => readFile(p, 'utf8')));
    const ids = spiffeIdsOf(new X509Certificate(cert as string).subjectAltName);
    const trustDomain = ids.map(trustDomainOf).find((td) => td !== undefined);
    if (!trustDomain) throw new SvidUnavailable(`${SVID_FILE.cert} holds no SPIFFE ID`);
    return {
      cert: cert as string,
      key: key as string,
      ca: ca as string,
      checkServerIdentity: spiffeServerCheck(trustDomain),
    };
  };
  return {
    async tlsOptions() {
      try {
        const stats = await Promise.all(paths.map((p) => stat(p)));
        const stamp = stats.map((s) => `${s.mtimeMs}:${s.size}:${s.ino}`).join('|');
        if (cached?.stamp !== stamp) cached = { stamp, options: await read() };
        return cached.options;
      } catch (err) {
        if (err instanceof SvidUnavailable) throw err;
        const code = (err as { code?: string }).code ?? (err as Error).message;
        throw new SvidUnavailable(`the agent's X.509-SVID could not be read from ${dir} (${code})`);
      }
    },
  };
}
