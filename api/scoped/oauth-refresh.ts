// An OAuth credential's tokens in its Secret, and their refresh (decision
// 280): the access token is the `material`; the refresh token, expiry and
// granted scope are encrypted under `oauth` beside it. When the credential
// proxy reads the material (at start, every 60 s, and anew after a 401 from
// the target) and the token expires within a minute, the Verifier runs the
// refresh grant with the provider's client and stores and serves the new
// token; if it cannot, it serves the stored one and says why in a log line.
import type * as k8s from '@kubernetes/client-node';
import { decrypt, encrypt, type Keyring } from '../../base/crypto/envelope.ts';
import type { ScopedCredential } from '../../crds/generated/types.ts';
import type { ApiDeps } from '../routes/route.ts';
import type { IssuedTokens } from './oauth-flow.ts';
import { refreshTokens } from './oauth-token.ts';
import { materialSecret, OAUTH_TYPES } from './objects.ts';
import type { OAuthProvider } from './oauth-providers.ts';

/** The refresh token and expiry, beside the material in the credential's Secret. */
export const OAUTH_KEY = 'oauth';
/** A token this close to its expiry is refreshed. */
export const REFRESH_AHEAD_MS = 60_000;

export type StoredOAuth = Omit<IssuedTokens, 'access_token'>;

/** The credential's Secret: the access token as its material, the refresh token and expiry beside it. */
export function tokenSecret(cred: ScopedCredential, keyring: Keyring, tokens: IssuedTokens): k8s.V1Secret {
  const secret = materialSecret(cred, keyring, tokens.access_token);
  const { namespace = '', name = '' } = secret.metadata ?? {};
  if (tokens.refresh_token || tokens.expires_at) {
    const extra: StoredOAuth = {
      refresh_token: tokens.refresh_token,
      expires_at: tokens.expires_at,
      scope: tokens.scope,
    };
    const record = encrypt(keyring, JSON.stringify(extra), `${namespace}/${name}/${OAUTH_KEY}`);
    secret.stringData = { ...secret.stringData, [OAUTH_KEY]: record };
  }
  return secret;
}

/** Whether stored tokens should be refreshed now: a refresh token, and an expiry within a minute. */
export const needsRefresh = (
  o: StoredOAuth | undefined,
  now: number,
): o is StoredOAuth & { refresh_token: string } =>
  Boolean(o?.refresh_token) && o?.expires_at !== undefined && o.expires_at - REFRESH_AHEAD_MS <= now;

type RefreshDeps = Pick<ApiDeps, 'writer' | 'keyring' | 'oauthConnect' | 'log' | 'now'>;

async function storedOAuth(deps: RefreshDeps, cred: ScopedCredential): Promise<StoredOAuth | undefined> {
  const namespace = cred.metadata.namespace ?? '';
  const name = cred.spec.secretRef?.name ?? '';
  const record = await deps.writer.readSecretValue(namespace, name, OAUTH_KEY);
  if (record === undefined) return undefined;
  try {
    const plain = decrypt(await deps.keyring(), record, `${namespace}/${name}/${OAUTH_KEY}`);
    return JSON.parse(plain.toString('utf8')) as StoredOAuth;
  } catch {
    return undefined;
  }
}

async function providerOf(deps: RefreshDeps, service: string): Promise<OAuthProvider | undefined> {
  const parsed = await deps.oauthConnect.providers();
  return parsed.ok ? parsed.providers.find((p) => p.service === service) : undefined;
}

async function storeRefreshed(
  deps: RefreshDeps,
  cred: ScopedCredential,
  tokens: IssuedTokens,
): Promise<void> {
  await deps.writer.putSecret(tokenSecret(cred, await deps.keyring(), tokens));
  const status = { authStatus: 'connected' as const, lastRotatedTime: new Date(deps.now()).toISOString() };
  await deps.writer
    .mergeCredentialStatus(cred.metadata.namespace ?? '', cred.metadata.name ?? '', status)
    .catch(() => undefined);
}

/** The material to serve for `cred`: `value`, or a refreshed token when it is about to expire. */
export async function freshMaterial(
  deps: RefreshDeps,
  cred: ScopedCredential,
  value: string,
): Promise<string> {
  // An `oauth_flow` credential reconnected by popup holds tokens too (decision 301).
  if (!OAUTH_TYPES.has(cred.spec.type) || !cred.spec.secretRef) return value;
  const stored = await storedOAuth(deps, cred);
  if (!needsRefresh(stored, deps.now())) return value;
  const where = `${cred.metadata.namespace ?? ''}/${cred.metadata.name ?? ''}`;
  const provider = await providerOf(deps, cred.spec.service);
  if (!provider) {
    deps.log.warn({ credential: where }, 'OAuth credential expiring, no provider configured to refresh it');
    return value;
  }
  const answer = await refreshTokens(provider, stored.refresh_token, deps.now);
  if (!answer.ok) {
    deps.log.warn({ credential: where, code: answer.code }, 'OAuth credential not refreshed');
    return value;
  }
  const tokens = { ...answer.tokens, refresh_token: answer.tokens.refresh_token ?? stored.refresh_token };
  await storeRefreshed(deps, cred, tokens);
  deps.log.info({ credential: where }, 'OAuth credential refreshed');
  return tokens.access_token;
}
