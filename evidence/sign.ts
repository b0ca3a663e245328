// Signing and verifying Evidence. The signed bytes are the canonical JSON
// (RFC 8785) of the Evidence without `signature`, `trust_tier` (the
// Verifier's) and `tee_evidence` (which binds the payload's hash, so it
// cannot be inside it). Any change to a claim, the decision or any other
// signed field breaks the signature.
import { verify } from 'node:crypto';
import type { AttestationAgent } from '../attestation/agent.ts';
import { publicKeyFromRaw } from '../attestation/keys.ts';
import { canonicalBytes } from '../base/canonical.ts';
import type { Evidence, UnsignedEvidence } from './types.ts';

const UNSIGNED_FIELDS = new Set(['signature', 'trust_tier', 'tee_evidence']);

export function signingPayload(evidence: UnsignedEvidence | Evidence): Buffer {
  const fields = Object.entries(evidence).filter(([k]) => !UNSIGNED_FIELDS.has(k));
  return canonicalBytes(Object.fromEntries(fields));
}

export async function signEvidence(unsigned: UnsignedEvidence, agent: AttestationAgent): Promise<Evidence> {
  const out = await agent.attest(signingPayload(unsigned));
  return {
    ...unsigned,
    signature: out.signature,
    ...(out.tee_evidence ? { tee_evidence: out.tee_evidence } : {}),
  };
}

export type SignatureCheck = { valid: true } | { valid: false; reason: string };

/**
 * Checks the signature with `publicKey` (raw Ed25519, base64url); defaults to
 * the key the Evidence names, which proves integrity only: who may sign is
 * the caller's question (see `AttesterKeys`).
 */
export function verifyEvidenceSignature(
  evidence: Evidence,
  publicKey = evidence.attestation?.public_key,
): SignatureCheck {
  if (typeof evidence.signature !== 'string' || !evidence.signature)
    return { valid: false, reason: 'no signature' };
  if (typeof publicKey !== 'string') return { valid: false, reason: 'no public key' };
  try {
    const key = publicKeyFromRaw(publicKey);
    const ok = verify(null, signingPayload(evidence), key, Buffer.from(evidence.signature, 'base64url'));
    return ok ? { valid: true } : { valid: false, reason: 'signature does not match the Evidence' };
  } catch (err) {
    return { valid: false, reason: `signature check failed: ${(err as Error).message}` };
  }
}
