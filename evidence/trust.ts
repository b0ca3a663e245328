// Trust tiers (CLARIFICATIONS): tee_attested (sidecar with a verified
// hardware quote) > mtls_verified (in-cluster, or external over mTLS) >
// key_authenticated (external with an API key) > unverified. A tier is the
// lower of what the auditor's registration allows and what the Gateway's
// signed Evidence says about how it reached the auditor. MOCK attestation
// never earns more than mtls_verified.
import type { AuditorOutcome, DeploymentMode, TrustTier } from './types.ts';

const RANK: Record<TrustTier, number> = {
  tee_attested: 3,
  mtls_verified: 2,
  key_authenticated: 1,
  unverified: 0,
};

export const lowerTier = (a: TrustTier, b: TrustTier): TrustTier => (RANK[a] <= RANK[b] ? a : b);

export interface RegistrationFacts {
  deploymentMode: DeploymentMode;
  authType?: 'mtls' | 'api_key' | 'none';
}

/** The most a registration can earn; an auditor nobody registered earns nothing (fail closed). */
export function registrationCeiling(reg: RegistrationFacts | undefined): TrustTier {
  if (!reg) return 'unverified';
  if (reg.deploymentMode === 'sidecar') return 'tee_attested';
  if (reg.deploymentMode === 'in-cluster')
    return reg.authType === 'api_key' ? 'key_authenticated' : 'mtls_verified';
  if (reg.authType === 'mtls') return 'mtls_verified';
  return reg.authType === 'api_key' ? 'key_authenticated' : 'unverified';
}

/** What the channel the Gateway used earns; `hardwareVerified` when a hardware quote over this Evidence verified. */
export function channelTier(outcome: Pick<AuditorOutcome, 'channel'>, hardwareVerified: boolean): TrustTier {
  switch (outcome.channel) {
    case 'pod_local':
      return hardwareVerified ? 'tee_attested' : 'mtls_verified';
    case 'mtls':
      return 'mtls_verified';
    case 'api_key':
      return 'key_authenticated';
    default:
      return 'unverified';
  }
}

export function auditorTier(
  outcome: AuditorOutcome,
  registration: RegistrationFacts | undefined,
  hardwareVerified: boolean,
): TrustTier {
  return lowerTier(channelTier(outcome, hardwareVerified), registrationCeiling(registration));
}

/** The Evidence's tier: its weakest auditor's; Evidence naming no auditor vouches for nothing. */
export function evidenceTier(tiers: TrustTier[], hardwareVerified: boolean): TrustTier {
  if (tiers.length === 0) return 'unverified';
  const own: TrustTier = hardwareVerified ? 'tee_attested' : 'mtls_verified';
  return tiers.reduce(lowerTier, own);
}
