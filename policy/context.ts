// Turns claims into the Cedar request context, checking each against the
// type its auditor declared before anything is evaluated: a claim whose type
// or value does not match is a `TypeMismatch`, which the decision treats as
// a deny. Scores become ×1000 integers, durations whole milliseconds.
import type { CedarValueJson, Context } from '@cedar-policy/cedar-wasm/nodejs';
import type { Claim, ClaimType } from '../auditors/sdk/types.ts';
import type { ClaimInfo } from './cedar-schema.ts';
import { KEEP_ALL, type ContextUsage } from './context-usage.ts';
import { scaleDecimal } from './scale.ts';

export interface RequestFacts {
  agentId: string;
  workspaceId: string;
  phase: string;
  claims: Claim[];
}

const VALUE_CHECKS: Record<ClaimType, (v: unknown) => boolean> = {
  score_normalized: (v) => typeof v === 'number' && v >= 0 && v <= 1,
  boolean: (v) => typeof v === 'boolean',
  string: (v) => typeof v === 'string',
  string_list: (v) => Array.isArray(v) && v.every((s) => typeof s === 'string'),
  count: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  duration_ms: (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0,
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
};

const validConfidence = (c: unknown): boolean =>
  c === undefined || (typeof c === 'number' && c >= 0 && c <= 1);

/** '' when `claim` fits `declared` (or its own type when undeclared), else the TypeMismatch reason. */
export function claimTypeProblem(claim: Claim, declared: ClaimType | undefined): string {
  const type = declared ?? claim.type;
  if (declared && claim.type !== declared) {
    return `TypeMismatch: claim '${claim.name}' has type ${String(claim.type)}, its vocabulary declares ${declared}`;
  }
  const check = VALUE_CHECKS[type];
  if (!check) return `TypeMismatch: claim '${claim.name}' has unknown type ${String(type)}`;
  if (!check(claim.value)) {
    return `TypeMismatch: claim '${claim.name}' (${type}) has value ${JSON.stringify(claim.value) ?? 'undefined'}`;
  }
  if (!validConfidence(claim.confidence)) {
    return `TypeMismatch: claim '${claim.name}' has confidence ${JSON.stringify(claim.confidence)}`;
  }
  return '';
}

function cedarValue(type: ClaimType, value: unknown): CedarValueJson | undefined {
  if (type === 'score_normalized') return scaleDecimal(value as number);
  if (type === 'duration_ms') return Math.round(value as number);
  if (type === 'object') return undefined;
  return value as CedarValueJson;
}

export type ContextResult = { ok: true; context: Context } | { ok: false; reason: string };

const RESERVED = new Set(['phase', 'agent_id', 'workspace_id', 'confidence']);

/** The same claim reported twice must carry the same value; JSON is only built on a repeat. */
function sameValue(a: CedarValueJson, b: CedarValueJson): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** What one claim adds to the context: nothing (not visible to Cedar), a value, or a reason to deny. */
type ClaimEntry = { skip: true } | { skip: false; value: CedarValueJson } | { reason: string };

function claimEntry(
  claim: Claim,
  declared: ClaimType | undefined,
  seen: Map<string, CedarValueJson>,
): ClaimEntry {
  const problem = claimTypeProblem(claim, declared);
  if (problem) return { reason: problem };
  const value = cedarValue(declared ?? claim.type, claim.value);
  if (value === undefined || RESERVED.has(claim.name)) return { skip: true };
  const earlier = seen.get(claim.name);
  if (earlier !== undefined && !sameValue(earlier, value)) {
    return { reason: `TypeMismatch: claim '${claim.name}' reported twice with different values` };
  }
  return { skip: false, value };
}

const readsAttribute = (usage: ContextUsage, name: string): boolean =>
  usage.wholeContext || usage.attributes.has(name);

const readsConfidence = (usage: ContextUsage, name: string): boolean =>
  usage.wholeConfidence || usage.confidence.has(name);

/**
 * Every claim is type-checked; only the attributes in `usage` (what the loaded
 * policies can read) are put into the context Cedar receives.
 */
export function buildContext(
  facts: RequestFacts,
  claims: Map<string, ClaimInfo>,
  usage: ContextUsage = KEEP_ALL,
): ContextResult {
  const confidence: Record<string, CedarValueJson> = {};
  const context: Context = { phase: facts.phase, agent_id: facts.agentId, workspace_id: facts.workspaceId };
  const seen = new Map<string, CedarValueJson>();
  for (const claim of facts.claims) {
    const entry = claimEntry(claim, claims.get(claim.name)?.type, seen);
    if ('reason' in entry) return { ok: false, reason: entry.reason };
    if (entry.skip) continue;
    seen.set(claim.name, entry.value);
    if (readsAttribute(usage, claim.name)) context[claim.name] = entry.value;
    if (readsConfidence(usage, claim.name)) confidence[claim.name] = scaleDecimal(claim.confidence ?? 1);
  }
  context.confidence = confidence;
  return { ok: true, context };
}
