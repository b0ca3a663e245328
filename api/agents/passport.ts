// The passport: the agent's profile as evidence shows it. Owners (the
// accountable humans), the agent's own data accesses (fed by the gateway and
// the credential proxy through AgentAccessLog), the trust tier per auditor in
// its chain and the attestation results recorded so far.
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import type { AttestationResult } from '../../evidence/result.ts';
import { agentIdOf, ownerCount, type PlatformAgent } from './model.ts';

export interface AccessRecord {
  time: string;
  resource: string;
  operation: string;
  on_behalf_of?: string;
  decision?: string;
}

/** The agent's own accesses. Later issues append from the gateway and proxy. */
export interface AgentAccessLog {
  record(agentId: string, access: AccessRecord): void;
  recent(agentId: string, limit: number): AccessRecord[];
}

export function memoryAccessLog(perAgent = 200): AgentAccessLog {
  const byAgent = new Map<string, AccessRecord[]>();
  return {
    record(agentId, access) {
      const list = byAgent.get(agentId) ?? [];
      list.push(access);
      if (list.length > perAgent) list.shift();
      byAgent.set(agentId, list);
    },
    recent: (agentId, limit) => (byAgent.get(agentId) ?? []).slice(-limit).reverse(),
  };
}

/** CLARIFICATIONS: the built-in default chain when an agent names none. */
export const DEFAULT_CHAIN = ['injection', 'toxicity', 'model-context', 'llm-judge'];

export type TrustTier = 'tee_attested' | 'mtls_verified' | 'key_authenticated' | 'unverified';

/** A registration's recorded tier, else what its deployment mode can earn without a verified quote. */
export function trustTierOf(reg: AuditorRegistration | undefined): TrustTier {
  if (!reg) return 'unverified';
  if (reg.status?.trustTier) return reg.status.trustTier;
  if (reg.spec.deploymentMode === 'external')
    return reg.spec.auth?.type === 'mtls' ? 'mtls_verified' : 'key_authenticated';
  return 'mtls_verified';
}

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

/** The attestation part: the status summary (cluster-wide) overlaid with the results read from the evidence store. */
export function attestationOf(agent: PlatformAgent, results: AttestationResult[]): PassportAttestation {
  const s = agent.status;
  const tiers: Record<string, TrustTier> = { ...s?.passport?.trustTiers };
  for (const r of [...results].reverse()) for (const a of r.auditors) tiers[a.auditor_id] = a.trust_tier;
  const latest = results[0];
  const statusTime = s?.passport?.lastAttestationTime;
  const time = [statusTime, latest?.verified_at]
    .filter((t): t is string => Boolean(t))
    .sort()
    .at(-1);
  return {
    trust_tier: latest?.trust_tier ?? s?.trustTier ?? null,
    hardware_attested: latest?.hardware_attested ?? false,
    last_attestation_time: time ?? null,
    auditor_tiers: tiers,
    results,
  };
}

function identity(
  agent: PlatformAgent,
): Pick<Passport, 'email' | 'handle' | 'spiffe_id' | 'oauth_client_id'> {
  const s = agent.status;
  return {
    email: s?.email ?? agent.spec.email ?? null,
    handle: s?.handle ?? agent.spec.handle ?? null,
    spiffe_id: s?.spiffeId ?? null,
    oauth_client_id: s?.oauthClientId ?? null,
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
        trust_tier: trustTierOf(reg),
        attested_tier: attestation.auditor_tiers[id] ?? null,
      };
    }),
    attestation,
  };
}
