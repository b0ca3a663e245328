// The caller's delegations across every agent, for the approvals page: the
// consent requests waiting for its answer, and the active grants it may
// revoke (its own, or on an agent it owns). One call instead of one per agent.
import type { ConsentRequest, DelegationGrant } from '../../crds/generated/types.ts';
import { consentPhaseOf, consentView, grantPhaseOf, grantView } from '../delegations/model.ts';
import { shareRoleOf } from '../policy/roles.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { CONSENT_LIST, GRANT_LIST } from './responses.ts';

const newestFirst = (a: ConsentRequest | DelegationGrant, b: ConsentRequest | DelegationGrant): number =>
  String(b.metadata.creationTimestamp).localeCompare(String(a.metadata.creationTimestamp));

function myPending(rc: RouteCtx): Promise<unknown> {
  const now = rc.deps.now();
  const ttl = rc.deps.consentTtlMs;
  const items = rc.deps.consents
    .list()
    .filter((c) => c.spec.user === rc.principal.subject && consentPhaseOf(c, now, ttl) === 'pending')
    .sort(newestFirst)
    .map((c) => consentView(c, now, ttl));
  rc.audit = { resource: 'delegations:pending', details: { returned: items.length } };
  return Promise.resolve({ items });
}

/** A grant the caller may revoke: its own, or one on an agent it is an Owner of (api/delegations/model.ts). */
function revocableBy(rc: RouteCtx, g: DelegationGrant): boolean {
  if (g.spec.user === rc.principal.subject) return true;
  const agent = rc.deps.agents.agent(`${g.metadata.namespace ?? ''}/${g.spec.agent}`);
  return shareRoleOf(rc.principal.subject, agent?.spec.owners ?? []) === 'Owner';
}

function myGrants(rc: RouteCtx): Promise<unknown> {
  const now = rc.deps.now();
  const items = rc.deps.grants
    .list()
    .filter((g) => grantPhaseOf(g, now) === 'active' && revocableBy(rc, g))
    .sort(newestFirst)
    .map((g) => grantView(g, now));
  rc.audit = { resource: 'delegations', details: { returned: items.length } };
  return Promise.resolve({ items });
}

export const MY_DELEGATION_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/delegations/pending',
    action: 'delegation.mine',
    summary: 'Consent requests of every agent that wait for your answer',
    success: 200,
    response: CONSENT_LIST,
    handle: myPending,
  },
  {
    method: 'GET',
    path: '/v1/delegations',
    action: 'delegation.mine',
    summary: 'Active delegation grants you may revoke: your own, and those on agents you own',
    success: 200,
    response: GRANT_LIST,
    handle: myGrants,
  },
];
