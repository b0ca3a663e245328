// OIDC bearer tokens (JWTs) verified with jose against the configured issuer:
// signature from the issuer's JWKS (fetched and cached by jose, re-fetched on
// an unknown `kid`), `iss`, `aud`, `exp`/`nbf`. Only tokens whose unverified
// `iss` is the configured issuer are handled here; other JWTs go on to
// TokenReview (service-account tokens are JWTs too).
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import { grantsFor, type AdminGrants, type Authenticator, type Principal } from './principal.ts';

export interface OidcOptions {
  issuer: string;
  audience: string;
  /** The JWKS URL; discovered from `/.well-known/openid-configuration` when unset. */
  jwksUrl?: string;
  /** Claim naming the subject: `sub` (default) or `email`. */
  subjectClaim: string;
  groupsClaim: string;
  grants: AdminGrants;
}

export const ORG_ADMIN_GROUP = 'platform:org-admins';
export const WORKSPACE_ADMIN_GROUP_PREFIX = 'platform:workspace-admins:';
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

function unverifiedIssuer(token: string): string | undefined {
  if (token.split('.').length !== 3) return undefined;
  try {
    return decodeJwt(token).iss;
  } catch {
    return undefined;
  }
}

/**
 * The JWKS URL of the issuer's discovery document, which must be a 2xx answer
 * naming the configured issuer exactly (OIDC Discovery 1.0 §4.3, RFC 8414
 * §3.3): otherwise a document served at that address could direct us to
 * another issuer's keys.
 */
export async function discoverJwks(issuer: string): Promise<string> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`OIDC discovery at ${url} answered HTTP ${res.status}`);
  }
  const doc = (await res.json().catch(() => undefined)) as
    { issuer?: unknown; jwks_uri?: unknown } | undefined;
  if (typeof doc !== 'object' || doc === null)
    throw new Error(`OIDC discovery at ${url} is not a JSON object`);
  if (doc.issuer !== issuer) {
    const named = typeof doc.issuer === 'string' ? JSON.stringify(doc.issuer) : 'no issuer';
    throw new Error(`OIDC discovery at ${url} names ${named}, not the configured issuer "${issuer}"`);
  }
  if (typeof doc.jwks_uri !== 'string') throw new Error(`${issuer} publishes no jwks_uri`);
  return doc.jwks_uri;
}

export function principalFromClaims(payload: JWTPayload, o: OidcOptions): Principal | string {
  const subject = payload[o.subjectClaim];
  if (typeof subject !== 'string' || subject === '') return `token has no ${o.subjectClaim} claim`;
  const rawGroups = payload[o.groupsClaim];
  const groups = Array.isArray(rawGroups) ? rawGroups.filter((g): g is string => typeof g === 'string') : [];
  const configured = grantsFor(subject, o.grants);
  const fromGroups = groups
    .filter((g) => g.startsWith(WORKSPACE_ADMIN_GROUP_PREFIX))
    .map((g) => g.slice(WORKSPACE_ADMIN_GROUP_PREFIX.length));
  return {
    subject,
    method: 'oidc',
    orgAdmin: configured.orgAdmin || groups.includes(ORG_ADMIN_GROUP),
    workspaceAdminOf: [...new Set([...configured.workspaceAdminOf, ...fromGroups])],
  };
}

function reason(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'OIDC token expired';
  if (err instanceof errors.JWTClaimValidationFailed)
    return `OIDC token claim ${err.claim} invalid: ${err.reason}`;
  if (err instanceof errors.JOSEError) return `OIDC token rejected: ${err.code}`;
  return `OIDC token rejected: ${(err as Error).message}`;
}

/** A verified OIDC token: its claims and the principal they name, or why it is refused. */
export type OidcVerification = { payload: JWTPayload; principal: Principal } | { reject: string };

export interface OidcVerifier {
  readonly issuer: string;
  /** `undefined` when the token is not a JWT of the configured issuer. */
  verify(token: string): Promise<OidcVerification | undefined>;
}

/**
 * The one check of an OIDC token: signature from the issuer's JWKS, `iss`,
 * `aud`, `exp`/`nbf`. API authentication and the token exchange's subject
 * tokens (decision 142) both use it.
 */
export function oidcVerifier(o: OidcOptions): OidcVerifier {
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  const keys = async (): Promise<ReturnType<typeof createRemoteJWKSet>> => {
    jwks ??= createRemoteJWKSet(new URL(o.jwksUrl ?? (await discoverJwks(o.issuer))), {
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
    });
    return jwks;
  };
  return {
    issuer: o.issuer,
    async verify(token) {
      if (unverifiedIssuer(token) !== o.issuer) return undefined;
      try {
        const { payload } = await jwtVerify(token, await keys(), {
          issuer: o.issuer,
          audience: o.audience,
          algorithms: ALGORITHMS,
          requiredClaims: ['exp'],
        });
        const principal = principalFromClaims(payload, o);
        return typeof principal === 'string' ? { reject: principal } : { payload, principal };
      } catch (err) {
        return { reject: reason(err) };
      }
    },
  };
}

export function oidcAuthenticator(o: OidcOptions | OidcVerifier): Authenticator {
  const verifier = 'verify' in o ? o : oidcVerifier(o);
  return {
    name: 'oidc',
    async authenticate(token) {
      const verified = await verifier.verify(token);
      if (!verified) return undefined;
      return 'reject' in verified ? verified : { principal: verified.principal };
    },
  };
}
