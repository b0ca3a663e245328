// Pure checks of auditor answers against the contract (spec: Claim,
// Vocabulary declaration, Auditor contract, Auditor errors). Each returns the
// problems found; an empty list is a pass.
import { findDecisionWordsInResponse } from '../sdk/decision-words.ts';
import { valueMatchesClaimType } from '../sdk/enforce.ts';
import { SETTING_TYPES, settingValueMatches } from '../sdk/setting-names.ts';
import {
  CLAIM_TYPES,
  ERROR_CODES,
  REQUEST_PHASES,
  type ClaimType,
  type ErrorCode,
  type Vocabulary,
} from '../sdk/types.ts';
import type { HttpAnswer } from './http.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function healthProblems(answer: HttpAnswer): string[] {
  const b = answer.json;
  if (answer.status !== 200) return [`GET /health answered HTTP ${answer.status}`];
  if (!isObj(b)) return ['GET /health did not answer a JSON object'];
  const problems: string[] = [];
  if (b.status !== 'healthy' && b.status !== 'ok')
    problems.push(`status is ${JSON.stringify(b.status)}, expected healthy or ok`);
  if (typeof b.auditor_id !== 'string' || b.auditor_id === '') problems.push('auditor_id is missing');
  if (typeof b.version !== 'string') problems.push('version is missing');
  if (typeof b.ready !== 'boolean') problems.push('ready is not a boolean');
  return problems;
}

/** Each rule's problem when broken, '' when it holds; the problems of those broken. */
type Rule<T> = (x: T) => string;
const broken = <T>(x: T, rules: readonly Rule<T>[]): string[] => rules.map((rule) => rule(x)).filter(Boolean);

const OBJECT_FIELDS = ['metadata', 'provenance', 'detail'] as const;

const VOCABULARY_ENTRY_RULES: Rule<Record<string, unknown>>[] = [
  (e) => (typeof e.name !== 'string' || e.name === '' ? 'name missing' : ''),
  (e) =>
    CLAIM_TYPES.includes(e.type as ClaimType) ? '' : `type ${JSON.stringify(e.type)} is not a claim type`,
  (e) => (typeof e.description !== 'string' ? 'description missing' : ''),
  (e) => (isObj(e.value_schema) ? '' : 'value_schema is not an object'),
  (e) => (e.settings !== undefined && !Array.isArray(e.settings) ? 'settings is not an array' : ''),
];

/** What is wrong with one declared setting ('' when nothing). */
function settingProblem(s: unknown): string {
  if (!isObj(s) || typeof s.key !== 'string') return 'a setting has no key';
  if (!SETTING_TYPES.includes(s.type as never)) return `setting ${s.key} has type ${JSON.stringify(s.type)}`;
  if (!settingValueMatches(s.type as never, s.default))
    return `setting ${s.key} default does not match its type`;
  return '';
}

function vocabularyEntryProblems(e: unknown, i: number): string[] {
  if (!isObj(e)) return [`vocabulary[${i}] is not an object`];
  const at = `vocabulary[${i}] (${String(e.name)})`;
  const settings = Array.isArray(e.settings) ? (e.settings as unknown[]) : [];
  return [...broken(e, VOCABULARY_ENTRY_RULES), ...settings.map(settingProblem).filter(Boolean)].map(
    (problem) => `${at}: ${problem}`,
  );
}

function phasesProblems(phases: unknown): string[] {
  if (!Array.isArray(phases) || phases.length === 0) return ['phases missing'];
  return phases
    .filter((p) => !REQUEST_PHASES.includes(p as never))
    .map((p) => `unknown phase ${JSON.stringify(p)}`);
}

export function vocabularyProblems(answer: HttpAnswer): string[] {
  const b = answer.json;
  if (answer.status !== 200 || !isObj(b))
    return [`GET /vocabulary answered HTTP ${answer.status} without a JSON object`];
  const problems: string[] = [];
  if (typeof b.auditor_id !== 'string') problems.push('auditor_id missing');
  if (typeof b.version !== 'string') problems.push('version missing');
  problems.push(...phasesProblems(b.phases));
  if (!Array.isArray(b.vocabulary) || b.vocabulary.length === 0)
    return [...problems, 'vocabulary[] missing or empty'];
  b.vocabulary.forEach((e, i) => problems.push(...vocabularyEntryProblems(e, i)));
  if (b.configuration !== undefined && !isObj(b.configuration))
    problems.push('configuration is not an object');
  return problems;
}

const isRfc3339 = (t: unknown): boolean => typeof t === 'string' && RFC3339.test(t);
const isConfidence = (c: unknown): boolean => typeof c === 'number' && c >= 0 && c <= 1;

/** The rules for a claim against its declaration. */
const claimRules = (decl: Vocabulary['vocabulary'][number]): Rule<Record<string, unknown>>[] => [
  (c) => (c.type !== decl.type ? `type ${JSON.stringify(c.type)}, declared ${decl.type}` : ''),
  (c) => (valueMatchesClaimType(decl.type, c.value) ? '' : `value does not match ${decl.type}`),
  (c) => (c.timestamp === undefined || isRfc3339(c.timestamp) ? '' : 'timestamp is not RFC 3339'),
  (c) => (c.confidence === undefined || isConfidence(c.confidence) ? '' : 'confidence outside 0–1'),
  ...OBJECT_FIELDS.map(
    (f) => (c: Record<string, unknown>) =>
      c[f] !== undefined && !isObj(c[f]) ? `${f} is not an object` : '',
  ),
];

function claimProblems(c: unknown, i: number, vocabulary: Vocabulary): string[] {
  if (!isObj(c)) return [`claims[${i}] is not an object`];
  const decl = vocabulary.vocabulary.find((v) => v.name === c.name);
  const at = `claim ${String(c.name)}`;
  if (!decl) return [`${at} is not declared in the vocabulary`];
  return broken(c, claimRules(decl)).map((problem) => `${at}: ${problem}`);
}

/** A successful `/claims` answer: HTTP 200, status success, every claim declared and well typed. */
export function successProblems(answer: HttpAnswer, vocabulary: Vocabulary): string[] {
  const b = answer.json;
  if (answer.status !== 200) return [`HTTP ${answer.status}, expected 200`];
  if (!isObj(b)) return ['the answer is not a JSON object'];
  if (b.status !== 'success')
    return [
      `status ${JSON.stringify(b.status)}${isObj(b.error) ? ` (${String(b.error.code)}: ${String(b.error.message)})` : ''}`,
    ];
  if (!Array.isArray(b.claims)) return ['claims is not an array'];
  return b.claims.flatMap((c, i) => claimProblems(c, i, vocabulary));
}

/** An error envelope with the given code: HTTP 200, claims [], error {code, message, retryable per the spec}. */
export function envelopeProblems(answer: HttpAnswer, code: ErrorCode): string[] {
  const b = answer.json;
  if (answer.status !== 200) return [`HTTP ${answer.status}, expected 200 with an error envelope`];
  if (!isObj(b) || !isObj(b.error)) return ['the answer is not an error envelope'];
  const problems: string[] = [];
  if (b.status !== 'error') problems.push(`status ${JSON.stringify(b.status)}, expected error`);
  if (!Array.isArray(b.claims) || b.claims.length !== 0) problems.push('claims is not an empty array');
  return [...problems, ...broken(b.error, errorRules(code))];
}

/** The rules for the envelope's error object, for the code expected. */
const errorRules = (code: ErrorCode): Rule<Record<string, unknown>>[] => [
  (e) => (e.code !== code ? `code ${JSON.stringify(e.code)}, expected ${code}` : ''),
  (e) => (typeof e.message !== 'string' || e.message === '' ? 'message missing' : ''),
  (e) =>
    e.retryable !== ERROR_CODES[code]
      ? `retryable ${JSON.stringify(e.retryable)}, expected ${ERROR_CODES[code]}`
      : '',
];

export function decisionWordProblems(answer: HttpAnswer): string[] {
  const b = answer.json;
  const problems = findDecisionWordsInResponse(b);
  if (isObj(b) && typeof b.status === 'string' && b.status !== 'success' && b.status !== 'error') {
    problems.push(`status ${JSON.stringify(b.status)} is neither success nor error`);
  }
  return problems;
}
