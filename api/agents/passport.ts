// The passport: the agent's profile as evidence shows it. Owners (the
// accountable humans), the agent's own accesses (rendered from its signed
// Evidence), the trust tier per auditor in
// its chain and the attestation results recorded so far.
import { DEFAULT_CHAIN_IDS, SYSTEM_AUDITOR_IDS } from '../../auditors/builtin.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import type { AttestationResult } from '../../evidence/result.ts';
import type { StoredEvidence } from '../../evidence/store.ts';
import { registeredTier } from '../registry/auditors.ts';
import { ownerCount, type PlatformAgent } from './model.ts';
import { agentIdOf } from '../../contract/agent-id.ts';

/** One access the agent made, as its signed Evidence shows it. */
export interface AccessRecord {
  time: string;
  /** What was reached: `model:<id>` for a model call (`model` when the request named none). */
  resource: string;
  /** `model.request` (prompt audited) or `model.response` (answer audited), or the Evidence phase. */
  operation: string;
  decision: 'allow' | 'deny';
  blocked: boolean;
  evidence_id: string;
  /** The end user the request named (OpenAI `user` / `x-user-id`): what the agent claims, not a delegation. */
  user_id?: string;
}

/**
 * Accesses are rendered from attested Evidence (spec: the passport is
 * "rendered from attested evidence"), not kept in an API replica's memory:
 * every replica reads the same store, and nothing unsigned can appear here.
 */
export function accessesFromEvidence(entries: readonly StoredEvidence[]): AccessRecord[] {
  return entries.map(({ evidence: e }) => ({
    time: e.generated_at,
    resource: e.model_id ? `model:${e.model_id}` : 'model',
    operation: e.phase === 'request' || e.phase === 'response' ? `model.${e.phase}` : e.phase,
    decision: e.decision,
    blocked: e.blocked,
    evidence_id: e.evidence_id,
    ...(e.user_id ? { user_id: e.user_id } : {}),
  }));
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
  accesses: AccessRecord[],
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
    accesses,
    trust_tiers: chainOf(agent).map((id) => {
      const reg = registration(id);
      return {
        auditor_id: id,
        deployment_mode: reg?.spec.deploymentMode ?? null,
        trust_tier: registeredTier(id, reg),
        attested_tier: attestation.auditor_tiers[id] ?? null,
      };
    }),
    attestation,
  };
}
