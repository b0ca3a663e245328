// Shape checks for Evidence arriving at the Verifier. Each problem names the
// field; a malformed claim is reported as such (the API's validation error).
import { refusedCharacter } from '../base/hygiene.ts';
import { keyIdOf } from '../attestation/keys.ts';
import { ID_PATTERN } from '../crds/schema/parts.ts';
import { CLAIM_TYPES, type Claim } from '../auditors/sdk/types.ts';
import { claimTypeProblem } from '../policy/context.ts';
import { SUBAGENT_PATTERN } from '../contract/console.ts';
import { isSubagentName } from '../contract/subagent.ts';
import { EVIDENCE_SCHEMA_VERSION, type Evidence } from './types.ts';

const CLAIM_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
const ID = /^[A-Za-z0-9._:-]{1,253}$/;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): boolean =>
  typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /^\d{4}-\d\d-\d\dT/.test(v);

/** One check per claim field: the problem (after the claim's pointer) when broken, '' when it holds. */
const CLAIM_RULES: ((c: Record<string, unknown>) => string)[] = [
  (c) =>
    typeof c.name === 'string' && CLAIM_NAME.test(c.name) ? '' : '.name: snake_case claim name required',
  (c) => (CLAIM_TYPES.includes(c.type as never) ? '' : `.type: one of ${CLAIM_TYPES.join(', ')}`),
  (c) => ('value' in c ? '' : '.value: required'),
  (c) => (c.timestamp === undefined || isTime(c.timestamp) ? '' : '.timestamp: ISO 8601 timestamp'),
  ...(['metadata', 'provenance', 'detail'] as const).map(
    (k) => (c: Record<string, unknown>) => (c[k] === undefined || isObject(c[k]) ? '' : `.${k}: an object`),
  ),
];

/** Problems with one claim, each prefixed with its pointer. */
export function claimProblems(claim: unknown, at: string): string[] {
  if (!isObject(claim)) return [`${at}: a claim is an object`];
  const out = CLAIM_RULES.map((rule) => rule(claim))
    .filter(Boolean)
    .map((problem) => `${at}${problem}`);
  if (out.length > 0) return out;
  // The value's fit to its type is checked only on a well-formed claim.
  const problem = claimTypeProblem(claim as unknown as Claim, undefined);
  return problem ? [`${at}: ${problem}`] : [];
}

const STRING_FIELDS = [
  'evidence_id',
  'attester_id',
  'agent_id',
  'policy_id',
  'policy_version',
  'phase',
  'signature',
] as const;

/** One check per envelope rule: the message when the rule is broken, '' when it holds. */
const ENVELOPE_RULES: ((e: Record<string, unknown>) => string)[] = [
  (e) =>
    typeof e.evidence_id === 'string' && !ID.test(e.evidence_id)
      ? 'evidence_id: 1–253 of A-Z a-z 0-9 . _ : -'
      : '',
  (e) =>
    typeof e.agent_id === 'string' && !ID.test(e.agent_id) ? 'agent_id: 1–253 of A-Z a-z 0-9 . _ : -' : '',
  (e) => (e.attester_type === 'gateway' ? '' : "attester_type: must be 'gateway'"),
  (e) => (e.decision === 'allow' || e.decision === 'deny' ? '' : 'decision: allow or deny'),
  (e) =>
    Array.isArray(e.decision_reasons) && e.decision_reasons.every((r) => typeof r === 'string')
      ? ''
      : 'decision_reasons: list of strings',
  (e) => (isTime(e.generated_at) ? '' : 'generated_at: RFC 3339 timestamp'),
  (e) => (Array.isArray(e.auditors) ? '' : 'auditors: list required'),
  (e) =>
    attestationValid(e.attestation)
      ? ''
      : 'attestation: {provider, key_id, public_key, hardware_attested} required',
  (e) => (attestationValid(e.attestation) ? keyIdProblem(e.attestation) : ''),
  (e) => (e.trust_tier === undefined ? '' : 'trust_tier: set by the Verifier, not the sender'),
  (e) => identifierProblem(e),
  (e) => auditorIdProblem(e.auditors),
  (e) => optionalId(e, 'model_id'),
  (e) => optionalId(e, 'user_id'),
  (e) => optionalId(e, 'session_id'),
  (e) =>
    e.subagent === undefined || isSubagentName(e.subagent)
      ? ''
      : `subagent: a subagent name (${SUBAGENT_PATTERN}) when present`,
];

/**
 * Fields that name things (and may reach a resource, a log line or a metric
 * label) hold no control characters, line breaks or bidi controls; the free
 * text in claims and auditor messages is kept as signed (decision 91).
 */
const IDENTIFIER_FIELDS = ['attester_id', 'workspace_id', 'trace_id', 'policy_id', 'policy_version', 'phase'];

function identifierProblem(e: Record<string, unknown>): string {
  for (const field of IDENTIFIER_FIELDS) {
    const v = e[field];
    const what = typeof v === 'string' ? refusedCharacter(v) : undefined;
    if (what) return `${field}: holds ${what}`;
  }
  return '';
}

const AUDITOR_ID = new RegExp(ID_PATTERN);

/** Auditor ids become keys of the passport's `trustTiers` map: the CRD's id form. */
function auditorIdProblem(auditors: unknown): string {
  if (!Array.isArray(auditors)) return '';
  const i = auditors.findIndex(
    (a) => !isObject(a) || typeof a.auditor_id !== 'string' || !AUDITOR_ID.test(a.auditor_id),
  );
  return i < 0 ? '' : `auditors[${i}].auditor_id: an auditor id (${ID_PATTERN})`;
}

/** A model, user or session id as Evidence may carry it: 1–253 printable ASCII characters, no spaces. */
export const isPrintableId = (v: unknown): v is string =>
  typeof v === 'string' && /^[\x21-\x7e]{1,253}$/.test(v);

function optionalId(e: Record<string, unknown>, field: string): string {
  const v = e[field];
  return v === undefined || isPrintableId(v) ? '' : `${field}: 1–253 printable ASCII characters when present`;
}

/**
 * A key id is derived from its key, as the Gateway's key ring derives it
 * (`keyIdOf`: the first 16 base64url characters of SHA-256 over the raw
 * public key), so one id never names two keys.
 */
function keyIdProblem(a: { key_id: string; public_key: string }): string {
  const matches = keyIdOf(Buffer.from(a.public_key, 'base64url')) === a.key_id;
  return matches
    ? ''
    : 'attestation.key_id: must be the first 16 base64url characters of SHA-256 over attestation.public_key';
}

/** How far `generated_at` may lie ahead of the Verifier's clock and behind it. */
export interface EvidenceWindow {
  maxFutureMs: number;
  maxAgeMs: number;
}

/** 5 minutes of clock skew ahead; a day behind (a Gateway retrying after an outage of the Verifier). */
export const DEFAULT_EVIDENCE_WINDOW: EvidenceWindow = { maxFutureMs: 5 * 60_000, maxAgeMs: 24 * 3_600_000 };

/** '' when `generatedAt` (a valid timestamp) lies within the window around `nowMs`, else the problem. */
export function timeWindowProblem(
  generatedAt: string,
  nowMs: number,
  window: EvidenceWindow = DEFAULT_EVIDENCE_WINDOW,
): string {
  const t = Date.parse(generatedAt);
  if (t > nowMs + window.maxFutureMs)
    return `generated_at: more than ${window.maxFutureMs / 1000} s ahead of the Verifier's clock`;
  if (t < nowMs - window.maxAgeMs) return `generated_at: older than ${window.maxAgeMs / 1000} s`;
  return '';
}

function attestationValid(a: unknown): a is { key_id: string; public_key: string } {
  return (
    isObject(a) &&
    typeof a.key_id === 'string' &&
    typeof a.public_key === 'string' &&
    typeof a.hardware_attested === 'boolean'
  );
}

function envelopeProblems(e: Record<string, unknown>): string[] {
  const version =
    e.schema_version === EVIDENCE_SCHEMA_VERSION
      ? []
      : [`schema_version: must be ${EVIDENCE_SCHEMA_VERSION}`];
  const missing = STRING_FIELDS.filter((f) => typeof e[f] !== 'string' || !e[f]).map(
    (f) => `${f}: non-empty string required`,
  );
  return [...version, ...missing, ...ENVELOPE_RULES.map((rule) => rule(e)).filter(Boolean)];
}

export type EvidenceCheck =
  { ok: true; evidence: Evidence } | { ok: false; problems: string[]; claimProblem: boolean };

export function validateEvidence(body: unknown): EvidenceCheck {
  if (!isObject(body)) return { ok: false, problems: ['Evidence is a JSON object'], claimProblem: false };
  const problems = envelopeProblems(body);
  if (!Array.isArray(body.claims)) problems.push('claims: list required');
  const claimIssues = Array.isArray(body.claims)
    ? body.claims.flatMap((c, i) => claimProblems(c, `claims[${i}]`))
    : [];
  if (problems.length + claimIssues.length === 0) return { ok: true, evidence: body as unknown as Evidence };
  return { ok: false, problems: [...claimIssues, ...problems], claimProblem: claimIssues.length > 0 };
}
