// Pure consent and delegation logic (spec "OBO consent", "States and
// transitions"; decisions 134, 135): who may ask for, answer and revoke a
// delegation, how Customize narrows it, the objects written and their API views.
import { randomBytes } from 'node:crypto';
import type { ConsentRequest, DelegationGrant } from '../../crds/generated/types.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../base/http-error.ts';
import { API_VERSION, LABEL } from '../../contract/kube.ts';
import type { Principal } from '../auth/principal.ts';
import { shareRoleOf, type Owner } from '../policy/roles.ts';

/** The longest delegation until the Access Manifest's account domain sets one per service. */
export const DEFAULT_MAX_DELEGATION_TTL_MS = 24 * 3_600_000;
/** A grant's lifetime when neither the request nor the answer names one (capped by the maximum). */
export const DEFAULT_DELEGATION_TTL_MS = 3_600_000;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000 };

/** `15m`, `1h` (the CRDs' duration) in milliseconds; undefined when malformed. */
export function ttlMs(ttl: string | undefined): number | undefined {
  const m = /^([1-9][0-9]{0,5})([mh])$/.exec(ttl ?? '');
  return m ? Number(m[1]) * (UNIT_MS[m[2] as string] as number) : undefined;
}

export interface ConsentInput {
  user: string;
  service: string;
  scopes: string[];
  ttl?: string;
  reason?: string;
}

/** What the agent is (namespace, name, uid, share list): enough to own and check. */
export interface AgentFacts {
  namespace: string;
  name: string;
  uid: string;
  owners: readonly Owner[];
}

/**
 * Why this request for consent is refused, or nothing: the delegating user
 * must be on the agent's share list (delegated access never reaches beyond
 * the agent's owners), and the TTL must be within the maximum.
 */
export function assertRequestable(input: ConsentInput, agent: AgentFacts, maxTtlMs: number): void {
  if (!shareRoleOf(input.user, agent.owners)) {
    throw unprocessable(`${input.user} is not an owner, editor or viewer of this agent`, 'user_not_shared');
  }
  const ttl = ttlMs(input.ttl);
  if (input.ttl !== undefined && ttl === undefined)
    throw unprocessable('ttl must look like 15m or 1h', 'invalid_ttl');
  if (ttl !== undefined && ttl > maxTtlMs) {
    throw unprocessable(`ttl ${input.ttl} is over the maximum of ${maxTtlMs / 60_000}m`, 'ttl_too_long');
  }
}

/**
 * A Gateway key asks only for agents it serves: a workspace-limited key for
 * agents in its workspaces, an agent-bound key for its own agent (the same
 * scope as its Evidence). Human callers were checked by the policy table.
 */
export function assertGatewayServes(principal: Principal, agentId: string): void {
  if (!principal.gateway) return;
  const workspaces = principal.gatewayWorkspaces ?? [];
  const agents = principal.gatewayAgents ?? [];
  const ns = agentId.split('.')[0] ?? '';
  if (
    (workspaces.length > 0 && !workspaces.includes(ns)) ||
    (agents.length > 0 && !agents.includes(agentId))
  ) {
    throw forbidden(`this gateway key does not serve agent ${agentId}`);
  }
}

const agentOwnerRef = (agent: AgentFacts) => [
  { apiVersion: API_VERSION, kind: 'PlatformAgent', name: agent.name, uid: agent.uid },
];

export function newConsent(input: ConsentInput, agent: AgentFacts): ConsentRequest {
  return {
    apiVersion: API_VERSION,
    kind: 'ConsentRequest',
    metadata: {
      namespace: agent.namespace,
      name: `consent-${randomBytes(6).toString('hex')}`,
      labels: { [LABEL.agent]: agent.name },
      ownerReferences: agentOwnerRef(agent),
    },
    spec: {
      user: input.user,
      agent: agent.name,
      service: input.service,
      scopes: [...new Set(input.scopes)],
      ...(input.ttl ? { ttl: input.ttl } : {}),
      ...(input.reason ? { reason: input.reason } : {}),
    },
  };
}

/** When a pending consent lapses: its TTL after creation. */
export function consentExpiresAtMs(c: ConsentRequest, consentTtlMs: number): number {
  const created = Date.parse(String(c.metadata.creationTimestamp ?? ''));
  return Number.isNaN(created) ? Number.POSITIVE_INFINITY : created + consentTtlMs;
}

/** `pending` until answered or lapsed; a lapsed one is `expired` here before the controller resolves it. */
export function consentPhaseOf(c: ConsentRequest, nowMs: number, consentTtlMs: number): string {
  if (c.status?.phase === 'resolved') return 'resolved';
  return consentExpiresAtMs(c, consentTtlMs) <= nowMs ? 'expired' : 'pending';
}

export interface Answer {
  scopes?: string[];
  ttl?: string;
}

export interface GrantTerms {
  scopes: string[];
  ttl: string;
  resolution: 'allowed' | 'customized';
}

const ttlText = (ms: number): string => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${ms / 60_000}m`);

/**
 * What Allow or Customize grants: the requested scopes and TTL, or fewer
 * scopes (a non-empty subset; never one not requested) and a TTL no longer
 * than requested and than the maximum. 422 when the answer asks for more.
 */
export function grantTerms(consent: ConsentRequest, answer: Answer, maxTtlMs: number): GrantTerms {
  const requested = consent.spec.scopes;
  const scopes = answer.scopes ? [...new Set(answer.scopes)] : [...requested];
  const extra = scopes.filter((s) => !requested.includes(s));
  if (extra.length > 0) throw unprocessable(`not requested: ${extra.join(', ')}`, 'scope_not_requested');
  if (scopes.length === 0) throw unprocessable('a grant delegates at least one scope', 'no_scopes');
  const requestedMs = Math.min(ttlMs(consent.spec.ttl) ?? DEFAULT_DELEGATION_TTL_MS, maxTtlMs);
  const answeredMs = answer.ttl === undefined ? requestedMs : ttlMs(answer.ttl);
  if (answeredMs === undefined) throw unprocessable('ttl must look like 15m or 1h', 'invalid_ttl');
  if (answeredMs > requestedMs) {
    throw unprocessable(
      `ttl ${answer.ttl} is longer than the ${ttlText(requestedMs)} requested`,
      'ttl_too_long',
    );
  }
  const narrowed = scopes.length < requested.length || answeredMs < requestedMs;
  return { scopes, ttl: ttlText(answeredMs), resolution: narrowed ? 'customized' : 'allowed' };
}

/** Only the human whose access is delegated answers, once, before the consent lapses. */
export function assertAnswerable(
  c: ConsentRequest,
  subject: string,
  nowMs: number,
  consentTtlMs: number,
): void {
  if (c.spec.user !== subject) throw forbidden(`only ${c.spec.user} may answer this consent request`);
  const phase = consentPhaseOf(c, nowMs, consentTtlMs);
  if (phase !== 'pending') throw conflict(`the consent request is already ${phase}`, 'consent_resolved');
}

export function newGrant(
  c: ConsentRequest,
  terms: GrantTerms,
  agent: AgentFacts,
  nowMs: number,
): DelegationGrant {
  return {
    apiVersion: API_VERSION,
    kind: 'DelegationGrant',
    metadata: {
      namespace: agent.namespace,
      name: `grant-${randomBytes(6).toString('hex')}`,
      labels: { [LABEL.agent]: agent.name },
      ownerReferences: agentOwnerRef(agent),
    },
    spec: {
      user: c.spec.user,
      agent: agent.name,
      service: c.spec.service,
      scopes: terms.scopes,
      ttl: terms.ttl,
      grantedAt: new Date(nowMs).toISOString(),
      expiresAt: new Date(nowMs + (ttlMs(terms.ttl) ?? 0)).toISOString(),
      consentRef: c.metadata.name ?? '',
    },
  };
}

/** `active` until expiresAt; revoked and expired are final (the controller writes them too). */
export function grantPhaseOf(g: DelegationGrant, nowMs: number): string {
  const phase = g.status?.phase;
  if (phase === 'revoked' || g.status?.revokedTime) return 'revoked';
  if (phase === 'expired' || Date.parse(g.spec.expiresAt) <= nowMs) return 'expired';
  return 'active';
}

/** The agent's Owners and the grant's user revoke; 409 once it is no longer active. */
export function assertRevocable(
  g: DelegationGrant,
  subject: string,
  owners: readonly Owner[],
  nowMs: number,
): void {
  if (g.spec.user !== subject && shareRoleOf(subject, owners) !== 'Owner') {
    throw forbidden('only an Owner of the agent or the delegating user may revoke this grant');
  }
  const phase = grantPhaseOf(g, nowMs);
  if (phase !== 'active') throw conflict(`the grant is already ${phase}`, 'grant_inactive');
}

/** The consent or grant of `agent` named `name`, else 404. */
export function ofAgent<T extends ConsentRequest | DelegationGrant>(
  obj: T | undefined,
  agent: string,
  what: string,
): T {
  if (!obj || obj.spec.agent !== agent) throw notFound(`${what} not found`);
  return obj;
}

const agentIdOf = (o: { metadata: { namespace?: string } }, agent: string) =>
  `${o.metadata.namespace}.${agent}`;

const isoOrNull = (ms: number): string | null => (Number.isFinite(ms) ? new Date(ms).toISOString() : null);

export function consentView(c: ConsentRequest, nowMs: number, consentTtlMs: number): Record<string, unknown> {
  const status = c.status ?? {};
  return {
    id: c.metadata.name,
    agent_id: agentIdOf(c, c.spec.agent),
    user: c.spec.user,
    service: c.spec.service,
    scopes: c.spec.scopes,
    ttl: c.spec.ttl ?? null,
    reason: c.spec.reason ?? null,
    phase: consentPhaseOf(c, nowMs, consentTtlMs),
    resolution: status.resolution ?? null,
    resolved_by: status.resolvedBy ?? null,
    requested_at: isoOrNull(Date.parse(String(c.metadata.creationTimestamp ?? ''))),
    expires_at: isoOrNull(consentExpiresAtMs(c, consentTtlMs)),
    grant_id: status.grantRef ?? null,
  };
}

export function grantView(g: DelegationGrant, nowMs: number): Record<string, unknown> {
  return {
    id: g.metadata.name,
    agent_id: agentIdOf(g, g.spec.agent),
    user: g.spec.user,
    service: g.spec.service,
    scopes: g.spec.scopes,
    ttl: g.spec.ttl ?? null,
    granted_at: g.spec.grantedAt,
    expires_at: g.spec.expiresAt,
    phase: grantPhaseOf(g, nowMs),
    consent_id: g.spec.consentRef ?? null,
    revoked_at: g.status?.revokedTime ?? null,
    revoked_by: g.status?.revokedBy ?? null,
  };
}
