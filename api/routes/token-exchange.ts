// POST /v1/token-exchange (RFC 8693; decision 142): the user's OIDC token
// (subject) and the agent's JWT-SVID (actor) become a delegation token with
// `sub` the human and `act.sub` the agent, for one service, when an active
// DelegationGrant of (user, agent, service) covers the scopes and the Access
// Manifest permits them. Public (both tokens are the credentials); every use,
// issued or refused, is audited with the human, the agent, the service and
// the outcome. Errors in the RFC 6749 §5.2 shape; no answer is cached.
import type { DelegationGrant } from '../../crds/generated/types.ts';
import { issueAccessToken } from '../../base/identity/access-token.ts';
import { verifyJwtSvid } from '../../base/identity/jwt-svid.ts';
import type { TrustBundle } from '../../base/identity/trust-keys.ts';
import { refusedCharacter } from '../../base/hygiene.ts';
import type { PlatformAgent } from '../agents/model.ts';
import { agentAccessManifest } from '../delegations/agent-manifest.ts';
import { agentOf, clientRefusal } from '../oauth/client-auth.ts';
import { OAuthError } from '../oauth/errors.ts';
import { tokenEndpointOf } from '../oauth/metadata.ts';
import { SubjectTokenLedger } from '../oauth/subject-ledger.ts';
import {
  chooseGrant,
  exchangeRequest,
  tokenTerms,
  TOKEN_TYPE_ACCESS,
  type Delegation,
  type ExchangeParams,
  type ExchangeRequest,
} from '../oauth/token-exchange.ts';
import { grantsOfDelegation } from '../store/grant-index.ts';
import { signingKeys } from './oauth.ts';
import { bodyOf, type RouteCtx, type RouteSpec } from './route.ts';
import { TOKEN_EXCHANGED } from './responses.ts';

export const TOKEN_EXCHANGE_PATH = '/v1/token-exchange';

const param = (maxLength: number) => ({ type: 'string', maxLength }) as const;

/** The exchange's parameters; others are ignored (RFC 6749 §3.2). */
const EXCHANGE_REQUEST = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: param(256),
    subject_token: param(16384),
    subject_token_type: param(256),
    actor_token: param(16384),
    actor_token_type: param(256),
    requested_token_type: param(256),
    scope: param(2048),
    audience: param(512),
    resource: param(2048),
    expires_in: param(12),
  },
} as const;

interface VerifiedUser {
  subject: string;
  /** The key of the subject token in the replay ledger, and its expiry. */
  ledgerKey: string;
  exp: number;
}

/** The human behind the subject token, verified exactly as API authentication verifies OIDC tokens. */
async function userOf(rc: RouteCtx, token: string): Promise<VerifiedUser> {
  const oidc = rc.deps.userTokens;
  if (!oidc) throw new OAuthError('invalid_grant', 'no OIDC issuer is configured to verify subject tokens');
  const verified = await oidc.verify(token);
  if (!verified) throw new OAuthError('invalid_grant', 'the subject token is not a token of the OIDC issuer');
  if ('reject' in verified) throw new OAuthError('invalid_grant', `subject token: ${verified.reject}`);
  const subject = verified.principal.subject;
  if (refusedCharacter(subject) !== undefined) {
    throw new OAuthError('invalid_grant', 'the subject token names a subject with control characters');
  }
  rc.audit.principal = { subject, method: 'oidc' };
  const ledgerKey = SubjectTokenLedger.keyOf(oidc.issuer, verified.payload.jti, token);
  return { subject, ledgerKey, exp: verified.payload.exp ?? 0 };
}

/** The agent whose JWT-SVID the actor token is: not suspended, with its OAuth client and an Owner. */
async function actorOf(rc: RouteCtx, token: string, bundle: TrustBundle): Promise<PlatformAgent> {
  const issuer = rc.deps.oauthIssuer;
  const verified = await verifyJwtSvid(token, {
    bundle: bundle.jwt_authorities,
    audience: [`${issuer}${TOKEN_EXCHANGE_PATH}`, tokenEndpointOf(issuer), issuer],
    trustDomain: bundle.trust_domain,
  });
  if (!verified.ok) {
    throw new OAuthError(
      'unauthorized_client',
      `the actor token is not a valid JWT-SVID: ${verified.reason}`,
    );
  }
  const agent = agentOf(verified.spiffeId, {
    trustDomain: bundle.trust_domain,
    agentAt: (k) => rc.deps.agents.agent(k),
  });
  if (!agent) throw new OAuthError('unauthorized_client', 'no agent holds the SPIFFE ID of the actor token');
  const refusal = clientRefusal(agent);
  if (refusal) throw new OAuthError('unauthorized_client', refusal);
  return agent;
}

/**
 * The grant chosen from the cache, then read fresh: a revocation the cache
 * has not seen yet still refuses (the same choice, on the stored copy).
 */
async function activeGrant(rc: RouteCtx, d: Delegation, scopes?: string[]): Promise<DelegationGrant> {
  const grants = grantsOfDelegation(rc.deps.grants, d.user, d.service);
  const cached = chooseGrant(grants, d, scopes, rc.deps.now());
  const fresh = await rc.deps.writer.readGrant(d.namespace, cached.metadata.name ?? '');
  return chooseGrant(fresh ? [fresh] : [], d, scopes, rc.deps.now());
}

function note(rc: RouteCtx, details: Record<string, unknown>): void {
  rc.audit.details = { ...rc.audit.details, ...details };
}

async function exchangeFor(rc: RouteCtx, req: ExchangeRequest): Promise<Record<string, unknown>> {
  const user = await userOf(rc, req.subjectToken);
  note(rc, { user: user.subject, service: req.service });
  const { bundle, key } = await signingKeys(rc);
  const agent = await actorOf(rc, req.actorToken, bundle);
  const spiffeId = agent.status!.spiffeId!;
  rc.audit.namespace = agent.metadata.namespace ?? '';
  note(rc, { agent: spiffeId });
  const d: Delegation = {
    user: user.subject,
    namespace: agent.metadata.namespace ?? '',
    agent: agent.metadata.name ?? '',
    service: req.service,
  };
  const grant = await activeGrant(rc, d, req.scopes);
  note(rc, { grant: grant.metadata.name });
  const terms = tokenTerms(grant, await agentAccessManifest(rc.deps.writer, agent), req, rc.deps.now());
  const nowSeconds = Math.floor(rc.deps.now() / 1000);
  if (!rc.deps.exchangedSubjects.claim(user.ledgerKey, spiffeId, user.exp, nowSeconds)) {
    throw new OAuthError('invalid_grant', 'the subject token was already exchanged by another agent');
  }
  const issued = await issueAccessToken({
    issuer: rc.deps.oauthIssuer,
    subject: user.subject,
    audience: req.service,
    scope: terms.scope,
    clientId: agent.status!.oauthClientId!,
    actor: spiffeId,
    ttlSeconds: terms.ttlSeconds,
    key,
  });
  note(rc, { outcome: 'issued', scope: terms.scope, jti: issued.jti, expires_in: issued.expires_in });
  return {
    access_token: issued.access_token,
    issued_token_type: TOKEN_TYPE_ACCESS,
    token_type: 'Bearer',
    expires_in: issued.expires_in,
    scope: terms.scope,
  };
}

async function exchange(rc: RouteCtx): Promise<unknown> {
  rc.audit = { resource: 'token-exchange' };
  try {
    return await exchangeFor(rc, exchangeRequest(bodyOf<ExchangeParams>(rc)));
  } catch (err) {
    note(rc, { outcome: err instanceof OAuthError ? err.code : 'error' });
    throw err;
  }
}

export const TOKEN_EXCHANGE_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: TOKEN_EXCHANGE_PATH,
    action: 'public',
    auditAction: 'delegation.token_exchange',
    summary:
      'RFC 8693 token exchange: the user’s OIDC token (subject) and the agent’s JWT-SVID (actor) for a delegation token with an act claim',
    success: 200,
    response: TOKEN_EXCHANGED,
    body: EXCHANGE_REQUEST,
    form: true,
    errorShape: 'oauth',
    headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
    handle: exchange,
  },
];
