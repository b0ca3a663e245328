// How the platform reaches a registered auditor's or model's endpoint with the
// registration's own auth (decision 129): the request options (trusted server
// certificate, client certificate, bearer key) and the API key read from the
// Secret the registration names. Pure: the Secret and the certificate files
// are read by the callers.
import { ANNOTATION } from '../contract/kube.ts';

/** A registration's `spec.auth` (AuditorRegistration and ModelRegistration alike). */
export interface RegistrationAuth {
  type?: 'mtls' | 'api_key' | 'none';
  certPem?: string;
  secretRef?: { name: string; key: string };
}

/** Which registration asks for a credential: `auditor/<name>` or `model/<name>` in the Secret's annotation. */
export interface CredentialHolder {
  kind: 'auditor' | 'model';
  name: string;
}

/** The platform's client certificate (PEM) presented to mTLS endpoints. */
export interface ClientCertificate {
  cert: string;
  key: string;
}

export interface EndpointCredentials {
  apiKey?: string;
  client?: ClientCertificate;
}

/** What a GET to a registered endpoint carries. */
export interface EndpointRequest {
  headers: Record<string, string>;
  tls?: { ca?: string; allowPartialTrustChain?: boolean; cert?: string; key?: string };
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * The options of a GET of `url` for a registration reached at `endpoint`.
 * mTLS over https trusts the registration's `certPem` (as the server's
 * certificate or its CA) instead of the system CAs. The secrets (the bearer
 * key, the client certificate) go only to the endpoint's own origin, so a
 * `vocabulary_url` elsewhere cannot collect them.
 */
export function endpointRequest(
  url: string,
  endpoint: string | undefined,
  auth: RegistrationAuth | undefined,
  creds: EndpointCredentials,
): EndpointRequest {
  const own = sameOrigin(url, endpoint);
  const bearer = auth?.type === 'api_key' && own && creds.apiKey;
  const headers = {
    accept: 'application/json',
    ...(bearer ? { authorization: `Bearer ${creds.apiKey}` } : {}),
  };
  const tls = auth?.type === 'mtls' ? mtlsOptions(url, auth, own ? creds.client : undefined) : undefined;
  return tls ? { headers, tls } : { headers };
}

const sameOrigin = (url: string, endpoint: string | undefined): boolean =>
  originOf(url) !== undefined && originOf(url) === originOf(endpoint);

/**
 * The TLS options of an https URL: the registration's certificate trusted, the
 * client certificate presented. A partial chain is allowed so that `certPem`
 * may be the server's own certificate, even when a CA issued it: OpenSSL
 * otherwise trusts only a self-signed root and refuses the leaf.
 */
function mtlsOptions(
  url: string,
  auth: RegistrationAuth,
  client: ClientCertificate | undefined,
): EndpointRequest['tls'] {
  if (!url.toLowerCase().startsWith('https:')) return undefined;
  return {
    ...(auth.certPem ? { ca: auth.certPem, allowPartialTrustChain: true } : {}),
    ...(client ? { cert: client.cert, key: client.key } : {}),
  };
}

export const holderText = (h: CredentialHolder): string => `${h.kind}/${h.name}`;

/** True when the Secret's annotation lists the holder (comma-separated `auditor/<name>`, `model/<name>`). */
export function secretServes(
  annotations: Record<string, string> | undefined,
  holder: CredentialHolder,
): boolean {
  const listed = (annotations?.[ANNOTATION.credentialFor] ?? '').split(',').map((s) => s.trim());
  return listed.includes(holderText(holder));
}

/**
 * The API key in a Secret (its `data`, base64) for `holder`, or why there is
 * none. The Secret must name the holder in `platform.io/credential-for`: a
 * registration cannot borrow any Secret of the platform's namespace (an API
 * key's, the bootstrap key's) to have it sent to an endpoint it chose.
 */
export function apiKeyFromSecret(
  secret: { metadata?: { annotations?: Record<string, string> }; data?: Record<string, string> } | undefined,
  ref: { name: string; key: string },
  holder: CredentialHolder,
): { key: string } | { problem: string } {
  if (!secret) return { problem: `the API key Secret ${ref.name} does not exist` };
  if (!secretServes(secret.metadata?.annotations, holder))
    return {
      problem: `the Secret ${ref.name} does not list ${holderText(holder)} in its ${ANNOTATION.credentialFor} annotation`,
    };
  const raw = secret.data?.[ref.key];
  const key = raw ? Buffer.from(raw, 'base64').toString('utf8').trim() : '';
  if (!key) return { problem: `the Secret ${ref.name} has no key ${ref.key}` };
  // A header cannot carry control characters; refusing names no part of the key.
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(key))
    return { problem: `the key ${ref.key} of Secret ${ref.name} is not one line` };
  return { key };
}
