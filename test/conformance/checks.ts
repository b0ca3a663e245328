// Pure checks of auditor answers against the contract (spec: Claim,
// Vocabulary declaration, Auditor contract, Auditor errors). Each returns the
// problems found; an empty list is a pass.
import { findDecisionWordsInResponse } from '../../auditors/sdk/decision-words.ts';
import { valueMatchesClaimType } from '../../auditors/sdk/enforce.ts';
import { SETTING_TYPES, settingValueMatches } from '../../auditors/sdk/setting-names.ts';
import {
  CLAIM_TYPES,
  ERROR_CODES,
  REQUEST_PHASES,
  type ClaimType,
  type ErrorCode,
  type Vocabulary,
} from '../../auditors/sdk/types.ts';
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

function vocabularyEntryProblems(e: unknown, i: number): string[] {
  if (!isObj(e)) return [`vocabulary[${i}] is not an object`];
  const at = `vocabulary[${i}] (${String(e.name)})`;
  const problems: string[] = [];
  if (typeof e.name !== 'string' || e.name === '') problems.push(`${at}: name missing`);
  if (!CLAIM_TYPES.includes(e.type as ClaimType))
    problems.push(`${at}: type ${JSON.stringify(e.type)} is not a claim type`);
  if (typeof e.description !== 'string') problems.push(`${at}: description missing`);
  if (!isObj(e.value_schema)) problems.push(`${at}: value_schema is not an object`);
  if (e.settings !== undefined && !Array.isArray(e.settings))
    problems.push(`${at}: settings is not an array`);
  for (const s of Array.isArray(e.settings) ? (e.settings as unknown[]) : []) {
    if (!isObj(s) || typeof s.key !== 'string') problems.push(`${at}: a setting has no key`);
    else if (!SETTING_TYPES.includes(s.type as never))
      problems.push(`${at}: setting ${s.key} has type ${JSON.stringify(s.type)}`);
    else if (!settingValueMatches(s.type as never, s.default))
      problems.push(`${at}: setting ${s.key} default does not match its type`);
  }
  return problems;
}

export function vocabularyProblems(answer: HttpAnswer): string[] {
  const b = answer.json;
  if (answer.status !== 200 || !isObj(b))
    return [`GET /vocabulary answered HTTP ${answer.status} without a JSON object`];
  const problems: string[] = [];
  if (typeof b.auditor_id !== 'string') problems.push('auditor_id missing');
  if (typeof b.version !== 'string') problems.push('version missing');
  if (!Array.isArray(b.phases) || b.phases.length === 0) problems.push('phases missing');
  else
    for (const p of b.phases)
      if (!REQUEST_PHASES.includes(p as never)) problems.push(`unknown phase ${JSON.stringify(p)}`);
  if (!Array.isArray(b.vocabulary) || b.vocabulary.length === 0)
    return [...problems, 'vocabulary[] missing or empty'];
  b.vocabulary.forEach((e, i) => problems.push(...vocabularyEntryProblems(e, i)));
  if (b.configuration !== undefined && !isObj(b.configuration))
    problems.push('configuration is not an object');
  return problems;
}

function claimProblems(c: unknown, i: number, vocabulary: Vocabulary): string[] {
  if (!isObj(c)) return [`claims[${i}] is not an object`];
  const decl = vocabulary.vocabulary.find((v) => v.name === c.name);
  const at = `claim ${String(c.name)}`;
  if (!decl) return [`${at} is not declared in the vocabulary`];
  const problems: string[] = [];
  if (c.type !== decl.type) problems.push(`${at}: type ${JSON.stringify(c.type)}, declared ${decl.type}`);
  if (!valueMatchesClaimType(decl.type, c.value)) problems.push(`${at}: value does not match ${decl.type}`);
  if (c.timestamp !== undefined && (typeof c.timestamp !== 'string' || !RFC3339.test(c.timestamp))) {
    problems.push(`${at}: timestamp is not RFC 3339`);
  }
  const conf = c.confidence;
  if (conf !== undefined && !(typeof conf === 'number' && conf >= 0 && conf <= 1))
    problems.push(`${at}: confidence outside 0–1`);
  for (const f of ['metadata', 'provenance', 'detail'])
    if (c[f] !== undefined && !isObj(c[f])) problems.push(`${at}: ${f} is not an object`);
  return problems;
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
  if (b.error.code !== code) problems.push(`code ${JSON.stringify(b.error.code)}, expected ${code}`);
  if (typeof b.error.message !== 'string' || b.error.message === '') problems.push('message missing');
  if (b.error.retryable !== ERROR_CODES[code])
    problems.push(`retryable ${JSON.stringify(b.error.retryable)}, expected ${ERROR_CODES[code]}`);
  return problems;
}

export function decisionWordProblems(answer: HttpAnswer): string[] {
  const b = answer.json;
  const problems = findDecisionWordsInResponse(b);
  if (isObj(b) && typeof b.status === 'string' && b.status !== 'success' && b.status !== 'error') {
    problems.push(`status ${JSON.stringify(b.status)} is neither success nor error`);
  }
  return problems;
}
