// The Verifier's assessment of one Evidence (RATS: the Attestation Result),
// stored beside it and summarised in the agent's passport.
import { AttestationError } from '../attestation/errors.ts';
import type { QuoteVerifier } from '../attestation/verify-tee.ts';
import { runtimeDataOf } from '../attestation/agent.ts';
import { signingPayload } from './sign.ts';
import { auditorTier, evidenceTier, type RegistrationFacts } from './trust.ts';
import type { AuditorChannel, DeploymentMode, Evidence, TrustTier } from './types.ts';

export interface AttestationResult {
  evidence_id: string;
  agent_id: string;
  verified_at: string;
  signature: 'valid';
  attester_id: string;
  key_id: string;
  provider: string;
  /** True only when a hardware quote over this Evidence verified. */
  hardware_attested: boolean;
  /** `verified`, `not_provided`, or the attestation error name (QuoteVerificationFailed, MeasurementMismatch, …). */
  quote: string;
  quote_detail?: string;
  trust_tier: TrustTier;
  auditors: {
    auditor_id: string;
    deployment_mode: DeploymentMode;
    channel: AuditorChannel;
    status: string;
    trust_tier: TrustTier;
  }[];
  decision: 'allow' | 'deny';
  blocked: boolean;
  policy_id: string;
  policy_version: string;
  generated_at: string;
}

async function checkQuote(
  evidence: Evidence,
  verifier: QuoteVerifier | undefined,
): Promise<{ quote: string; detail?: string; hardware: boolean }> {
  if (!evidence.tee_evidence) return { quote: 'not_provided', hardware: false };
  if (!verifier)
    return { quote: 'QuoteVerificationFailed', detail: 'no quote verifier configured', hardware: false };
  try {
    const check = await verifier(
      Buffer.from(evidence.tee_evidence, 'base64'),
      runtimeDataOf(signingPayload(evidence)),
    );
    return { quote: 'verified', detail: check.tee, hardware: check.hardware };
  } catch (err) {
    const name = err instanceof AttestationError ? err.name : 'QuoteVerificationFailed';
    return { quote: name, detail: (err as Error).message, hardware: false };
  }
}

/** Assesses Evidence whose signature has been verified. */
export async function assess(
  evidence: Evidence,
  registrations: (auditorId: string) => RegistrationFacts | undefined,
  verifier?: QuoteVerifier,
): Promise<AttestationResult> {
  const q = await checkQuote(evidence, verifier);
  const hardware = q.hardware && evidence.attestation.provider !== 'MOCK';
  const auditors = (evidence.auditors ?? []).map((o) => ({
    auditor_id: o.auditor_id,
    deployment_mode: o.deployment_mode,
    channel: o.channel,
    status: o.status,
    trust_tier: auditorTier(o, registrations(o.auditor_id), hardware),
  }));
  return {
    evidence_id: evidence.evidence_id,
    agent_id: evidence.agent_id,
    verified_at: new Date().toISOString(),
    signature: 'valid',
    attester_id: evidence.attester_id,
    key_id: evidence.attestation.key_id,
    provider: evidence.attestation.provider,
    hardware_attested: hardware,
    quote: q.quote,
    ...(q.detail ? { quote_detail: q.detail } : {}),
    trust_tier: evidenceTier(
      auditors.map((a) => a.trust_tier),
      hardware,
    ),
    auditors,
    decision: evidence.decision,
    blocked: evidence.blocked,
    policy_id: evidence.policy_id,
    policy_version: evidence.policy_version,
    generated_at: evidence.generated_at,
  };
}
