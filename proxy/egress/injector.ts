// The credential proxy's injection step (issue 19): the credential a routed
// call carries, by the rule's injection method, which the agent never sees.
// - sidecar: the credential's material from the Verifier (kept 60 s);
// - client_credentials: a token from the rule's token endpoint (or the
//   platform's own) for a JWT-SVID assertion, kept for
//   min(expires_in, ttl_seconds);
// - token_exchange: RFC 8693 at the platform's /v1/token-exchange, the user's
//   token as subject and the pod's JWT-SVID as actor, kept per (user token,
//   service) only, so one user's token never serves another user's request.
// Every credential goes out as `Authorization: Bearer` and the agent's own
// credential headers are stripped (decision 172). Refreshed at 80 % of a
// lifetime, one fetch per key at a time; `invalidate` forgets exactly the
// entry `inject` used. Neither tokens nor material are ever logged.
import { createHash } from 'node:crypto';
import { clientCredentialsForm, jwtExpiry, type FormTokenOutcome } from '../../base/identity/token-client.ts';
import {
  InjectionError,
  type EgressRule,
  type InjectionContext,
  type InjectionMethod,
  type Injection,
  type Injector,
} from '../../contract/egress.ts';
import { CredentialCache, type Loaded } from './credential-cache.ts';
import {
  readCredential,
  readMountedSvid,
  requestSvid,
  requestToken,
  type VerifierAccess,
} from './credential-sources.ts';

/** The agent's own credential headers, removed from every routed request (decision 172). */
export const STRIPPED_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'cookie',
];

export const GRANT_TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const TOKEN_TYPE_JWT = 'urn:ietf:params:oauth:token-type:jwt';
export const TOKEN_TYPE_ACCESS = 'urn:ietf:params:oauth:token-type:access_token';
/** Refusals of the exchange that mean "this user has not delegated this": the agent gets 403 with the code. */
const GRANT_REFUSALS = ['invalid_grant', 'invalid_target', 'invalid_scope', 'unauthorized_client'];
/** A token endpoint that does not say how long its token lives: kept this long at most. */
const DEFAULT_TOKEN_SECONDS = 300;

export interface InjectorOptions {
  verifierUrl: string;
  agentId: string;
  /** The agent's Gateway key (Contract C routes). */
  apiKey?: string;
  /** The platform's OAuth token endpoint (client_credentials rules without their own). */
  platformTokenUrl?: string;
  /** The platform's RFC 8693 endpoint (`<issuer>/v1/token-exchange`). */
  tokenExchangeUrl?: string;
  /** `PLATFORM_SVID_DIR`: the pod's mounted JWT-SVID. */
  svidDir?: string;
  /** Deadline of each call to the Verifier or a token endpoint (10 s). */
  timeoutMs?: number;
  /** How long sidecar material is used before it is read again (60 s). */
  materialTtlMs?: number;
  /** Credentials kept at most (one per sidecar credential, rule, and user and service). */
  maxEntries?: number;
  now?: () => number;
}

interface Source {
  /** The cache key of the credential `inject` would use; throws when the call cannot have one. */
  key(rule: EgressRule, ctx: InjectionContext): string;
  load(rule: EgressRule, ctx: InjectionContext): Promise<Loaded<string>>;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const incomplete = (rule: EgressRule, field: string): InjectionError =>
  new InjectionError(
    502,
    'rule_incomplete',
    `the ${rule.injectionMethod} rule for ${rule.destination} has no ${field}`,
  );

/** How long a token is kept: its own lifetime, bounded by the rule's ttl_seconds. */
function lifetimeMs(rule: EgressRule, expiresInSeconds: number | undefined): number {
  const seconds = Math.min(
    expiresInSeconds ?? rule.ttlSeconds ?? DEFAULT_TOKEN_SECONDS,
    rule.ttlSeconds ?? Number.POSITIVE_INFINITY,
  );
  return seconds * 1000;
}

/** A server's OAuth error code, fit for a message: RFC 6749 §5.2 codes are short lower-case words. */
const codeOf = (error: string | undefined): string =>
  error !== undefined && /^[a-z_]{1,64}$/.test(error) ? error : 'no error code';

function tokenOf(outcome: FormTokenOutcome, refused: (error: string | undefined) => InjectionError) {
  if (!outcome.ok) throw refused(outcome.error);
  return outcome;
}

function sidecarSource(v: VerifierAccess, materialTtlMs: number): Source {
  return {
    key: (rule) => `sidecar\0${rule.credentialRef ?? ''}`,
    async load(rule) {
      if (!rule.credentialRef) throw incomplete(rule, 'credential_ref');
      const material = await readCredential(v, rule.credentialRef);
      return { value: material.value, lifetimeMs: materialTtlMs };
    },
  };
}

function clientCredentialsSource(v: VerifierAccess, o: InjectorOptions): Source {
  return {
    key: (rule) =>
      `client_credentials\0${JSON.stringify([rule.destination, rule.tokenEndpoint, rule.clientId, rule.audience, rule.ttlSeconds])}`,
    async load(rule) {
      const url = rule.tokenEndpoint ?? o.platformTokenUrl;
      if (!url) throw incomplete(rule, 'token endpoint (and the proxy knows no platform token endpoint)');
      const own = url === o.platformTokenUrl;
      const svid = own ? await readMountedSvid(o.svidDir) : await requestSvid(v, rule.audience ?? url);
      const outcome = await requestToken(url, clientCredentialsForm(svid, rule.clientId), v.timeoutMs);
      const token = tokenOf(
        outcome,
        (error) =>
          new InjectionError(502, 'token_endpoint_refused', `the token endpoint refused (${codeOf(error)})`),
      );
      return { value: token.accessToken, lifetimeMs: lifetimeMs(rule, token.expiresIn) };
    },
  };
}

function exchangeRefusal(error: string | undefined): InjectionError {
  if (error && GRANT_REFUSALS.includes(error)) {
    return new InjectionError(
      403,
      error,
      'the platform refused the token exchange for this user and service',
    );
  }
  return new InjectionError(502, 'token_exchange_failed', `the token exchange failed (${codeOf(error)})`);
}

function subjectOf(ctx: InjectionContext): string {
  if (!ctx.subjectToken) {
    throw new InjectionError(
      403,
      'user_token_required',
      'this destination is called on behalf of a user: send their token',
    );
  }
  return ctx.subjectToken;
}

function tokenExchangeSource(o: InjectorOptions, timeoutMs: number, now: () => number): Source {
  return {
    key: (rule, ctx) => `token_exchange\0${sha256(subjectOf(ctx))}\0${rule.service}`,
    async load(rule, ctx) {
      const subject = subjectOf(ctx);
      if (!o.tokenExchangeUrl) throw incomplete(rule, 'token exchange endpoint');
      const actor = await readMountedSvid(o.svidDir);
      const params: Record<string, string> = {
        grant_type: GRANT_TOKEN_EXCHANGE,
        subject_token: subject,
        subject_token_type: TOKEN_TYPE_JWT,
        actor_token: actor,
        actor_token_type: TOKEN_TYPE_JWT,
        requested_token_type: TOKEN_TYPE_ACCESS,
        audience: rule.service,
        ...(rule.ttlSeconds ? { expires_in: String(rule.ttlSeconds) } : {}),
      };
      const token = tokenOf(await requestToken(o.tokenExchangeUrl, params, timeoutMs), exchangeRefusal);
      // Not kept past the user's own token: their session ending ends the agent's use of it.
      const subjectExp = jwtExpiry(subject);
      const untilSubjectEnds =
        subjectExp === undefined ? Number.POSITIVE_INFINITY : subjectExp * 1000 - now();
      return {
        value: token.accessToken,
        lifetimeMs: Math.min(lifetimeMs(rule, token.expiresIn), untilSubjectEnds),
      };
    },
  };
}

/** Waits for `work` unless the caller goes away first (the shared fetch goes on for the others). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new InjectionError(502, 'aborted', 'the call was abandoned'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new InjectionError(502, 'aborted', 'the call was abandoned'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const bearer = (token: string): Injection => ({
  set: { authorization: `Bearer ${token}` },
  strip: STRIPPED_HEADERS,
});

/** A failure a cached credential may outlive: its source is down, not refusing. */
const transient = (err: unknown): boolean => err instanceof InjectionError && err.status >= 500;

export function createInjector(o: InjectorOptions): Injector {
  const now = o.now ?? Date.now;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const v: VerifierAccess = { verifierUrl: o.verifierUrl, agentId: o.agentId, apiKey: o.apiKey, timeoutMs };
  const cache = new CredentialCache<string>({ now, keepOnError: transient, maxEntries: o.maxEntries });
  const sources: Record<InjectionMethod, Source> = {
    sidecar: sidecarSource(v, o.materialTtlMs ?? 60_000),
    client_credentials: clientCredentialsSource(v, o),
    token_exchange: tokenExchangeSource(o, timeoutMs, now),
  };
  return {
    async inject(rule, ctx) {
      const source = sources[rule.injectionMethod];
      const key = source.key(rule, ctx);
      return bearer(
        await untilAborted(
          cache.get(key, () => source.load(rule, ctx)),
          ctx.signal,
        ),
      );
    },
    invalidate(rule, ctx) {
      if (rule.injectionMethod === 'token_exchange' && !ctx.subjectToken) return;
      cache.invalidate(sources[rule.injectionMethod].key(rule, ctx));
    },
  };
}
