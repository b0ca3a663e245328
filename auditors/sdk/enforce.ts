// What the SDK guarantees about every claim it sends (spec: Claim; Auditor
// contract): declared in the vocabulary, value of the declared type, no
// decision vocabulary, confidence within 0–1, an RFC 3339 UTC timestamp, and
// provenance stamped with the effective settings. A claim that breaks a rule
// is never sent: the whole response becomes INTERNAL_ERROR.
import { findDecisionWordsInClaim } from './decision-words.ts';
import type { Claim, ClaimType, SettingValue, VocabularyEntry } from './types.ts';

export interface Stamp {
  auditorId: string;
  version: string;
  now: Date;
  /** Effective settings of a claim (override > env > default). */
  settingsFor(claimName: string): Record<string, SettingValue>;
  /** Stamped into every claim's provenance (e.g. tee_provider). */
  extraProvenance?: Record<string, unknown>;
}

export type Enforced = { ok: true; claims: Claim[] } | { ok: false; problems: string[] };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A value's shape without its content: claim values may quote the request. */
function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'number' ? `number ${v}` : typeof v;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Value schema per type (spec: Claim). */
const VALUE_CHECKS: Record<ClaimType, (v: unknown) => boolean> = {
  score_normalized: (v) => isNumber(v) && v >= 0 && v <= 1,
  boolean: (v) => typeof v === 'boolean',
  string: (v) => typeof v === 'string',
  string_list: (v) => Array.isArray(v) && v.every((item) => typeof item === 'string'),
  count: (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0,
  duration_ms: (v) => isNumber(v) && v >= 0,
  object: isPlainObject,
};

export function valueMatchesClaimType(type: ClaimType, value: unknown): boolean {
  return VALUE_CHECKS[type](value);
}

function timestampOf(raw: unknown, now: Date): string | undefined {
  if (raw === undefined) return now.toISOString();
  if (typeof raw !== 'string') return undefined;
  const t = Date.parse(raw);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** Confidence is optional; when given it is a number in 0–1. */
const confidenceValid = (conf: unknown): boolean =>
  conf === undefined || (typeof conf === 'number' && conf >= 0 && conf <= 1);

function structuralProblems(c: Record<string, unknown>, decl: VocabularyEntry, at: string): string[] {
  const problems: string[] = [];
  if (c.type !== undefined && c.type !== decl.type) {
    problems.push(`${at}: type ${JSON.stringify(c.type)} differs from the declared ${decl.type}`);
  }
  if (!valueMatchesClaimType(decl.type, c.value)) {
    problems.push(`${at}: value (${describe(c.value)}) is not a valid ${decl.type}`);
  }
  if (!confidenceValid(c.confidence)) {
    problems.push(`${at}: confidence (${describe(c.confidence)}) is outside 0–1`);
  }
  for (const field of ['metadata', 'provenance', 'detail'] as const) {
    if (c[field] !== undefined && !isPlainObject(c[field]))
      problems.push(`${at}: ${field} must be an object`);
  }
  return problems;
}

function enforceOne(
  raw: unknown,
  index: number,
  vocab: ReadonlyMap<string, VocabularyEntry>,
  stamp: Stamp,
): { claim?: Claim; problems: string[] } {
  if (!isPlainObject(raw)) return { problems: [`claim ${index}: not an object`] };
  const name = raw.name;
  const decl = typeof name === 'string' ? vocab.get(name) : undefined;
  if (!decl)
    return { problems: [`claim ${index}: ${JSON.stringify(name)} is not declared in the vocabulary`] };
  const at = `claim ${decl.name}`;
  const problems = structuralProblems(raw, decl, at);
  const timestamp = timestampOf(raw.timestamp, stamp.now);
  if (timestamp === undefined) problems.push(`${at}: timestamp (${describe(raw.timestamp)}) is not a date`);
  const claim: Claim = {
    ...(raw as unknown as Claim),
    name: decl.name,
    type: decl.type,
    timestamp: timestamp ?? '',
    provenance: {
      ...(raw.provenance as Record<string, unknown> | undefined),
      ...stamp.extraProvenance,
      auditor_id: stamp.auditorId,
      auditor_version: stamp.version,
      settings: stamp.settingsFor(decl.name),
    },
  };
  problems.push(
    ...findDecisionWordsInClaim(claim, at).map((p) => `${p}: auditors observe, they do not decide`),
  );
  return problems.length > 0 ? { problems } : { claim, problems };
}

/** Checks and completes the claims an auditor produced. */
export function enforceClaims(
  raw: unknown,
  vocab: ReadonlyMap<string, VocabularyEntry>,
  stamp: Stamp,
): Enforced {
  if (!Array.isArray(raw)) return { ok: false, problems: ['audit() must return an array of claims'] };
  const claims: Claim[] = [];
  const problems: string[] = [];
  raw.forEach((item, i) => {
    const out = enforceOne(item, i, vocab, stamp);
    if (out.claim) claims.push(out.claim);
    problems.push(...out.problems);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, claims };
}
