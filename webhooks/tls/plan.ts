// Pure decisions of the certificate rotation: what the Secret holds, whether
// the CA or the serving certificate must be renewed (and why, in words an
// operator understands), and the CA bundle the webhook configurations carry.
import type { KeyPair, Names } from '../../base/tls/certs.ts';
import { describeNames, inspect, keyMatches, missingNames, signedBy, type CertInfo } from './x509.ts';

export const SECRET_KEYS = {
  caCert: 'ca.crt',
  caKey: 'ca.key',
  previousCaCert: 'ca-previous.crt',
  cert: 'tls.crt',
  key: 'tls.key',
} as const;

export interface CertBundle {
  ca?: KeyPair;
  previousCaPem?: string;
  serving?: KeyPair;
}

export interface RenewalPlan {
  renewCa: boolean;
  renewServing: boolean;
  dropPreviousCa: boolean;
  reasons: string[];
}

export interface CertCondition {
  type: 'CertificateValid';
  status: 'True' | 'False';
  reason: string;
  message: string;
}

const decode = (v: string | undefined): string | undefined =>
  v ? Buffer.from(v, 'base64').toString('utf8') : undefined;

/** The bundle from a Secret's base64 `data`. */
export function bundleFromSecretData(data: Record<string, string> | undefined): CertBundle {
  const get = (key: string): string | undefined => decode(data?.[key]);
  const caCert = get(SECRET_KEYS.caCert);
  const previousCaPem = get(SECRET_KEYS.previousCaCert);
  const cert = get(SECRET_KEYS.cert);
  const key = get(SECRET_KEYS.key);
  return {
    ...(caCert ? { ca: { certPem: caCert, keyPem: get(SECRET_KEYS.caKey) ?? '' } } : {}),
    ...(previousCaPem ? { previousCaPem } : {}),
    ...(cert && key ? { serving: { certPem: cert, keyPem: key } } : {}),
  };
}

export function secretDataFromBundle(b: CertBundle): Record<string, string> {
  const enc = (s: string): string => Buffer.from(s).toString('base64');
  const data: Record<string, string> = {};
  if (b.ca) {
    data[SECRET_KEYS.caCert] = enc(b.ca.certPem);
    if (b.ca.keyPem) data[SECRET_KEYS.caKey] = enc(b.ca.keyPem);
  }
  if (b.previousCaPem) data[SECRET_KEYS.previousCaCert] = enc(b.previousCaPem);
  if (b.serving) {
    data[SECRET_KEYS.cert] = enc(b.serving.certPem);
    data[SECRET_KEYS.key] = enc(b.serving.keyPem);
  }
  return data;
}

function tryInspect(pem: string | undefined): CertInfo | undefined {
  try {
    return pem ? inspect(pem) : undefined;
  } catch {
    return undefined;
  }
}

const day = (d: Date): string => d.toISOString().slice(0, 10);

function caProblem(b: CertBundle, now: Date, renewBeforeMs: number): string {
  const ca = tryInspect(b.ca?.certPem);
  if (!ca || !b.ca?.keyPem) return 'no usable CA (certificate and key)';
  if (!ca.isCA) return 'the CA certificate is not a CA';
  if (ca.notAfter.getTime() - now.getTime() < renewBeforeMs) return `the CA expires on ${day(ca.notAfter)}`;
  return '';
}

/** Why the serving certificate cannot stay ('' when it can). Name mismatches say what is missing. */
export function servingProblem(b: CertBundle, required: Names, now: Date, renewBeforeMs: number): string {
  const info = tryInspect(b.serving?.certPem);
  if (!b.serving || !info) return 'no serving certificate';
  if (!keyMatches(b.serving)) return 'the serving key does not belong to the serving certificate';
  if (b.ca && !signedBy(b.serving.certPem, b.ca.certPem))
    return 'the serving certificate is not signed by the CA';
  const missing = missingNames(info, required);
  if (missing.length) {
    return `name mismatch: the serving certificate covers ${describeNames(info)} but the webhook is reached as ${describeNames(required)} (missing ${missing.join(', ')})`;
  }
  if (info.notAfter.getTime() - now.getTime() < renewBeforeMs)
    return `the serving certificate expires on ${day(info.notAfter)}`;
  return '';
}

export function planRenewal(b: CertBundle, required: Names, now: Date, renewBeforeMs: number): RenewalPlan {
  const ca = caProblem(b, now, renewBeforeMs);
  const serving = ca ? 'the CA is renewed' : servingProblem(b, required, now, renewBeforeMs);
  const previous = tryInspect(b.previousCaPem);
  const dropPreviousCa = b.previousCaPem !== undefined && (!previous || previous.notAfter <= now);
  return {
    renewCa: ca !== '',
    renewServing: serving !== '',
    dropPreviousCa,
    reasons: [ca, ca ? '' : serving, dropPreviousCa ? 'the previous CA expired' : ''].filter(Boolean),
  };
}

/** PEM bundle for `caBundle`: the current CA, then the previous one while it is still valid. */
export function caBundlePem(b: CertBundle, now: Date): string {
  const previous = tryInspect(b.previousCaPem);
  const keepPrevious = b.previousCaPem && previous && previous.notAfter > now;
  return [b.ca?.certPem ?? '', keepPrevious ? (b.previousCaPem as string) : ''].filter(Boolean).join('');
}

/** The condition reported as metric, log and readiness: is what we serve valid for the names? */
export function certCondition(b: CertBundle, required: Names, now: Date): CertCondition {
  const problem = servingProblem(b, required, now, 0);
  if (!problem) {
    const info = inspect((b.serving as KeyPair).certPem);
    return {
      type: 'CertificateValid',
      status: 'True',
      reason: 'Valid',
      message: `valid until ${info.notAfter.toISOString()}`,
    };
  }
  const reason = problem.startsWith('name mismatch')
    ? 'NameMismatch'
    : problem.includes('expires')
      ? 'Expired'
      : problem.startsWith('no ')
        ? 'Missing'
        : 'Invalid';
  return { type: 'CertificateValid', status: 'False', reason, message: problem };
}

/** Who fills the Secret, as seen by this replica. */
export type CertificateIssuer = 'this-replica' | 'the-leader' | 'an-external-issuer';

/**
 * The reason `/readyz` gives while no valid certificate is served ('' when
 * one is). A missing certificate names the Secret and who is expected to
 * fill it, so "why is the webhook not ready?" has its answer in the probe.
 */
export function certificateReadiness(
  condition: CertCondition,
  secretRef: string,
  issuer: CertificateIssuer,
): string {
  if (condition.status === 'True') return '';
  if (condition.reason === 'Missing') {
    const who = {
      'this-replica': 'this replica leads and issues it',
      'the-leader': 'waiting for the leader to issue it',
      'an-external-issuer': 'waiting for its issuer (e.g. cert-manager) to fill it',
    }[issuer];
    return `no serving certificate in Secret ${secretRef} yet; ${who}`;
  }
  return `${condition.reason}: ${condition.message} (Secret ${secretRef})`;
}
