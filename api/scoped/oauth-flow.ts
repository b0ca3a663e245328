// The pure parts of the OAuth 2.1 authorization-code flow with PKCE (S256)
// that connects a scoped credential (decision 275): the state and the code
// verifier (32 random bytes each, base64url), the challenge, the name of the
// Secret a pending session lives in (a hash of the state, so the name does not
// give the state away), the authorization URL, and what a token endpoint's
// answer means. No I/O.
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthProvider } from './oauth-providers.ts';

/** A pending connect lives this long. */
export const SESSION_TTL_MS = 10 * 60_000;
/** Its record is kept this long after it started, so the UI can still ask how it ended. */
export const SESSION_KEEP_MS = 30 * 60_000;
export const STATE_RE = /^[A-Za-z0-9_-]{43}$/;

const random = (): string => randomBytes(32).toString('base64url');

/** An unguessable state: 256 random bits. */
export const newState = random;
/** An RFC 7636 code verifier: 43 characters of the unreserved set. */
export const newVerifier = random;

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export const challengeOf = (verifier: string): string =>
  createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** The Secret holding the session of `state`: its name says nothing about the state itself. */
export const sessionSecretName = (state: string): string =>
  `platform-oauth-session-${createHash('sha256').update(state).digest('hex').slice(0, 40)}`;

/** Where the browser goes: the provider's authorization endpoint with the code flow's parameters. */
export function authorizationUrl(p: OAuthProvider, state: string, verifier: string): string {
  const u = new URL(p.authorization_endpoint);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', p.client_id);
  u.searchParams.set('redirect_uri', p.redirect_uri);
  if (p.scopes.length > 0) u.searchParams.set('scope', p.scopes.join(' '));
  u.searchParams.set('state', state);
  u.searchParams.set('code_challenge', challengeOf(verifier));
  u.searchParams.set('code_challenge_method', 'S256');
  return u.toString();
}

/** The code-for-token form (RFC 6749 §4.1.3 with the RFC 7636 verifier). */
export const codeForm = (p: OAuthProvider, code: string, verifier: string): Record<string, string> => ({
  grant_type: 'authorization_code',
  code,
  redirect_uri: p.redirect_uri,
  code_verifier: verifier,
  client_id: p.client_id,
});

/** The refresh form (RFC 6749 §6). */
export const refreshForm = (p: OAuthProvider, refreshToken: string): Record<string, string> => ({
  grant_type: 'refresh_token',
  refresh_token: refreshToken,
  client_id: p.client_id,
});

/** HTTP Basic client authentication (RFC 6749 §2.3.1, form-encoded parts) when the client has a secret. */
export function clientAuth(p: OAuthProvider, secret: string | undefined): Record<string, string> {
  if (secret === undefined) return {};
  const enc = (s: string): string => encodeURIComponent(s).replace(/%20/g, '+');
  return { authorization: `Basic ${Buffer.from(`${enc(p.client_id)}:${enc(secret)}`).toString('base64')}` };
}

/** The tokens a token endpoint issued. */
export interface IssuedTokens {
  access_token: string;
  refresh_token?: string;
  /** ms since the epoch; undefined when the provider did not say. */
  expires_at?: number;
  scope?: string;
}

export type TokenAnswer = { ok: true; tokens: IssuedTokens } | { ok: false; code: string; message: string };

const PROVIDER_CODE_RE = /^[a-z0-9_.-]{1,64}$/i;

/** A provider's own error code, kept only when it is a plain token (never its description). */
export const providerCode = (value: unknown): string | undefined =>
  typeof value === 'string' && PROVIDER_CODE_RE.test(value) ? value : undefined;

function refusal(status: number, body: Record<string, unknown> | undefined): TokenAnswer {
  const theirs = providerCode(body?.error);
  const said = theirs ? ` (${theirs})` : '';
  return {
    ok: false,
    code: status >= 500 ? 'token_endpoint_failed' : 'token_refused',
    message: `the provider's token endpoint answered ${status}${said}`,
  };
}

const asObject = (body: unknown): Record<string, unknown> | undefined =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;

const invalid = (message: string): TokenAnswer => ({ ok: false, code: 'token_answer_invalid', message });

/** The optional parts of a token answer: refresh token, expiry, granted scope. */
function extrasOf(o: Record<string, unknown>, now: number): Omit<IssuedTokens, 'access_token'> {
  const refresh = o.refresh_token;
  const expiresIn = o.expires_in;
  const out: Omit<IssuedTokens, 'access_token'> = {};
  if (typeof refresh === 'string' && refresh.length > 0 && refresh.length <= 8192)
    out.refresh_token = refresh;
  if (typeof expiresIn === 'number' && expiresIn > 0) out.expires_at = now + expiresIn * 1000;
  if (typeof o.scope === 'string') out.scope = o.scope.slice(0, 1024);
  return out;
}

/** What a token endpoint's answer (status and parsed JSON, undefined when not JSON) means. */
export function readTokenAnswer(status: number, body: unknown, now: number): TokenAnswer {
  const object = asObject(body);
  if (status !== 200) return refusal(status, object);
  const token = object?.access_token;
  if (!object || typeof token !== 'string' || token.length === 0 || token.length > 8192) {
    return invalid('the token endpoint sent no access token');
  }
  const type = object.token_type;
  if (typeof type === 'string' && type.toLowerCase() !== 'bearer') {
    return invalid('the token endpoint sent a token of another type');
  }
  return { ok: true, tokens: { access_token: token, ...extrasOf(object, now) } };
}
