// Checks shared by OAuth connect's start and callback (decision 278): the
// configured providers, and whether the caller may create the credential now.
import { HttpError } from '../../base/http-error.ts';
import { placeFor, scopeOf } from '../scoped/access.ts';
import type { OAuthProvider } from '../scoped/oauth-providers.ts';
import type { StartBody } from '../scoped/oauth-sessions.ts';
import { scopedName } from '../scoped/objects.ts';
import type { RouteCtx } from './route.ts';
import { refuseUnderEnforce } from './scoped-credentials.ts';

/** The configured providers; a broken file is the operator's 503, with its problems logged. */
export async function configuredProviders(rc: RouteCtx): Promise<OAuthProvider[]> {
  const parsed = await rc.deps.oauthConnect.providers();
  if (parsed.ok) return parsed.providers;
  rc.deps.log.warn({ problems: parsed.problems }, 'PLATFORM_OAUTH_PROVIDERS_FILE is invalid');
  throw new HttpError(
    503,
    'the OAuth provider configuration is invalid; the platform operator must fix it',
    'oauth_config_invalid',
  );
}

/** The caller may create this credential, now: its tier, the org's enforcement, no credential yet. */
export async function checkCreatable(rc: RouteCtx, body: StartBody): Promise<void> {
  const place = await placeFor(rc, scopeOf(body.scope), body.scope_id, true);
  await refuseUnderEnforce(rc, place, body.service);
  const name = scopedName('cred', place, body.service);
  if (await rc.deps.writer.readCredential(place.namespace, name)) {
    throw new HttpError(
      409,
      `this tier already holds a credential for service ${body.service} (${place.namespace}.${name}); revoke it first`,
      'credential_exists',
    );
  }
}
