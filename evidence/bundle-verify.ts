// Offline verification of an evidence bundle (`platform evidence verify`):
// no cluster, no network. Every record, oldest first: its shape, its
// signature with the bundle's key for its attester, the entry hash over its
// content and previous hash, the link to the record before it when that one
// is its direct predecessor in the store's chain, the AttestationResult
// against the Evidence, and the trust tiers recomputed with `trust.ts` from
// the bundle's auditor ceilings. The first failure names its record.
import { sampleQuoteVerifier } from '../attestation/verify-tee.ts';
import { runtimeDataOf } from '../attestation/agent.ts';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  locateBreak,
  type BundleAuditor,
  type BundleKey,
  type EvidenceBundle,
} from './bundle.ts';
import { signingPayload, verifyEvidenceSignature } from './sign.ts';
import { entryHash, type StoredEvidence } from './store.ts';
import { auditorTier, evidenceTier, type RegistrationFacts } from './trust.ts';
import type { TrustTier } from './types.ts';
import { validateEvidence } from './validate.ts';

export interface RecordRef {
  /** 1-based place in the bundle. */
  index: number;
  seq?: number;
  evidence_id?: string;
}

export interface BundleSummary {
  agent_id: string;
  records: number;
  /** Records whose previous hash was checked against the record before them. */
  links: number;
  /** Places where the store's chain runs through other agents' entries (not in the bundle). */
  gaps: number;
  first_seq: number | null;
  last_seq: number | null;
  from: string;
  to: string;
  /** Hardware quotes accepted as the Verifier recorded them (their vendor collateral is not offline). */
  hardware_unchecked: number;
  tiers: Record<string, number>;
}

export type BundleVerdict =
  { ok: true; summary: BundleSummary } | { ok: false; record?: RecordRef; problem: string };

const HEX64 = /^[0-9a-f]{64}$/;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The registration facts a ceiling stands for (the inverse of `registrationCeiling`). */
const FACTS_OF_CEILING: Record<TrustTier, RegistrationFacts | undefined> = {
  tee_attested: { deploymentMode: 'sidecar' },
  mtls_verified: { deploymentMode: 'in-cluster' },
  key_authenticated: { deploymentMode: 'external', authType: 'api_key' },
  unverified: undefined,
};

function headerProblem(b: Record<string, unknown>): string {
  if (b.format !== BUNDLE_FORMAT) return `format: not a ${BUNDLE_FORMAT}`;
  if (b.version !== BUNDLE_VERSION) return `version: ${String(b.version)} is not ${BUNDLE_VERSION}`;
  if (typeof b.agent_id !== 'string') return 'agent_id: missing';
  const trust = b.trust as { attester_keys?: unknown; auditors?: unknown } | undefined;
  if (!isObject(trust) || !Array.isArray(trust.attester_keys) || !Array.isArray(trust.auditors))
    return 'trust: {attester_keys, auditors} required';
  if (!isObject(b.chain)) return 'chain: missing';
  if (!isObject(b.range)) return 'range: missing';
  return Array.isArray(b.records) ? '' : 'records: a list required';
}

/** One check per stored-entry field: the problem when its type is wrong, '' when it holds. */
const RECORD_FIELDS: [string, (v: unknown) => boolean, string][] = [
  ['seq', (v) => Number.isSafeInteger(v) && (v as number) >= 1, 'a positive integer'],
  ['evidence_id', (v) => typeof v === 'string', 'a string'],
  ['agent_id', (v) => typeof v === 'string', 'a string'],
  ['received_at', (v) => typeof v === 'string', 'a string'],
  ['prev_hash', (v) => typeof v === 'string' && HEX64.test(v), '64 hex digits'],
  ['hash', (v) => typeof v === 'string' && HEX64.test(v), '64 hex digits'],
  ['evidence', isObject, 'an object'],
  ['result', isObject, 'an object'],
];

function recordShape(r: unknown): string {
  if (!isObject(r)) return 'not a JSON object';
  const broken = RECORD_FIELDS.find(([field, ok]) => !ok(r[field]));
  return broken ? `${broken[0]}: ${broken[2]} required` : '';
}

interface Walk {
  bundle: EvidenceBundle;
  keys: Map<string, BundleKey>;
  ceilings: Map<string, BundleAuditor>;
  previous: StoredEvidence | undefined;
  summary: BundleSummary;
}

function identityProblem(w: Walk, r: StoredEvidence): string {
  const e = r.evidence;
  if (r.agent_id !== w.bundle.agent_id)
    return `agent_id ${r.agent_id} is not the bundle's ${w.bundle.agent_id}`;
  if (e.agent_id !== r.agent_id) return `evidence.agent_id ${e.agent_id} differs from the record's`;
  if (e.evidence_id !== r.evidence_id) return `evidence.evidence_id differs from the record's`;
  if (w.previous && r.seq <= w.previous.seq) return `seq ${r.seq} does not follow ${w.previous.seq}`;
  const checked = validateEvidence(e);
  return checked.ok ? '' : `evidence: ${checked.problems.join('; ')}`;
}

function signatureProblem(w: Walk, r: StoredEvidence): string {
  const e = r.evidence;
  const key = w.keys.get(`${e.attester_id}\n${e.attestation.key_id}`);
  if (!key) return `attester ${e.attester_id} key ${e.attestation.key_id} is not among the bundle's keys`;
  if (key.public_key !== e.attestation.public_key)
    return `the public key of ${e.attester_id} key ${key.key_id} differs from the bundle's`;
  const sig = verifyEvidenceSignature(e, key.public_key);
  return sig.valid ? '' : `signature: ${sig.reason}`;
}

function chainProblem(w: Walk, r: StoredEvidence): string {
  const { hash, ...linked } = r;
  if (entryHash(linked) !== hash) return 'hash chain: the entry hash does not match its content';
  const prev = w.previous;
  if (prev && prev.seq + 1 === r.seq) {
    if (r.prev_hash !== prev.hash) return `hash chain: prev_hash is not the hash of seq ${prev.seq}`;
    w.summary.links++;
  } else if (prev) w.summary.gaps++;
  return '';
}

const RESULT_FIELDS = [
  'evidence_id',
  'agent_id',
  'attester_id',
  'decision',
  'blocked',
  'policy_id',
  'policy_version',
  'generated_at',
] as const;

function resultProblem(_w: Walk, r: StoredEvidence): string {
  const e = r.evidence;
  const res = r.result;
  if (res.signature !== 'valid') return 'result.signature: not valid';
  for (const f of RESULT_FIELDS)
    if (res[f] !== e[f]) return `result.${f}: ${JSON.stringify(res[f])} differs from the Evidence`;
  if (res.key_id !== e.attestation.key_id) return 'result.key_id differs from the Evidence';
  if (res.provider !== e.attestation.provider) return 'result.provider differs from the Evidence';
  if (!Array.isArray(res.auditors) || res.auditors.length !== (e.auditors ?? []).length)
    return 'result.auditors: not one per auditor of the Evidence';
  return '';
}

/** Whether the hardware claim holds up offline: '' when it does (or cannot be rechecked here). */
async function quoteProblem(w: Walk, r: StoredEvidence): Promise<string> {
  const e = r.evidence;
  const res = r.result;
  if (!e.tee_evidence)
    return res.quote === 'not_provided' && !res.hardware_attested
      ? ''
      : 'result.quote: no TEE quote was provided';
  if (res.hardware_attested) {
    if (e.attestation.provider === 'MOCK')
      return 'result.hardware_attested: MOCK attestation is never hardware';
    if (res.quote !== 'verified') return `result.hardware_attested with quote ${res.quote}`;
    w.summary.hardware_unchecked++;
    return '';
  }
  if (res.quote !== 'verified') return '';
  try {
    await sampleQuoteVerifier()(Buffer.from(e.tee_evidence, 'base64'), runtimeDataOf(signingPayload(e)));
    return '';
  } catch (err) {
    return `tee_evidence: ${(err as Error).message}`;
  }
}

function tierProblem(w: Walk, r: StoredEvidence): string {
  const hardware = r.result.hardware_attested;
  const tiers: TrustTier[] = [];
  for (const [i, outcome] of (r.evidence.auditors ?? []).entries()) {
    const stored = r.result.auditors[i]!;
    if (stored.auditor_id !== outcome.auditor_id || stored.channel !== outcome.channel)
      return `result.auditors[${i}]: not the Evidence's auditor ${outcome.auditor_id}`;
    const ceiling = w.ceilings.get(outcome.auditor_id)?.ceiling ?? 'unverified';
    const tier = auditorTier(outcome, FACTS_OF_CEILING[ceiling], hardware);
    if (stored.trust_tier !== tier)
      return `trust tier of auditor ${outcome.auditor_id}: recorded ${stored.trust_tier}, recomputed ${tier}`;
    tiers.push(tier);
  }
  const overall = evidenceTier(tiers, hardware);
  if (r.result.trust_tier !== overall)
    return `trust tier: recorded ${r.result.trust_tier}, recomputed ${overall}`;
  w.summary.tiers[overall] = (w.summary.tiers[overall] ?? 0) + 1;
  return '';
}

async function recordProblem(w: Walk, raw: unknown): Promise<string> {
  const shape = recordShape(raw);
  if (shape) return shape;
  const r = raw as StoredEvidence;
  const sync = [identityProblem, signatureProblem, chainProblem, resultProblem];
  for (const check of sync) {
    const problem = check(w, r);
    if (problem) return problem;
  }
  return (await quoteProblem(w, r)) || tierProblem(w, r);
}

function refOf(raw: unknown, index: number): RecordRef {
  const r = isObject(raw) ? raw : {};
  const e = isObject(r.evidence) ? r.evidence : {};
  const id = typeof r.evidence_id === 'string' ? r.evidence_id : e.evidence_id;
  return {
    index,
    ...(typeof r.seq === 'number' ? { seq: r.seq } : {}),
    ...(typeof id === 'string' ? { evidence_id: id } : {}),
  };
}

function walkOf(bundle: EvidenceBundle): Walk {
  return {
    bundle,
    keys: new Map(bundle.trust.attester_keys.map((k) => [`${k.attester_id}\n${k.key_id}`, k])),
    ceilings: new Map(bundle.trust.auditors.map((a) => [a.auditor_id, a])),
    previous: undefined,
    summary: {
      agent_id: bundle.agent_id,
      records: bundle.records.length,
      links: 0,
      gaps: 0,
      first_seq: bundle.records[0]?.seq ?? null,
      last_seq: bundle.records[bundle.records.length - 1]?.seq ?? null,
      from: bundle.range.from,
      to: bundle.range.to,
      hardware_unchecked: 0,
      tiers: {},
    },
  };
}

function chainHeaderProblem(b: EvidenceBundle): string {
  const first = b.records[0];
  const last = b.records[b.records.length - 1];
  const expected: [keyof EvidenceBundle['chain'], unknown][] = [
    ['first_seq', first?.seq ?? null],
    ['last_seq', last?.seq ?? null],
    ['last_hash', last?.hash ?? null],
  ];
  const wrong = expected.find(([field, value]) => (b.chain[field] ?? null) !== value);
  return wrong
    ? `chain.${wrong[0]} is not the ${wrong[0].startsWith('first') ? 'first' : 'last'} record’s`
    : '';
}

/** Verifies a parsed bundle. */
export async function verifyBundle(parsed: unknown): Promise<BundleVerdict> {
  if (!isObject(parsed)) return { ok: false, problem: 'the bundle is not a JSON object' };
  const header = headerProblem(parsed);
  if (header) return { ok: false, problem: `bundle header: ${header}` };
  const bundle = parsed as unknown as EvidenceBundle;
  const w = walkOf(bundle);
  for (const [i, raw] of bundle.records.entries()) {
    const problem = await recordProblem(w, raw);
    if (problem) return { ok: false, record: refOf(raw, i + 1), problem };
    w.previous = raw;
  }
  const chain = chainHeaderProblem(bundle);
  return chain ? { ok: false, problem: `bundle header: ${chain}` } : { ok: true, summary: w.summary };
}

/** Verifies a bundle's text; a record whose line no longer parses is named by its place. */
export function verifyBundleText(text: string): Promise<BundleVerdict> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const at = locateBreak(text);
    if ('header' in at)
      return Promise.resolve({ ok: false, problem: `not valid JSON: ${(err as Error).message}` });
    const record = { index: at.index + 1, ...(at.id ? { evidence_id: at.id } : {}) };
    return Promise.resolve({ ok: false, record, problem: `line ${at.line} is not valid JSON` });
  }
  return verifyBundle(parsed);
}
