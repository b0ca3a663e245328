// Who may use the gateway (decision 171): the agent in its pod (a loopback
// peer) as itself, without a token; anyone else with an OAuth 2.1 bearer JWT
// of MCP_GATEWAY_OAUTH_ISSUER (keys from the jwks_uri of its RFC 8414
// metadata; `iss`, `aud`, `exp` checked) acting for the token's subject. A
// refusal is a 401 whose WWW-Authenticate points at the RFC 9728 metadata.
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';

export type ClientVerdict = { user: string } | { status: 401; detail: string; code: string };

export interface ClientAuthOptions {
  issuer?: string;
  /** The gateway's MCP URL (RFC 9728 `resource`). */
  resourceUrl?: string;
  /** Audience tokens must carry; default `resourceUrl`. */
  audience?: string;
  fetchTimeoutMs?: number;
}

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6: the agent's own pod. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/** RFC 9728 §3.1: the metadata URL of a resource (path inserted after the well-known segment). */
export function resourceMetadataUrl(resourceUrl: string): string {
  const u = new URL(resourceUrl);
  return `${u.origin}/.well-known/oauth-protected-resource${u.pathname.replace(/\/$/, '')}`;
}

/** The RFC 9728 document of the gateway; undefined without an issuer. */
export function protectedResourceMetadata(o: ClientAuthOptions): Record<string, unknown> | undefined {
  if (!o.issuer || !o.resourceUrl) return undefined;
  return {
    resource: o.resourceUrl,
    authorization_servers: [o.issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'platform MCP gateway',
  };
}

/** The WWW-Authenticate value of a 401 (RFC 6750 §3, RFC 9728 §5.1). */
export function challenge(o: ClientAuthOptions, error?: string): string {
  const parts = ['Bearer realm="mcp-gateway"'];
  if (error) parts.push(`error="${error}"`);
  if (o.issuer && o.resourceUrl) parts.push(`resource_metadata="${resourceMetadataUrl(o.resourceUrl)}"`);
  return parts.join(', ');
}

/** RFC 8414 §3.1: the metadata URL of `issuer` (its path inserted after the well-known segment). */
export function authorizationServerUrl(issuer: string): string {
  const u = new URL(issuer);
  return `${u.origin}/.well-known/oauth-authorization-server${u.pathname.replace(/\/$/, '')}`;
}

/** The issuer's jwks_uri from its RFC 8414 metadata, which must name the issuer exactly (RFC 8414 §3.3). */
async function discoverJwksUri(issuer: string, timeoutMs: number): Promise<string> {
  const url = authorizationServerUrl(issuer);
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`the issuer's metadata at ${url} answered HTTP ${res.status}`);
  }
  const doc = (await res.json().catch(() => undefined)) as
    { issuer?: unknown; jwks_uri?: unknown } | undefined;
  if (doc?.issuer !== issuer) throw new Error(`the metadata at ${url} does not name the issuer ${issuer}`);
  if (typeof doc.jwks_uri !== 'string') throw new Error(`the metadata at ${url} has no jwks_uri`);
  return doc.jwks_uri;
}

function reason(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'the token has expired';
  if (err instanceof errors.JWTClaimValidationFailed) return `the token's ${err.claim} claim is not accepted`;
  if (err instanceof errors.JOSEError) return `the token is not accepted (${err.code})`;
  return 'the token could not be verified';
}

export interface ClientAuthenticator {
  /** `authorization` header of a peer that is not loopback. */
  verify(authorization: string | undefined): Promise<ClientVerdict>;
}

export function clientAuthenticator(o: ClientAuthOptions): ClientAuthenticator {
  let jwks: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keys = (issuer: string): Promise<ReturnType<typeof createRemoteJWKSet>> => {
    jwks ??= discoverJwksUri(issuer, o.fetchTimeoutMs ?? 5000).then((uri) =>
      createRemoteJWKSet(new URL(uri), { timeoutDuration: 5000, cooldownDuration: 30_000 }),
    );
    // A failed discovery is tried again on the next request.
    jwks.catch(() => (jwks = undefined));
    return jwks;
  };
  const refuse = (detail: string, code: string): ClientVerdict => ({ status: 401, detail, code });
  return {
    async verify(authorization) {
      if (!o.issuer)
        return refuse(
          'only the agent in its pod may use this gateway (no OAuth issuer is configured)',
          'unauthenticated',
        );
      const m = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(authorization ?? '');
      if (!m) return refuse('a bearer token is required', 'unauthenticated');
      try {
        const { payload } = await jwtVerify(m[1] as string, await keys(o.issuer), {
          issuer: o.issuer,
          audience: o.audience ?? o.resourceUrl,
          algorithms: ALGORITHMS,
          requiredClaims: ['exp'],
        });
        if (typeof payload.sub !== 'string' || payload.sub === '')
          return refuse('the token has no subject', 'invalid_token');
        return { user: payload.sub };
      } catch (err) {
        return refuse(reason(err), 'invalid_token');
      }
    },
  };
}
