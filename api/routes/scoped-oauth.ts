// Connecting a scoped credential by OAuth popup (decisions 274-280):
//   GET  /v1/scoped-credentials/oauth/providers         the services an operator configured
//   POST /v1/scoped-credentials/oauth/start             a pending session: the URL the popup opens
//   POST /v1/scoped-credentials/{id}/reconnect          the same, for new tokens in an existing OAuth credential
//   GET  /v1/scoped-credentials/oauth/callback          the provider's redirect: code → token → credential
//   GET  /v1/scoped-credentials/oauth/sessions/{state}  how the caller's session ended
// The callback has no bearer: the state is the binding. It answers a page
// that posts the outcome to the UI and closes the popup (./oauth-callback.ts).
import { notFound, unprocessable } from '../../base/http-error.ts';
import type { JSONSchema } from '../../crds/kit.ts';
import { authorizationUrl, newState, newVerifier, SESSION_TTL_MS, STATE_RE } from '../scoped/oauth-flow.ts';
import { CALLBACK_HEADERS } from '../scoped/oauth-page.ts';
import type { OAuthSession, StartBody } from '../scoped/oauth-sessions.ts';
import { callback } from './oauth-callback.ts';
import { checkCreatable, configuredProviders } from './oauth-checks.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { CREATE_BODY, ownCredential } from './scoped-credentials.ts';
import { credentialView, OAUTH_TYPES } from '../scoped/objects.ts';
import type { OAuthProvider } from '../scoped/oauth-providers.ts';

const createProps = CREATE_BODY.properties as Record<string, JSONSchema>;
const { type: _type, material: _material, ...startProps } = createProps;
const START_BODY: JSONSchema = { ...CREATE_BODY, properties: startProps };

const PROVIDERS: JSONSchema = {
  type: 'object',
  required: ['items'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['service', 'display_name', 'scopes'],
        properties: {
          service: { type: 'string' },
          display_name: { type: 'string' },
          scopes: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
};

const STARTED: JSONSchema = {
  type: 'object',
  required: ['authorization_url', 'state', 'expires_at'],
  properties: {
    authorization_url: { type: 'string' },
    state: { type: 'string' },
    expires_at: { type: 'string', format: 'date-time' },
  },
};

const ERROR_OBJECT: JSONSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'string' }, message: { type: 'string' } },
};

const SESSION: JSONSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['pending', 'connected', 'error'] },
    credential_id: { type: 'string' },
    error: ERROR_OBJECT,
  },
};

async function providers(rc: RouteCtx): Promise<unknown> {
  const items = (await configuredProviders(rc)).map((p) => ({
    service: p.service,
    display_name: p.display_name,
    scopes: p.scopes,
  }));
  return { items };
}

async function providerFor(rc: RouteCtx, service: string, instead: string): Promise<OAuthProvider> {
  const provider = (await configuredProviders(rc)).find((p) => p.service === service);
  if (!provider) {
    throw unprocessable(
      `no OAuth provider is configured for service ${service}; ${instead} instead`,
      'oauth_provider_unknown',
    );
  }
  return provider;
}

async function start(rc: RouteCtx): Promise<unknown> {
  const body = rc.body as StartBody;
  const provider = await providerFor(rc, body.service, 'connect it with an API key');
  await checkCreatable(rc, body);
  return openSession(rc, provider, body);
}

/** Reconnect: new tokens by the same popup flow, stored into the existing OAuth credential. */
async function reconnect(rc: RouteCtx): Promise<unknown> {
  const cred = await ownCredential(rc);
  const view = credentialView(cred);
  if (!OAUTH_TYPES.has(cred.spec.type)) {
    throw unprocessable(
      `credential ${view.id} holds an API key, not OAuth tokens; rotate it with new material instead`,
      'credential_not_oauth',
    );
  }
  const provider = await providerFor(rc, cred.spec.service, 'rotate it with a token');
  const request = {
    scope: view.scope,
    scope_id: view.scope_id,
    service: view.service,
    credential_id: view.id,
  };
  return openSession(rc, provider, request);
}

/** A pending session for `request`, stored where every replica sees it; the URL the popup opens. */
async function openSession(rc: RouteCtx, provider: OAuthProvider, request: StartBody): Promise<unknown> {
  await rc.deps.keyring();
  const now = rc.deps.now();
  const state = newState();
  const verifier = newVerifier();
  const { subject, method, orgAdmin, workspaceAdminOf, keyId } = rc.principal;
  const session: OAuthSession = {
    principal: { subject, method, orgAdmin, workspaceAdminOf, ...(keyId ? { keyId } : {}) },
    request,
    verifier,
    created_at: now,
    expires_at: now + SESSION_TTL_MS,
    status: 'pending',
  };
  const { sessions } = rc.deps.oauthConnect;
  await sessions.sweep(now).catch((err: unknown) => {
    rc.deps.log.warn({ err: String((err as Error)?.message ?? err) }, 'old OAuth sessions not swept');
  });
  await sessions.create(state, session);
  rc.audit.details = {
    service: request.service,
    oauth: request.credential_id ? 'reconnect_started' : 'started',
  };
  return {
    authorization_url: authorizationUrl(provider, state, verifier),
    state,
    expires_at: new Date(session.expires_at).toISOString(),
  };
}

/** A session as its starter sees it; expired while pending is an error. */
export function sessionView(s: OAuthSession, now: number): Record<string, unknown> {
  if (s.status === 'connected') return { status: 'connected', credential_id: s.credential_id };
  if (s.status === 'error') return { status: 'error', ...(s.error ? { error: s.error } : {}) };
  if (s.status === 'pending' && now > s.expires_at) {
    return {
      status: 'error',
      error: { code: 'state_expired', message: 'the connection was not completed in time' },
    };
  }
  return { status: 'pending' };
}

async function session(rc: RouteCtx): Promise<unknown> {
  const state = rc.params.state ?? '';
  const gone = notFound('no OAuth session of yours has this state');
  if (!STATE_RE.test(state)) throw gone;
  const stored = await rc.deps.oauthConnect.sessions.read(state);
  const p = stored?.session.principal;
  if (!stored || p?.subject !== rc.principal.subject || p.method !== rc.principal.method) throw gone;
  return sessionView(stored.session, rc.deps.now());
}

export const SCOPED_OAUTH_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/scoped-credentials/oauth/providers',
    action: 'scoped.list',
    summary: 'The services a credential can be connected with by OAuth (configured by the platform operator)',
    success: 200,
    response: PROVIDERS,
    handle: providers,
  },
  {
    method: 'POST',
    path: '/v1/scoped-credentials/oauth/start',
    action: 'scoped.write',
    summary: 'Start connecting a credential by OAuth (authorization code with PKCE): the URL the popup opens',
    success: 201,
    response: STARTED,
    body: START_BODY,
    handle: start,
  },
  {
    method: 'POST',
    path: '/v1/scoped-credentials/{id}/reconnect',
    action: 'scoped.write',
    summary:
      'Reconnect an OAuth credential: a new sign-in by popup whose tokens replace its material (same flow as start)',
    success: 201,
    response: STARTED,
    handle: reconnect,
  },
  {
    method: 'GET',
    path: '/v1/scoped-credentials/oauth/callback',
    action: 'public',
    auditAction: 'scoped.oauth_callback',
    summary:
      "The provider's redirect: exchanges the code, stores the token as the credential's material, answers a page that tells the UI and closes",
    success: 200,
    produces: 'text/html',
    query: {
      code: 'the authorization code',
      state: 'the state start returned',
      error: "the provider's error code, instead of a code",
      error_description: "the provider's words (never shown or kept)",
      iss: 'the issuer (RFC 9207), when the provider sends it',
    },
    headers: CALLBACK_HEADERS,
    handle: callback,
  },
  {
    method: 'GET',
    path: '/v1/scoped-credentials/oauth/sessions/{state}',
    action: 'scoped.list',
    summary:
      'How an OAuth connect the caller started ended: pending, connected (with the credential) or error',
    success: 200,
    response: SESSION,
    handle: session,
  },
];
