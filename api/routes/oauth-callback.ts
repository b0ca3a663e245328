// The OAuth callback (decisions 277, 278): the provider sends the browser here
// with `code` and `state` (or `error`). The state names a pending session; the
// first callback claims it (single use), the starter's right to create the
// credential (or, for a reconnect, to change it) is checked again, the code is exchanged with the PKCE verifier,
// and the token becomes the credential's material as the API key path stores
// it (plus the refresh token and expiry under `oauth` in the same Secret).
// Every outcome is a page (200) with a code; nothing thrown, no code or token
// in the page, a log line or the audit entry.
import { toHttpError } from '../http/errors.ts';
import { apiStatus } from '../../base/kube.ts';
import type { Principal } from '../auth/principal.ts';
import { checkTier, objectName, scopeOf, placeFor } from '../scoped/access.ts';
import { providerCode, STATE_RE, type IssuedTokens } from '../scoped/oauth-flow.ts';
import { callbackPage, type CallbackOutcome } from '../scoped/oauth-page.ts';
import type { OAuthProvider } from '../scoped/oauth-providers.ts';
import type { OAuthSession } from '../scoped/oauth-sessions.ts';
import { exchangeCode } from '../scoped/oauth-token.ts';
import { credentialObject, objectId } from '../scoped/objects.ts';
import { tokenSecret } from '../scoped/oauth-refresh.ts';
import type { SharingMode } from '../scoped/credential-cascade.ts';
import type { RouteCtx } from './route.ts';
import { checkCreatable, configuredProviders } from './oauth-checks.ts';
import { createOnce, replaceMaterial } from './scoped-credentials.ts';

type Failure = { code: string; message: string };

class Refused extends Error {
  constructor(readonly failure: Failure) {
    super(failure.code);
  }
}

const refuse = (code: string, message: string): Refused => new Refused({ code, message });

/** Reconnect: the tokens replace the material of the credential the session names, if it is still there. */
async function renewTokens(rc: RouteCtx, id: string, tokens: IssuedTokens): Promise<string> {
  const { namespace, name } = objectName(id, 'scoped credential');
  const cred = await rc.deps.writer.readCredential(namespace, name);
  if (!cred)
    throw refuse('credential_gone', 'the credential was revoked while you signed in; connect it anew');
  checkTier(rc, { scope: cred.spec.scope, namespace }, true);
  await replaceMaterial(rc, cred, (c, keyring) => tokenSecret(c, keyring, tokens));
  return objectId(cred);
}

async function storeTokens(rc: RouteCtx, s: OAuthSession, tokens: IssuedTokens): Promise<string> {
  if (s.request.credential_id) return renewTokens(rc, s.request.credential_id, tokens);
  const keyring = await rc.deps.keyring();
  const place = await placeFor(rc, scopeOf(s.request.scope), s.request.scope_id, true);
  const input = {
    service: s.request.service,
    type: 'oauth_token' as const,
    sharing_mode: (s.request.sharing_mode ?? 'inherit') as SharingMode,
    ...(s.request.destinations ? { destinations: s.request.destinations } : {}),
    hasMaterial: true,
  };
  const created = await createOnce(rc, credentialObject(place, input));
  const secret = tokenSecret(created, keyring, tokens);
  try {
    await rc.deps.writer.putSecret(secret);
  } catch (err) {
    await rc.deps.writer.deleteCredential(created.metadata.namespace ?? '', created.metadata.name ?? '');
    throw err;
  }
  return objectId(created);
}

/** The starter may still create this credential: their key is live, their tier rights hold. */
async function checkStarter(rc: RouteCtx, s: OAuthSession): Promise<void> {
  const keyId = s.principal.keyId;
  if (keyId) {
    const key = await rc.deps.keys.lookup(keyId);
    const expired = key?.expiresAt !== undefined && Date.parse(key.expiresAt) <= rc.deps.now();
    if (!key || expired)
      throw refuse('caller_revoked', 'the API key that started the connection is no longer valid');
  }
  rc.principal = { ...s.principal, workspaceAdminOf: [...s.principal.workspaceAdminOf] } as Principal;
  // A reconnect's credential exists by design: its tier is checked where the tokens are stored.
  if (!s.request.credential_id) await checkCreatable(rc, s.request);
}

/** Reads and claims the session: unknown, expired and used states are refused. */
async function claim(rc: RouteCtx, state: string): Promise<OAuthSession> {
  const unknown = refuse('state_unknown', 'this connection is not known; start it again');
  if (!STATE_RE.test(state)) throw unknown;
  const { sessions } = rc.deps.oauthConnect;
  const stored = await sessions.read(state);
  if (!stored) throw unknown;
  const s = stored.session;
  if (s.status !== 'pending') throw refuse('state_used', 'this connection was already completed or refused');
  if (rc.deps.now() > s.expires_at)
    throw refuse('state_expired', 'the connection was not completed within 10 minutes');
  const claimed: OAuthSession = { ...s, status: 'exchanging' };
  if (!(await sessions.replace(state, claimed, stored.version))) {
    throw refuse('state_used', 'this connection was already completed or refused');
  }
  return claimed;
}

async function complete(rc: RouteCtx, s: OAuthSession, provider: OAuthProvider | undefined): Promise<string> {
  const q = rc.query;
  if (q.error !== undefined) {
    const theirs = providerCode(q.error);
    throw refuse('provider_error', `the provider refused${theirs ? ` (${theirs})` : ''}`);
  }
  if (!provider)
    throw refuse(
      'oauth_provider_unknown',
      `no OAuth provider is configured for ${s.request.service} any more`,
    );
  if (!q.code || q.code.length > 4096)
    throw refuse('code_missing', 'the provider sent no authorization code');
  await checkStarter(rc, s);
  const answer = await exchangeCode(provider, q.code, s.verifier, rc.deps.now);
  if (!answer.ok) throw refuse(answer.code, answer.message);
  return storeTokens(rc, s, answer.tokens);
}

/** What went wrong, in words without a secret: refusals as they are, HTTP errors by their code. */
function failureOf(rc: RouteCtx, err: unknown): Failure {
  if (err instanceof Refused) return err.failure;
  const http = toHttpError(err);
  if (http && http.status < 500) return { code: http.code ?? 'refused', message: http.detail };
  if (http?.code === 'keyring_unavailable') return { code: http.code, message: http.detail };
  rc.deps.log.warn({ status: apiStatus(err) ?? null }, 'OAuth connect failed');
  return { code: 'connect_failed', message: 'the credential could not be stored; try again' };
}

async function settle(
  rc: RouteCtx,
  state: string,
  provider: (s: string) => OAuthProvider | undefined,
): Promise<CallbackOutcome> {
  let session: OAuthSession | undefined;
  // The audit entry names the starter (once the state is known) and the service, never a code or token.
  const note = (details: Record<string, unknown>): void => {
    const who = session?.principal;
    rc.audit = {
      ...rc.audit,
      ...(who ? { principal: { subject: who.subject, method: who.method } } : {}),
      details: { ...(session ? { service: session.request.service } : {}), ...details },
    };
  };
  try {
    session = await claim(rc, state);
    const credential_id = await complete(rc, session, provider(session.request.service));
    await rc.deps.oauthConnect.sessions.replace(
      state,
      { ...session, status: 'connected', credential_id },
      '',
    );
    note({ outcome: 'connected', credential: credential_id });
    return { state, status: 'connected', credential_id };
  } catch (err) {
    const error = failureOf(rc, err);
    if (session) {
      await rc.deps.oauthConnect.sessions
        .replace(state, { ...session, status: 'error', error }, '')
        .catch(() => false);
    }
    note({ outcome: error.code });
    return { state: STATE_RE.test(state) ? state : '', status: 'error', error };
  }
}

/** The callback route: always the page, never a thrown error. */
export async function callback(rc: RouteCtx): Promise<unknown> {
  rc.audit = { resource: 'oauth:callback' };
  const state = rc.query.state ?? '';
  let providers: OAuthProvider[] = [];
  try {
    providers = await configuredProviders(rc);
  } catch {
    providers = [];
  }
  const byService = (service: string): OAuthProvider | undefined =>
    providers.find((p) => p.service === service);
  const outcome = await settle(rc, state, byService);
  const session = outcome.state
    ? await rc.deps.oauthConnect.sessions.read(state).catch(() => undefined)
    : undefined;
  const provider = (session && byService(session.session.request.service)) ?? providers[0];
  return callbackPage(outcome, provider ? new URL(provider.redirect_uri).origin : undefined);
}
