// RFC 8693 token exchange, the pure part (decision 142): the request's
// parameters checked, the active DelegationGrant of (user, agent, service)
// chosen, and the token's scope and lifetime bounded by the grant, the
// Access Manifest's account domain and the platform. Every refusal is an
// OAuthError with the RFC 8693 §2.2.2 / RFC 6749 §5.2 code.
import type { DelegationGrant } from '../../crds/generated/types.ts';
import { MAX_ACCESS_TOKEN_TTL_SECONDS } from '../../base/identity/access-token.ts';
import { accountDecision, type EffectiveManifest } from '../../policy/access-manifest.ts';
import { grantPhaseOf } from '../delegations/model.ts';
import { OAuthError, invalidRequest } from './errors.ts';
import { GRANT_TOKEN_EXCHANGE } from './metadata.ts';

export const TOKEN_TYPE_JWT = 'urn:ietf:params:oauth:token-type:jwt';
export const TOKEN_TYPE_ACCESS = 'urn:ietf:params:oauth:token-type:access_token';
export const TOKEN_TYPE_ID = 'urn:ietf:params:oauth:token-type:id_token';
/** The user's OIDC token, whichever type it is sent as, is verified the same way (decision 142). */
export const SUBJECT_TOKEN_TYPES = [TOKEN_TYPE_JWT, TOKEN_TYPE_ACCESS, TOKEN_TYPE_ID];

const SCOPE_TOKEN_RE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const SECONDS_RE = /^[1-9][0-9]{0,8}$/;

export interface ExchangeParams {
  grant_type?: string;
  subject_token?: string;
  subject_token_type?: string;
  actor_token?: string;
  actor_token_type?: string;
  requested_token_type?: string;
  scope?: string;
  audience?: string;
  resource?: string;
  /** The lifetime asked for, in seconds (not in RFC 8693; decision 142). */
  expires_in?: string;
}

export interface ExchangeRequest {
  subjectToken: string;
  actorToken: string;
  /** The service: the grant's `spec.service`, sent as `audience` (or `resource`). */
  service: string;
  /** Undefined: the grant's scopes. */
  scopes?: string[];
  ttlSeconds?: number;
}

function required(p: ExchangeParams, name: keyof ExchangeParams): string {
  const v = p[name];
  if (v === undefined || v === '') throw invalidRequest(`${name} is required`);
  return v;
}

function checkTypes(p: ExchangeParams): void {
  if (!SUBJECT_TOKEN_TYPES.includes(required(p, 'subject_token_type'))) {
    throw invalidRequest(`subject_token_type must be one of ${SUBJECT_TOKEN_TYPES.join(', ')}`);
  }
  if (required(p, 'actor_token_type') !== TOKEN_TYPE_JWT) {
    throw invalidRequest(`actor_token_type must be ${TOKEN_TYPE_JWT} (the agent's JWT-SVID)`);
  }
  if (p.requested_token_type !== undefined && p.requested_token_type !== TOKEN_TYPE_ACCESS) {
    throw invalidRequest(`requested_token_type must be ${TOKEN_TYPE_ACCESS}`);
  }
}

function serviceOf(p: ExchangeParams): string {
  if (p.audience !== undefined && p.resource !== undefined && p.audience !== p.resource) {
    throw new OAuthError('invalid_target', 'send audience or resource, not two different ones');
  }
  const service = p.audience ?? p.resource;
  if (service === undefined) throw invalidRequest('audience (the service of the delegation) is required');
  if (service === '') throw new OAuthError('invalid_target', 'audience must name a service');
  return service;
}

function scopesOf(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const tokens = raw.split(' ');
  if (tokens.some((t) => !SCOPE_TOKEN_RE.test(t))) {
    throw new OAuthError('invalid_scope', 'scope must be space-separated scope tokens (RFC 6749 §3.3)');
  }
  return [...new Set(tokens)];
}

export function exchangeRequest(p: ExchangeParams): ExchangeRequest {
  const grantType = required(p, 'grant_type');
  if (grantType !== GRANT_TOKEN_EXCHANGE) {
    throw new OAuthError('unsupported_grant_type', `grant_type must be ${GRANT_TOKEN_EXCHANGE} here`);
  }
  const subjectToken = required(p, 'subject_token');
  const actorToken = required(p, 'actor_token');
  checkTypes(p);
  if (p.expires_in !== undefined && !SECONDS_RE.test(p.expires_in)) {
    throw invalidRequest('expires_in must be a positive whole number of seconds');
  }
  const scopes = scopesOf(p.scope);
  return {
    subjectToken,
    actorToken,
    service: serviceOf(p),
    ...(scopes ? { scopes } : {}),
    ...(p.expires_in !== undefined ? { ttlSeconds: Number(p.expires_in) } : {}),
  };
}

/** Who delegates what to whom: the user (as the API names OIDC subjects), the agent, the service. */
export interface Delegation {
  user: string;
  namespace: string;
  agent: string;
  service: string;
}

const ofDelegation = (g: DelegationGrant, d: Delegation): boolean =>
  g.spec.user === d.user && g.spec.service === d.service;
const ofAgent = (g: DelegationGrant, d: Delegation): boolean =>
  g.metadata.namespace === d.namespace && g.spec.agent === d.agent;

/** Why no grant of this agent is active: revoked or expired ones, another agent's, or none. */
function noActiveGrant(mine: DelegationGrant[], others: DelegationGrant[], nowMs: number): OAuthError {
  const phases = new Set(mine.map((g) => grantPhaseOf(g, nowMs)));
  if (phases.has('revoked')) return new OAuthError('invalid_grant', 'the delegation grant was revoked');
  if (phases.has('expired')) return new OAuthError('invalid_grant', 'the delegation grant has expired');
  if (others.some((g) => grantPhaseOf(g, nowMs) === 'active')) {
    return new OAuthError('unauthorized_client', 'the delegation grant names another agent than the actor');
  }
  return new OAuthError('invalid_grant', 'no delegation grant of this service by this user to this agent');
}

/**
 * The active grant of the delegation covering `scopes` (the latest-expiring
 * one), or the refusal: invalid_grant without one, unauthorized_client when
 * only another agent holds one, invalid_scope when none covers the scopes.
 */
export function chooseGrant(
  grants: readonly DelegationGrant[],
  d: Delegation,
  scopes: readonly string[] | undefined,
  nowMs: number,
): DelegationGrant {
  const ofUser = grants.filter((g) => ofDelegation(g, d));
  const mine = ofUser.filter((g) => ofAgent(g, d));
  const active = mine
    .filter((g) => grantPhaseOf(g, nowMs) === 'active')
    .sort((a, b) => Date.parse(b.spec.expiresAt) - Date.parse(a.spec.expiresAt));
  if (active.length === 0)
    throw noActiveGrant(
      mine,
      ofUser.filter((g) => !ofAgent(g, d)),
      nowMs,
    );
  const covering = active.find((g) => (scopes ?? []).every((s) => g.spec.scopes.includes(s)));
  if (!covering) {
    const beyond = (scopes ?? []).filter((s) => !active.some((g) => g.spec.scopes.includes(s)));
    const named = beyond.length > 0 ? beyond.join(' ') : 'these scopes together';
    throw new OAuthError('invalid_scope', `the delegation grant does not cover ${named}`.slice(0, 300));
  }
  return covering;
}

export interface TokenTerms {
  scope: string;
  ttlSeconds: number;
}

const MANIFEST_ERRORS: Record<string, 'invalid_target' | 'invalid_scope'> = {
  service_not_permitted: 'invalid_target',
  scope_not_permitted: 'invalid_scope',
};

/**
 * The token's scope (as asked, else the grant's) and lifetime: the shortest of
 * the asked one, the grant's remaining time, the manifest's maximum
 * delegation and the platform's longest access token.
 */
export function tokenTerms(
  grant: DelegationGrant,
  manifest: EffectiveManifest,
  req: Pick<ExchangeRequest, 'scopes' | 'ttlSeconds' | 'service'>,
  nowMs: number,
): TokenTerms {
  const scopes = req.scopes ?? grant.spec.scopes;
  const decision = accountDecision(manifest, req.service, scopes);
  if (!decision.permitted) {
    throw new OAuthError(MANIFEST_ERRORS[decision.code] ?? 'invalid_grant', decision.reason.slice(0, 300));
  }
  const remaining = Math.floor((Date.parse(grant.spec.expiresAt) - nowMs) / 1000);
  const ttlSeconds = Math.min(
    req.ttlSeconds ?? MAX_ACCESS_TOKEN_TTL_SECONDS,
    remaining,
    Math.floor(decision.maxTtlMs / 1000),
    MAX_ACCESS_TOKEN_TTL_SECONDS,
  );
  if (ttlSeconds < 1) throw new OAuthError('invalid_grant', 'the delegation grant has expired');
  return { scope: scopes.join(' '), ttlSeconds };
}
