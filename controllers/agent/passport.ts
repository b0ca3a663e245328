// The passport summary in status: owners, trust tier per auditor of the
// chain, last attestation and access counters. Later issues (Verifier,
// credential proxy) feed the tiers, attestation time and counters; the
// controller keeps what they wrote and starts a new auditor at `unverified`.
import type { PlatformAgent, PlatformAgentStatus, TrustTier } from './types.ts';

export type Passport = NonNullable<PlatformAgentStatus['passport']>;

export function passportSummary(agent: PlatformAgent, chain: readonly string[]): Passport {
  const previous = agent.status?.passport ?? {};
  const trustTiers: Record<string, TrustTier> = {};
  for (const id of chain) trustTiers[id] = previous.trustTiers?.[id] ?? 'unverified';
  const owners = (agent.spec.owners ?? []).filter((o) => o.role === 'Owner').map((o) => o.subject);
  const passport: Passport = { owners, trustTiers, accessCount: previous.accessCount ?? 0 };
  if (previous.lastAttestationTime) passport.lastAttestationTime = previous.lastAttestationTime;
  return passport;
}
