// The authentication middleware: `Authorization: Bearer <token>` is tried
// against each authenticator in turn (API key, OIDC, TokenReview); the first
// that recognises the token decides. Missing, malformed, invalid or expired
// credentials are 401.
import type { Context, Next } from 'koa';
import { unauthorized } from '../../base/http-error.ts';
import type { ApiMetrics } from '../http/metrics.ts';
import type { Authenticator, Principal } from './principal.ts';

const BEARER_RE = /^Bearer ([A-Za-z0-9._~+/=-]{1,8192})$/;

export async function authenticateToken(
  header: string,
  authenticators: readonly Authenticator[],
): Promise<Principal | string> {
  if (header === '') return 'missing Authorization: Bearer <token>';
  const token = BEARER_RE.exec(header)?.[1];
  if (!token) return 'malformed Authorization header; expected Bearer <token>';
  for (const a of authenticators) {
    const result = await a.authenticate(token);
    if (!result) continue;
    return 'principal' in result ? result.principal : result.reject;
  }
  return 'credential not recognised';
}

/** Sets `ctx.state.principal` or throws 401. Routes marked public skip it. */
export function authenticate(authenticators: readonly Authenticator[], metrics?: ApiMetrics) {
  return async function requirePrincipal(ctx: Context, next: Next): Promise<void> {
    const outcome = await authenticateToken(ctx.get('authorization'), authenticators);
    if (typeof outcome === 'string') {
      metrics?.authFailures.inc({ reason: outcome.split(/[;:]/)[0]!.slice(0, 40) });
      throw unauthorized(outcome);
    }
    ctx.state.principal = outcome;
    await next();
  };
}
