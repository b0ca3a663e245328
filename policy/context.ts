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
  if (
    claim.confidence !== undefined &&
    !(typeof claim.confidence === 'number' && claim.confidence >= 0 && claim.confidence <= 1)
  ) {
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
    const declared = claims.get(claim.name)?.type;
    const problem = claimTypeProblem(claim, declared);
    if (problem) return { ok: false, reason: problem };
    const type = declared ?? claim.type;
    const value = cedarValue(type, claim.value);
    if (value === undefined || RESERVED.has(claim.name)) continue;
    const earlier = seen.get(claim.name);
    if (earlier !== undefined && !sameValue(earlier, value)) {
      return {
        ok: false,
        reason: `TypeMismatch: claim '${claim.name}' reported twice with different values`,
      };
    }
    seen.set(claim.name, value);
    if (usage.wholeContext || usage.attributes.has(claim.name)) context[claim.name] = value;
    if (usage.wholeConfidence || usage.confidence.has(claim.name))
      confidence[claim.name] = scaleDecimal(claim.confidence ?? 1);
  }
  context.confidence = confidence;
  return { ok: true, context };
}
