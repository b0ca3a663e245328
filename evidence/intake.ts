// Evidence intake at the Verifier, transport-free: shape and claim checks,
// the attester's key (pinned on first use per attester and key id), the
// signature, the assessment (trust tier per auditor) and the append. The
// HTTP handler maps each outcome to a status.
import type { QuoteVerifier } from '../attestation/verify-tee.ts';
import { assess, type AttestationResult } from './result.ts';
import { verifyEvidenceSignature } from './sign.ts';
import { DuplicateEvidenceError, type EvidenceStore, type StoredEvidence } from './store.ts';
import type { RegistrationFacts } from './trust.ts';
import { validateEvidence } from './validate.ts';

/** Which public key may sign for an attester under a key id. */
export interface AttesterKeys {
  /** '' when `publicKey` may sign as `attesterId`/`keyId`, else why not. */
  check(attesterId: string, keyId: string, publicKey: string): Promise<string>;
}

/** Where first-seen keys are pinned (the evidence store: shared by replicas, durable). */
export type PinStore = Pick<EvidenceStore, 'pinAttesterKey'>;

/**
 * Trust on first use per (attester, key id), with optional preset keys. The
 * API key already authenticates the sender; pinning stops a later sender
 * from swapping the key behind a key id. A rotated key arrives with a new id.
 * Pins live in `store` so every Verifier replica, and the next start, agree;
 * confirmed pins are cached here.
 */
export function pinnedAttesterKeys(store: PinStore, preset: Record<string, string> = {}): AttesterKeys {
  const known = new Map(Object.entries(preset));
  return {
    async check(attesterId, keyId, publicKey) {
      const id = `${attesterId}/${keyId}`;
      let pinned = known.get(id);
      if (pinned === undefined) {
        pinned = await store.pinAttesterKey(attesterId, keyId, publicKey);
        known.set(id, pinned);
      }
      return pinned === publicKey ? '' : `key ${keyId} of ${attesterId} is pinned to another public key`;
    },
  };
}

/** Where attestation results land: the agent's passport (its status summary). */
export interface PassportSink {
  record(agentId: string, result: AttestationResult): void | Promise<void>;
}

export interface IntakeDeps {
  store: EvidenceStore;
  keys: AttesterKeys;
  passport: PassportSink;
  registrations: (auditorId: string) => RegistrationFacts | undefined;
  quoteVerifier?: QuoteVerifier;
}

export type IntakeOutcome =
  { status: 201; entry: StoredEvidence } | { status: 409 | 422; detail: string; code: string };

export async function intakeEvidence(body: unknown, deps: IntakeDeps): Promise<IntakeOutcome> {
  const checked = validateEvidence(body);
  if (!checked.ok) {
    return {
      status: 422,
      detail: checked.problems.join('; '),
      code: checked.claimProblem ? 'invalid_claim' : 'invalid_evidence',
    };
  }
  const evidence = checked.evidence;
  // Signature first: only a key that really signed this Evidence may be pinned.
  const sig = verifyEvidenceSignature(evidence);
  if (!sig.valid)
    return { status: 422, detail: `signature verification failed: ${sig.reason}`, code: 'invalid_signature' };
  const keyProblem = await deps.keys.check(
    evidence.attester_id,
    evidence.attestation.key_id,
    evidence.attestation.public_key,
  );
  if (keyProblem) return { status: 422, detail: keyProblem, code: 'untrusted_key' };
  if (await deps.store.get(evidence.evidence_id)) return duplicate(evidence.evidence_id);
  const result = await assess(evidence, deps.registrations, deps.quoteVerifier);
  try {
    const entry = await deps.store.append(evidence, result);
    await deps.passport.record(evidence.agent_id, result);
    return { status: 201, entry };
  } catch (err) {
    if (err instanceof DuplicateEvidenceError) return duplicate(evidence.evidence_id);
    throw err;
  }
}

function duplicate(id: string): IntakeOutcome {
  return { status: 409, detail: `evidence ${id} was already submitted`, code: 'duplicate_evidence' };
}

/** An in-memory passport summary: latest result and tier per auditor, per agent. */
export function memoryPassport(): PassportSink & {
  summary(agentId: string): PassportAttestation | undefined;
} {
  const byAgent = new Map<string, PassportAttestation>();
  return {
    record(agentId, r) {
      const prev = byAgent.get(agentId);
      const tiers = { ...prev?.auditor_tiers };
      for (const a of r.auditors) tiers[a.auditor_id] = a.trust_tier;
      byAgent.set(agentId, {
        trust_tier: r.trust_tier,
        hardware_attested: r.hardware_attested,
        auditor_tiers: tiers,
        last_result: r,
        evidence_count: (prev?.evidence_count ?? 0) + 1,
      });
    },
    summary: (agentId) => byAgent.get(agentId),
  };
}

export interface PassportAttestation {
  trust_tier: string;
  hardware_attested: boolean;
  auditor_tiers: Record<string, string>;
  last_result: AttestationResult;
  evidence_count: number;
}
