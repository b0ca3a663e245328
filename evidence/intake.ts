// Evidence intake at the Verifier, transport-free: shape and claim checks,
// the time window, the signature, the agent it is about (it must exist; the
// Evidence is bound to its uid), the attester's key (bound to the credential
// that first presented it, see `pins.ts`), the assessment (trust tier per
// auditor) and the append. The HTTP handler maps each outcome to a status.
import type { QuoteVerifier } from '../attestation/verify-tee.ts';
import { decidePin, foldPins } from './pins.ts';
import { assess, type AttestationResult } from './result.ts';
import { verifyEvidenceSignature } from './sign.ts';
import { DuplicateEvidenceError, type EvidenceStore, type StoredEvidence } from './store.ts';
import type { RegistrationFacts } from './trust.ts';
import type { Evidence } from './types.ts';
import { timeWindowProblem, validateEvidence, type EvidenceWindow } from './validate.ts';

/** Which public key may sign for an attester under a key id, and from which credential. */
export interface AttesterKeys {
  /** '' when `presenter` may submit Evidence signed by `publicKey` as `attesterId`/`keyId`, else why not. */
  check(attesterId: string, keyId: string, publicKey: string, presenter: string): Promise<string>;
}

/** Where pins live (the evidence store: shared by replicas, durable). */
export type PinStore = Pick<EvidenceStore, 'attesterPins' | 'appendPinEvent'>;

/** How often a pin decision is retried when another replica appended first. */
const PIN_ATTEMPTS = 5;

/**
 * Attester keys bound to the credential that first presented them (see
 * `pins.ts`). `credentialLive` tells whether an owning credential still
 * exists: a revoked one's attester is released to the next credential (an
 * agent deleted and created again gets a new Gateway key).
 */
export function pinnedAttesterKeys(
  store: PinStore,
  credentialLive: (credential: string) => Promise<boolean> = () => Promise.resolve(true),
): AttesterKeys {
  return {
    async check(attesterId, keyId, publicKey, presenter) {
      for (let attempt = 0; attempt < PIN_ATTEMPTS; attempt++) {
        const state = foldPins(await store.attesterPins(attesterId));
        const foreign = state.owner !== null && state.owner !== presenter;
        const ownerLive = foreign ? await credentialLive(state.owner!) : true;
        const verdict = decidePin(state, { attesterId, keyId, publicKey, presenter }, ownerLive);
        if (!verdict.ok) return verdict.problem;
        if (!verdict.event) return '';
        const event = { ...verdict.event, at: new Date().toISOString() };
        if (await store.appendPinEvent(event, state.version)) return '';
      }
      throw new Error(`attester ${attesterId}: pins kept changing; try again`);
    },
  };
}

export type RevokeOutcome = 'revoked' | 'already_revoked' | 'not_pinned';

/**
 * Revokes (attester, key id): that key is never accepted again, and when it
 * was the attester's last live key the attester is released, so the next
 * credential that presents a key claims it. An org administrator's act.
 */
export async function revokeAttesterKey(
  store: PinStore,
  attesterId: string,
  keyId: string,
): Promise<RevokeOutcome> {
  for (let attempt = 0; attempt < PIN_ATTEMPTS; attempt++) {
    const state = foldPins(await store.attesterPins(attesterId));
    const pinned = state.keys.get(keyId);
    if (pinned === undefined) return 'not_pinned';
    if (pinned === null) return 'already_revoked';
    const event = { attester_id: attesterId, key_id: keyId, public_key: null, owner: null };
    if (await store.appendPinEvent({ ...event, at: new Date().toISOString() }, state.version))
      return 'revoked';
  }
  throw new Error(`attester ${attesterId}: pins kept changing; try again`);
}

/** Where attestation results land: the agent's passport (its status summary). */
export interface PassportSink {
  record(agentId: string, result: AttestationResult): void | Promise<void>;
}

/** The agent Evidence is about, as the Verifier knows it: its `metadata.uid` (undefined: no such agent). */
export type AgentResolver = (agentId: string) => Promise<{ uid: string } | undefined>;

export interface IntakeDeps {
  store: EvidenceStore;
  keys: AttesterKeys;
  passport: PassportSink;
  registrations: (auditorId: string) => RegistrationFacts | undefined;
  agents: AgentResolver;
  quoteVerifier?: QuoteVerifier;
  /** How far `generated_at` may be from now (default: 5 minutes ahead, 24 hours back). */
  window?: EvidenceWindow;
  now?: () => number;
}

export type IntakeOutcome =
  { status: 201; entry: StoredEvidence } | { status: 409 | 422; detail: string; code: string };

const refuse = (detail: string, code: string): IntakeOutcome => ({ status: 422, detail, code });

/** The checks that need no store: shape, claims, time window, signature. */
function checkEnvelope(body: unknown, deps: IntakeDeps): Evidence | IntakeOutcome {
  const checked = validateEvidence(body);
  if (!checked.ok)
    return refuse(checked.problems.join('; '), checked.claimProblem ? 'invalid_claim' : 'invalid_evidence');
  const evidence = checked.evidence;
  const late = timeWindowProblem(evidence.generated_at, (deps.now ?? Date.now)(), deps.window);
  if (late) return refuse(late, 'invalid_evidence');
  // Signature before pinning: only a key that really signed this Evidence may be pinned.
  const sig = verifyEvidenceSignature(evidence);
  if (!sig.valid) return refuse(`signature verification failed: ${sig.reason}`, 'invalid_signature');
  return evidence;
}

/**
 * `presenter` names the credential submitting (the API key id): the
 * attester's keys are bound to it.
 */
export async function intakeEvidence(
  body: unknown,
  deps: IntakeDeps,
  presenter: string,
): Promise<IntakeOutcome> {
  const evidence = checkEnvelope(body, deps);
  if ('status' in evidence) return evidence;
  const agent = await deps.agents(evidence.agent_id);
  if (!agent) return refuse(`agent_id: no agent ${evidence.agent_id}`, 'unknown_agent');
  const keyProblem = await deps.keys.check(
    evidence.attester_id,
    evidence.attestation.key_id,
    evidence.attestation.public_key,
    presenter,
  );
  if (keyProblem) return refuse(keyProblem, 'untrusted_key');
  if (await deps.store.get(evidence.evidence_id)) return duplicate(evidence.evidence_id);
  const result = await assess(evidence, deps.registrations, deps.quoteVerifier);
  try {
    const entry = await deps.store.append(evidence, result, agent.uid);
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
