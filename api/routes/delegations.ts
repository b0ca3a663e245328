// OBO delegation over the API (spec "Identity and delegation", CLARIFICATIONS
// consents row; decisions 134, 135):
//   POST   /v1/agents/{agent_id}/delegations/pending                    ask for consent (agent's Gateway key, Editor+)
//   GET    /v1/agents/{agent_id}/delegations/pending                    pending consent requests
//   POST   /v1/agents/{agent_id}/delegations/pending/{consent_id}/deny  Deny (the delegating user)
//   POST   /v1/agents/{agent_id}/delegations                            Allow / Customize → the grant
//   GET    /v1/agents/{agent_id}/delegations                            active grants
//   DELETE /v1/agents/{agent_id}/delegations/{grant_id}                 revoke (Owners, the user)
// A consent resolves once: its status is written with its resourceVersion
// before any grant exists, so of two answers one wins and the other is 409.
import type { ConsentRequest, DelegationGrant } from '../../crds/generated/types.ts';
import { apiStatus } from '../../base/kube.ts';
import { conflict, unprocessable, type HttpError } from '../../base/http-error.ts';
import type { PlatformAgent } from '../agents/model.ts';
import {
  assertAnswerable,
  assertGatewayServes,
  assertRequestable,
  assertRevocable,
  consentPhaseOf,
  consentView,
  grantPhaseOf,
  grantTerms,
  grantView,
  newConsent,
  newGrant,
  ofAgent,
  type AgentFacts,
  type Answer,
  type ConsentInput,
} from '../delegations/model.ts';
import { agentAccessManifest } from '../delegations/agent-manifest.ts';
import { accountDecision } from '../../policy/access-manifest.ts';
import { bodyOf, type RouteCtx, type RouteSpec } from './route.ts';
import { CONSENT_DENIED, CONSENT_LIST, CONSENT_VIEW, GRANT_LIST, GRANT_VIEW } from './responses.ts';

const NAME = { type: 'string', minLength: 1, maxLength: 253, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' };
const TTL = { type: 'string', maxLength: 7, pattern: '^[1-9][0-9]{0,5}[mh]$' };
const SCOPES = {
  type: 'array',
  minItems: 1,
  maxItems: 64,
  items: { type: 'string', minLength: 1, maxLength: 253 },
};

const REQUEST_BODY = {
  type: 'object',
  required: ['user', 'service', 'scopes'],
  additionalProperties: false,
  properties: {
    user: { type: 'string', minLength: 1, maxLength: 256 },
    service: { type: 'string', minLength: 1, maxLength: 253 },
    scopes: SCOPES,
    ttl: TTL,
    reason: { type: 'string', maxLength: 4096 },
  },
};
const ANSWER_BODY = {
  type: 'object',
  required: ['consent_id'],
  additionalProperties: false,
  properties: { consent_id: NAME, scopes: SCOPES, ttl: TTL },
};

function factsOf(rc: RouteCtx): AgentFacts {
  const agent = rc.agent as PlatformAgent;
  return {
    namespace: agent.metadata.namespace ?? '',
    name: agent.metadata.name ?? '',
    uid: agent.metadata.uid ?? '',
    owners: agent.spec.owners ?? [],
  };
}

const VALID_NAME = new RegExp(NAME.pattern);

async function consentOf(rc: RouteCtx, id: string): Promise<ConsentRequest> {
  const { namespace, name } = factsOf(rc);
  const found = VALID_NAME.test(id) ? await rc.deps.writer.readConsent(namespace, id) : undefined;
  return ofAgent(found, name, `consent request ${id.slice(0, 80)}`);
}

/**
 * The longest delegation of `scopes` of `service` the agent's Access Manifest
 * permits (never over the platform's); 422 with its code when it refuses them.
 */
async function manifestMaxTtlMs(rc: RouteCtx, service: string, scopes: readonly string[]): Promise<number> {
  const manifest = await agentAccessManifest(rc.deps.writer, rc.agent as PlatformAgent);
  const decision = accountDecision(manifest, service, scopes);
  if (!decision.permitted) throw unprocessable(decision.reason, decision.code);
  return Math.min(decision.maxTtlMs, rc.deps.maxDelegationTtlMs);
}

async function request(rc: RouteCtx): Promise<unknown> {
  const input = bodyOf<ConsentInput>(rc);
  const agent = factsOf(rc);
  assertGatewayServes(rc.principal, `${agent.namespace}.${agent.name}`);
  assertRequestable(input, agent, await manifestMaxTtlMs(rc, input.service, input.scopes));
  const created = await rc.deps.writer.createConsent(newConsent(input, agent));
  let stored = created;
  try {
    stored = await rc.deps.writer.patchConsentStatus(created, { phase: 'pending' });
  } catch (err) {
    rc.deps.log.warn({ err: String(err) }, 'could not mark consent pending; it reads as pending anyway');
  }
  rc.audit.details = { consent: stored.metadata.name, user: input.user, service: input.service };
  return consentView(stored, rc.deps.now(), rc.deps.consentTtlMs);
}

const answeredFirst = (): HttpError =>
  conflict('the consent request was answered first; reload', 'consent_resolved');

/**
 * Writes the answer with the consent's resourceVersion: the loser of a race is 409 `consent_resolved`.
 * A 409 is another answer only when the request is no longer pending: the operator writes the
 * `Ready` condition too (controllers/ready), so a still-pending request is re-read and answered once more.
 */
export async function recordAnswer(
  rc: RouteCtx,
  consent: ConsentRequest,
  status: NonNullable<ConsentRequest['status']>,
): Promise<ConsentRequest> {
  try {
    return await rc.deps.writer.patchConsentStatus(consent, status);
  } catch (err) {
    const code = apiStatus(err);
    if (code === 422) throw answeredFirst();
    if (code !== 409) throw err;
  }
  const fresh = await rc.deps.writer.readConsent(
    consent.metadata.namespace ?? '',
    consent.metadata.name ?? '',
  );
  if (!fresh || consentPhaseOf(fresh, rc.deps.now(), rc.deps.consentTtlMs) !== 'pending')
    throw answeredFirst();
  return rc.deps.writer.patchConsentStatus(fresh, status).catch((err: unknown) => {
    throw [409, 422].includes(apiStatus(err) ?? 0) ? answeredFirst() : err;
  });
}

const resolution = (rc: RouteCtx, now: number, resolved: 'allowed' | 'denied' | 'customized') => ({
  phase: 'resolved' as const,
  resolution: resolved,
  resolvedBy: rc.principal.subject,
  resolvedTime: new Date(now).toISOString(),
});

async function allow(rc: RouteCtx): Promise<unknown> {
  const { consent_id, ...answer } = bodyOf<Answer & { consent_id: string }>(rc);
  const consent = await consentOf(rc, consent_id);
  const now = rc.deps.now();
  assertAnswerable(consent, rc.principal.subject, now, rc.deps.consentTtlMs);
  const granted = answer.scopes ?? consent.spec.scopes;
  const terms = grantTerms(consent, answer, await manifestMaxTtlMs(rc, consent.spec.service, granted));
  const grant = newGrant(consent, terms, factsOf(rc), now);
  await recordAnswer(rc, consent, {
    ...resolution(rc, now, terms.resolution),
    grantRef: grant.metadata.name ?? '',
  });
  const stored = await rc.deps.writer.createGrant(grant);
  rc.audit.details = { consent: consent_id, grant: stored.metadata.name, resolution: terms.resolution };
  return grantView(stored, now);
}

async function deny(rc: RouteCtx): Promise<unknown> {
  const consent = await consentOf(rc, rc.params.consent_id ?? '');
  const now = rc.deps.now();
  assertAnswerable(consent, rc.principal.subject, now, rc.deps.consentTtlMs);
  const stored = await recordAnswer(rc, consent, resolution(rc, now, 'denied'));
  rc.audit.details = { consent: consent.metadata.name, resolution: 'denied' };
  return { consent: consentView(stored, now, rc.deps.consentTtlMs) };
}

async function revoke(rc: RouteCtx): Promise<unknown> {
  const agent = factsOf(rc);
  const id = rc.params.grant_id ?? '';
  const found = VALID_NAME.test(id) ? await rc.deps.writer.readGrant(agent.namespace, id) : undefined;
  const grant = ofAgent<DelegationGrant>(found, agent.name, `grant ${id.slice(0, 80)}`);
  const now = rc.deps.now();
  assertRevocable(grant, rc.principal.subject, agent.owners, now);
  const status = {
    phase: 'revoked' as const,
    revokedTime: new Date(now).toISOString(),
    revokedBy: rc.principal.subject,
  };
  await recordRevocation(rc, grant, status);
  rc.audit.details = { grant: id, user: grant.spec.user };
  return undefined;
}

const grantChanged = (): HttpError => conflict('the grant changed meanwhile; reload', 'grant_inactive');

/** Writes the revocation; on a 409 (the operator's `Ready` write) once more if the grant is still active. */
export async function recordRevocation(
  rc: RouteCtx,
  grant: DelegationGrant,
  status: NonNullable<DelegationGrant['status']>,
): Promise<void> {
  try {
    await rc.deps.writer.patchGrantStatus(grant, status);
    return;
  } catch (err) {
    if (apiStatus(err) !== 409) throw err;
  }
  const fresh = await rc.deps.writer.readGrant(grant.metadata.namespace ?? '', grant.metadata.name ?? '');
  if (!fresh || grantPhaseOf(fresh, rc.deps.now()) !== 'active') throw grantChanged();
  await rc.deps.writer.patchGrantStatus(fresh, status).catch((err: unknown) => {
    throw apiStatus(err) === 409 ? grantChanged() : err;
  });
}

/** The agent's objects in a cache, newest first. */
function ofThisAgent<T extends ConsentRequest | DelegationGrant>(rc: RouteCtx, items: T[]): T[] {
  const { namespace, name } = factsOf(rc);
  return items
    .filter((o) => o.metadata.namespace === namespace && o.spec.agent === name)
    .sort((a, b) => String(b.metadata.creationTimestamp).localeCompare(String(a.metadata.creationTimestamp)));
}

function listPending(rc: RouteCtx): Promise<unknown> {
  const now = rc.deps.now();
  const ttl = rc.deps.consentTtlMs;
  const items = ofThisAgent(rc, rc.deps.consents.list())
    .filter((c) => consentPhaseOf(c, now, ttl) === 'pending')
    .map((c) => consentView(c, now, ttl));
  return Promise.resolve({ items });
}

function listGrants(rc: RouteCtx): Promise<unknown> {
  const now = rc.deps.now();
  const items = ofThisAgent(rc, rc.deps.grants.list())
    .filter((g) => grantPhaseOf(g, now) === 'active')
    .map((g) => grantView(g, now));
  return Promise.resolve({ items });
}

/** Pending consents that wait for `subject`'s answer (the notification badge). */
export function pendingConsentsFor(rc: RouteCtx): number {
  const now = rc.deps.now();
  return rc.deps.consents
    .list()
    .filter(
      (c) =>
        c.spec.user === rc.principal.subject && consentPhaseOf(c, now, rc.deps.consentTtlMs) === 'pending',
    ).length;
}

const BASE = '/v1/agents/{agent_id}/delegations';

export const DELEGATION_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: `${BASE}/pending`,
    action: 'delegation.read',
    summary: 'Pending consent requests of the agent',
    success: 200,
    response: CONSENT_LIST,
    handle: listPending,
  },
  {
    method: 'POST',
    path: `${BASE}/pending`,
    action: 'delegation.request',
    summary: "Ask a user's consent to act on their behalf (the agent's Gateway key, Editor+)",
    success: 201,
    response: CONSENT_VIEW,
    body: REQUEST_BODY,
    handle: request,
  },
  {
    method: 'POST',
    path: `${BASE}/pending/{consent_id}/deny`,
    action: 'delegation.answer',
    summary: 'Deny a consent request (the delegating user)',
    success: 200,
    response: CONSENT_DENIED,
    handle: deny,
  },
  {
    method: 'GET',
    path: BASE,
    action: 'delegation.read',
    summary: 'Active delegation grants of the agent',
    success: 200,
    response: GRANT_LIST,
    handle: listGrants,
  },
  {
    method: 'POST',
    path: BASE,
    action: 'delegation.answer',
    summary: 'Allow or Customize a consent request (the delegating user): creates the grant',
    success: 201,
    response: GRANT_VIEW,
    body: ANSWER_BODY,
    handle: allow,
  },
  {
    method: 'DELETE',
    path: `${BASE}/{grant_id}`,
    action: 'delegation.revoke',
    summary: "Revoke a grant at once (the agent's Owners, the delegating user)",
    success: 204,
    handle: revoke,
  },
];
