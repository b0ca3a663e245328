// The passport: the agent's profile as evidence shows it. Owners (the
// accountable humans), the agent's own accesses (its model calls, rendered
// from its signed Evidence, and its data accesses, as its credential proxy
// recorded them), the trust tier per auditor in its chain and the
// attestation results recorded so far.
import { DEFAULT_CHAIN_IDS, SYSTEM_AUDITOR_IDS } from '../../auditors/builtin.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import type { AttestationResult } from '../../evidence/result.ts';
import type { StoredEvidence } from '../../evidence/store.ts';
import type { StoredAccess } from '../../accesses/store.ts';
import { auditorTrustFacts, registeredTier } from '../registry/auditors.ts';
import { ownerCount, type PlatformAgent } from './model.ts';
import { agentIdOf } from '../../contract/agent-id.ts';

/** One access the agent made: a model call (its signed Evidence) or a data access (its credential proxy's record). */
export interface AccessRecord {
  /** `model_call`: from Evidence; `data_access`: from the data-access log. */
  source: 'model_call' | 'data_access';
  time: string;
  /**
   * What was reached: `model:<id>` for a model call (`model` when the request
   * named none); `host:port` and the path (no query) for a data access.
   */
  resource: string;
  /**
   * `model.request` (prompt audited) or `model.response` (answer audited), or
   * the Evidence phase; a data access's method (`GET`, `CONNECT`, `tools/call`).
   */
  operation: string;
  decision: 'allow' | 'deny';
  blocked: boolean;
  evidence_id?: string;
  /** The user the call was for: a model call's claimed end user, a data access's on-behalf user. */
  user_id?: string;
  /** Data accesses: the record's place in the data-access log, and what the proxy saw. */
  access_seq?: number;
  action?: string;
  outcome?: string;
  status?: number;
  service?: string;
}

/**
 * Accesses are rendered from attested Evidence (spec: the passport is
 * "rendered from attested evidence"), not kept in an API replica's memory:
 * every replica reads the same store, and nothing unsigned can appear here.
 */
export function accessesFromEvidence(entries: readonly StoredEvidence[]): AccessRecord[] {
  return entries.map(({ evidence: e }) => ({
    source: 'model_call' as const,
    time: e.generated_at,
    resource: e.model_id ? `model:${e.model_id}` : 'model',
    operation: e.phase === 'request' || e.phase === 'response' ? `model.${e.phase}` : e.phase,
    decision: e.decision,
    blocked: e.blocked,
    evidence_id: e.evidence_id,
    ...(e.user_id ? { user_id: e.user_id } : {}),
  }));
}

/** Only a forwarded call reached its target (an upstream error was still allowed out). */
const ALLOWED_OUTCOMES = new Set(['forwarded', 'upstream_error']);

/** The data accesses the agent's credential proxy recorded, as the passport shows them. */
export function accessesFromDataLog(entries: readonly StoredAccess[]): AccessRecord[] {
  return entries.map(({ seq, access: a }) => {
    const allowed = ALLOWED_OUTCOMES.has(a.outcome);
    return {
      source: 'data_access' as const,
      time: a.at,
      resource: `${a.destination}${a.path ?? ''}`,
      operation: a.method,
      decision: allowed ? ('allow' as const) : ('deny' as const),
      blocked: !allowed,
      access_seq: seq,
      action: a.action,
      outcome: a.outcome,
      ...(a.status !== null ? { status: a.status } : {}),
      ...(a.service !== null ? { service: a.service } : {}),
      ...(a.user !== null ? { user_id: a.user } : {}),
    };
  });
}

/**
 * Model calls and data accesses together, newest first, at most `limit`.
 * Each list comes newest first; the sort is stable, so equal times keep it.
 */
export function mergedAccesses(
  modelCalls: readonly AccessRecord[],
  dataAccesses: readonly AccessRecord[],
  limit: number,
): AccessRecord[] {
  const at = (r: AccessRecord): number => Date.parse(r.time) || 0;
  return [...modelCalls, ...dataAccesses].sort((a, b) => at(b) - at(a)).slice(0, limit);
}

/** CLARIFICATIONS: the built-in default chain when an agent names none. */
export const DEFAULT_CHAIN = [...DEFAULT_CHAIN_IDS, ...SYSTEM_AUDITOR_IDS];

export type TrustTier = 'tee_attested' | 'mtls_verified' | 'key_authenticated' | 'unverified';

export function chainOf(agent: PlatformAgent): string[] {
  const c = agent.spec.auditorChain;
  const ids = [...(c?.preRequest ?? []), ...(c?.postResponse ?? [])].map((r) => r.auditorId);
  return ids.length > 0 ? [...new Set(ids)] : DEFAULT_CHAIN;
}

export interface Passport {
  agent_id: string;
  email: string | null;
  handle: string | null;
  spiffe_id: string | null;
  oauth_client_id: string | null;
  phase: string;
  owners: { subject: string; role: string }[];
  accountable_owners: number;
  accesses: AccessRecord[];
  /** Every access on record for the agent: its model calls (Evidence) and data accesses; `accesses` shows the newest. */
  access_count: number;
  /** Per auditor of the chain: what its registration earns, and the tier its last attestation showed. */
  trust_tiers: {
    auditor_id: string;
    deployment_mode: string | null;
    trust_tier: TrustTier;
    attested_tier: TrustTier | null;
  }[];
  attestation: PassportAttestation;
}

export interface PassportAttestation {
  /** The last AttestationResult's tier (else the status's). */
  trust_tier: string | null;
  hardware_attested: boolean;
  last_attestation_time: string | null;
  /** auditor id → tier of its latest attestation (status summary, then newer results). */
  auditor_tiers: Record<string, TrustTier>;
  /** The latest AttestationResults, newest first. */
  results: AttestationResult[];
}

/** auditor id → tier: the status summary, overlaid with the results (oldest first, so the newest wins). */
function auditorTiersOf(agent: PlatformAgent, results: AttestationResult[]): Record<string, TrustTier> {
  const tiers: Record<string, TrustTier> = { ...agent.status?.passport?.trustTiers };
  for (const r of [...results].reverse()) for (const a of r.auditors) tiers[a.auditor_id] = a.trust_tier;
  return tiers;
}

/** The later of the status's last attestation time and the newest result's, if either is known. */
function latestTimeOf(statusTime: string | undefined, latest: AttestationResult | undefined): string | null {
  const times = [statusTime, latest?.verified_at].filter((t): t is string => Boolean(t));
  return times.sort().at(-1) ?? null;
}

/** The attestation part: the status summary (cluster-wide) overlaid with the results read from the evidence store. */
export function attestationOf(agent: PlatformAgent, results: AttestationResult[]): PassportAttestation {
  const s = agent.status;
  const latest = results[0];
  return {
    trust_tier: latest?.trust_tier ?? s?.trustTier ?? null,
    hardware_attested: latest?.hardware_attested ?? false,
    last_attestation_time: latestTimeOf(s?.passport?.lastAttestationTime, latest),
    auditor_tiers: auditorTiersOf(agent, results),
    results,
  };
}

function identity(
  agent: PlatformAgent,
): Pick<Passport, 'email' | 'handle' | 'spiffe_id' | 'oauth_client_id'> {
  const s = agent.status ?? {};
  return {
    email: s.email ?? agent.spec.email ?? null,
    handle: s.handle ?? agent.spec.handle ?? null,
    spiffe_id: s.spiffeId ?? null,
    oauth_client_id: s.oauthClientId ?? null,
  };
}

export function buildPassport(
  agent: PlatformAgent,
  registration: (auditorId: string) => AuditorRegistration | undefined,
  accesses: { items: AccessRecord[]; count: number },
  results: AttestationResult[] = [],
): Passport {
  const s = agent.status;
  const attestation = attestationOf(agent, results);
  return {
    agent_id: agentIdOf(agent),
    ...identity(agent),
    phase: s?.phase ?? 'pending',
    owners: (agent.spec.owners ?? []).map((o) => ({ subject: o.subject, role: o.role })),
    accountable_owners: ownerCount(agent.spec.owners),
    accesses: accesses.items,
    access_count: accesses.count,
    trust_tiers: chainOf(agent).map((id) => {
      const reg = registration(id);
      return {
        auditor_id: id,
        // A built-in auditor has no registration: it is injected as a sidecar (auditorTrustFacts).
        deployment_mode: auditorTrustFacts(id, reg)?.deploymentMode ?? null,
        trust_tier: registeredTier(id, reg),
        attested_tier: attestation.auditor_tiers[id] ?? null,
      };
    }),
    attestation,
  };
}
