// Evidence (spec: "Evidence (produced only by the Gateway)"), schema 2.0.0.
// Beyond the spec's fields it carries who it is about (agent, workspace,
// trace), how each auditor answered and was reached, and how it is signed:
// optional additions under the minor-version rule.
import type { Claim } from '../auditors/sdk/types.ts';
import type { AttestationBinding } from '../attestation/agent.ts';

export const EVIDENCE_SCHEMA_VERSION = '2.0.0';
export const TRUST_TIERS = ['tee_attested', 'mtls_verified', 'key_authenticated', 'unverified'] as const;
export type TrustTier = (typeof TRUST_TIERS)[number];

/** How the Gateway reached an auditor (what the Verifier's tier is based on). */
export type AuditorChannel = 'pod_local' | 'mtls' | 'api_key' | 'plain';
export type DeploymentMode = 'sidecar' | 'in-cluster' | 'external';

export interface AuditorOutcome {
  auditor_id: string;
  deployment_mode: DeploymentMode;
  channel: AuditorChannel;
  status: 'ok' | 'error';
  /** Claim names this auditor contributed. */
  claims: string[];
  latency_ms: number;
  attempts: number;
  error?: { code: string; message: string; retryable: boolean };
}

export interface Evidence {
  schema_version: string;
  evidence_id: string;
  attester_id: string;
  attester_type: 'gateway';
  agent_id: string;
  workspace_id: string;
  trace_id: string;
  session_id?: string;
  /** The model the audited call went to (the request's `model`), when it named one. */
  model_id?: string;
  /** The human the call was made for (`user` / `x-user-id`), when known. */
  user_id?: string;
  /** The subagent of the agent that made the call (`x-platform-subagent`), when the runtime named one. */
  subagent?: string;
  claims: Claim[];
  decision: 'allow' | 'deny';
  decision_reasons: string[];
  policy_id: string;
  policy_version: string;
  phase: string;
  audit_mode: 'enforce' | 'observe';
  /** True when the Gateway blocked the request (a deny in enforce mode). */
  blocked: boolean;
  generated_at: string;
  auditors: AuditorOutcome[];
  attestation: AttestationBinding;
  /** Ed25519 over the canonical JSON (RFC 8785) of every other field except `trust_tier` and `tee_evidence`. */
  signature: string;
  tee_evidence?: string;
  trust_tier?: TrustTier;
}

export type UnsignedEvidence = Omit<Evidence, 'signature' | 'tee_evidence' | 'trust_tier'>;
