// The client_credentials token request (RFC 6749 §4.4): the grant type, the
// scope (RFC 6749 §3.3 scope-tokens, passed through as asked: decision 137)
// and the audience (`audience`, or RFC 8707 `resource`, an absolute URI
// without fragment; the issuer by default). Pure.
import { OAuthError, invalidRequest } from './errors.ts';
import { GRANT_CLIENT_CREDENTIALS } from './metadata.ts';

/** The lifetime of a client_credentials access token. */
export const CLIENT_CREDENTIALS_TTL_SECONDS = 900;

const SCOPE_TOKEN_RE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export interface TokenParams {
  grant_type?: string;
  scope?: string;
  audience?: string;
  resource?: string;
}

export interface ClientCredentialsRequest {
  scope: string;
  audience: string;
}

function scopeOf(raw: string | undefined): string {
  if (raw === undefined) return '';
  const tokens = raw.split(' ');
  if (tokens.some((t) => !SCOPE_TOKEN_RE.test(t))) {
    throw new OAuthError('invalid_scope', 'scope must be space-separated scope tokens (RFC 6749 §3.3)');
  }
  return [...new Set(tokens)].join(' ');
}

function audienceOf(p: TokenParams, issuer: string): string {
  if (p.audience !== undefined && p.resource !== undefined && p.audience !== p.resource) {
    throw new OAuthError('invalid_target', 'send audience or resource, not two different ones');
  }
  if (p.resource !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(p.resource);
    } catch {
      url = undefined;
    }
    if (!url || p.resource.includes('#')) {
      throw new OAuthError(
        'invalid_target',
        'resource must be an absolute URI without a fragment (RFC 8707)',
      );
    }
    return p.resource;
  }
  return p.audience ?? issuer;
}

export function clientCredentialsRequest(p: TokenParams, issuer: string): ClientCredentialsRequest {
  if (p.grant_type === undefined) throw invalidRequest('grant_type is required');
  if (p.grant_type !== GRANT_CLIENT_CREDENTIALS) {
    throw new OAuthError(
      'unsupported_grant_type',
      `grant_type ${JSON.stringify(p.grant_type.slice(0, 80))} is not supported here`,
    );
  }
  return { scope: scopeOf(p.scope), audience: audienceOf(p, issuer) };
}
