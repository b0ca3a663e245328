// The platform's OAuth authorization server (decision 137): its RFC 8414
// metadata and JWKS, public, and the token endpoint, where an agent
// authenticates with its JWT-SVID and gets an RFC 9068 access token
// (client_credentials). Errors in the RFC 6749 §5.2 shape; no answer is cached.
import { issueAccessToken } from '../../base/identity/access-token.ts';
import type { SigningKey, TrustBundle } from '../../base/identity/trust-keys.ts';
import { authenticateClient, clientAssertionOf, type ClientAuthParams } from '../oauth/client-auth.ts';
import { OAuthError } from '../oauth/errors.ts';
import { authorizationServerMetadata, jwksOf, JWKS_PATH, TOKEN_PATH } from '../oauth/metadata.ts';
import {
  CLIENT_CREDENTIALS_TTL_SECONDS,
  clientCredentialsRequest,
  type TokenParams,
} from '../oauth/token-request.ts';
import { bodyOf, type RouteCtx, type RouteSpec } from './route.ts';
import { OAUTH_JWKS, OAUTH_METADATA, OAUTH_TOKEN } from './responses.ts';

const param = (maxLength: number) => ({ type: 'string', maxLength }) as const;

/** The token request's parameters; others are ignored (RFC 6749 §3.2). */
const OAUTH_TOKEN_REQUEST = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: param(256),
    scope: param(2048),
    audience: param(512),
    resource: param(2048),
    client_id: param(253),
    client_secret: param(512),
    client_assertion_type: param(256),
    client_assertion: param(16384),
  },
} as const;

const unavailable = (rc: RouteCtx, err: unknown): OAuthError => {
  rc.deps.log.warn({ err: String((err as Error)?.message ?? err) }, 'trust-domain keys unavailable');
  return new OAuthError(
    'temporarily_unavailable',
    'the signing keys are unavailable; try again shortly',
    503,
  );
};

async function bundleOf(rc: RouteCtx): Promise<TrustBundle> {
  try {
    return await rc.deps.trustBundle();
  } catch (err) {
    throw unavailable(rc, err);
  }
}

/** The trust bundle and the key that signs now; 503 `temporarily_unavailable` without them. */
export async function signingKeys(rc: RouteCtx): Promise<{ bundle: TrustBundle; key: SigningKey }> {
  let found: [TrustBundle, SigningKey | undefined];
  try {
    found = await Promise.all([rc.deps.trustBundle(), rc.deps.signingKey()]);
  } catch (err) {
    throw unavailable(rc, err);
  }
  if (!found[1]) throw unavailable(rc, 'no signing key yet');
  return { bundle: found[0], key: found[1] };
}

async function token(rc: RouteCtx): Promise<unknown> {
  const params = bodyOf<TokenParams & ClientAuthParams>(rc);
  const issuer = rc.deps.oauthIssuer;
  rc.audit = { resource: 'oauth-token' };
  const assertion = clientAssertionOf(params, rc.authorization);
  const request = clientCredentialsRequest(params, issuer);
  const { bundle, key } = await signingKeys(rc);
  const client = await authenticateClient(assertion, {
    issuer,
    trustDomain: bundle.trust_domain,
    bundle: bundle.jwt_authorities,
    agentAt: (k) => rc.deps.agents.agent(k),
  });
  const issued = await issueAccessToken({
    issuer,
    subject: client.spiffeId,
    audience: request.audience,
    scope: request.scope,
    clientId: client.clientId,
    ttlSeconds: CLIENT_CREDENTIALS_TTL_SECONDS,
    key,
  });
  rc.deps.log.info(
    { client: client.clientId, jti: issued.jti, aud: request.audience },
    'access token issued',
  );
  return {
    access_token: issued.access_token,
    token_type: 'Bearer',
    expires_in: issued.expires_in,
    ...(request.scope ? { scope: request.scope } : {}),
  };
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export const OAUTH_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    action: 'public',
    summary: 'OAuth authorization server metadata (RFC 8414)',
    success: 200,
    response: OAUTH_METADATA,
    handle: (rc) => Promise.resolve(authorizationServerMetadata(rc.deps.oauthIssuer)),
  },
  {
    method: 'GET',
    path: JWKS_PATH,
    action: 'public',
    summary: 'The keys that sign access tokens, as a JWKS (the trust bundle’s JWT authorities)',
    success: 200,
    response: OAUTH_JWKS,
    handle: async (rc) => jwksOf(await bundleOf(rc)),
  },
  {
    method: 'POST',
    path: TOKEN_PATH,
    action: 'public',
    summary: 'Token endpoint: client_credentials with a JWT-SVID client assertion (RFC 6749 §4.4, RFC 7523)',
    success: 200,
    response: OAUTH_TOKEN,
    body: OAUTH_TOKEN_REQUEST,
    form: true,
    errorShape: 'oauth',
    headers: NO_STORE,
    handle: token,
  },
];
