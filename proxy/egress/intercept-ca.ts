// The pod-local CA of the credential proxy (decision 174): TLS
// to a routed host is terminated here so the proxy can see the request and
// inject the credential, then originated again to the real host, verified
// against the system's roots. The CA is made in memory when the proxy starts
// and never leaves it; only its certificate is written, with the system
// roots, to a bundle file the agent container trusts (NODE_EXTRA_CA_CERTS,
// SSL_CERT_FILE, ...). Leaf certificates are minted per host on first use and
// kept (bounded).
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { issueCa, issueServing, type KeyPair } from '../../base/tls/certs.ts';

export const CA_BUNDLE_FILE = 'ca-bundle.pem';
export const CA_FILE = 'ca.pem';
const LEAF_DAYS = 7;
const CA_DAYS = 30;
const MAX_LEAVES = 512;

export class InterceptCa {
  private readonly leaves = new Map<string, SecureContext>();
  private constructor(private readonly ca: KeyPair) {}

  static create(now = new Date()): InterceptCa {
    return new InterceptCa(issueCa(now, CA_DAYS, 'platform credential proxy (pod-local)'));
  }

  get certPem(): string {
    return this.ca.certPem;
  }

  /** The TLS context presenting `host` (a DNS name or IP literal), minted once per host. */
  contextFor(host: string): SecureContext {
    const known = this.leaves.get(host);
    if (known) return known;
    const ip = /^[\d.]+$/.test(host) || host.includes(':');
    const names = ip ? { dnsNames: [], ipAddresses: [host] } : { dnsNames: [host], ipAddresses: [] };
    const leaf = issueServing(this.ca, names, new Date(), LEAF_DAYS);
    const context = createSecureContext({ key: leaf.keyPem, cert: `${leaf.certPem}${this.ca.certPem}` });
    if (this.leaves.size >= MAX_LEAVES) this.leaves.delete(this.leaves.keys().next().value as string);
    this.leaves.set(host, context);
    return context;
  }

  /**
   * Writes `ca.pem` and `ca-bundle.pem` (this CA plus the system roots, for
   * clients whose variable replaces rather than extends their trust store)
   * atomically into `dir`.
   */
  async writeBundle(dir: string, extraRoots: readonly string[] = []): Promise<void> {
    await mkdir(dir, { recursive: true });
    const write = async (name: string, text: string): Promise<void> => {
      const tmp = join(dir, `.${name}.tmp`);
      await writeFile(tmp, text, { mode: 0o644 });
      await rename(tmp, join(dir, name));
    };
    await write(CA_FILE, this.ca.certPem);
    await write(CA_BUNDLE_FILE, [this.ca.certPem, ...rootCertificates, ...extraRoots].join('\n'));
  }
}
