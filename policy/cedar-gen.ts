// Compiles response rules into Cedar policies over the request context:
// claims are context attributes; scores compare as ×1000 integers; booleans,
// strings, string lists (sets), counts and durations each have their forms.
// Each compiled policy gets a stable id `<policy id>/<rule name>`, so a
// decision's reasons name the rule that fired.
import { policySetTextToParts } from '@cedar-policy/cedar-wasm/nodejs';
import type { ClaimType } from '../auditors/sdk/types.ts';
import { parseDurationMs } from '../base/config.ts';
import { ACTION_ID, ACTION_TYPE, type ClaimInfo } from './cedar-schema.ts';
import { scaleDecimal } from './scale.ts';
import type { PolicyRecord, ResponseRule } from './types.ts';

export type Operator = '>=' | '>' | '<=' | '<' | '==' | '!=' | 'contains' | 'containsAny' | 'containsAll';

export interface Condition {
  claim: string;
  op: Operator;
  /** Scores as decimals (0.8), durations in ms or as `2s`, lists for the set operators. */
  value: number | boolean | string | string[];
}

export interface RuleSpec {
  name: string;
  effect: 'permit' | 'forbid';
  /** All must hold. */
  when: Condition[];
}

export const BASE_PERMIT_ID = 'platform/base-permit';
export const BASE_PERMIT = 'permit (principal, action, resource);';
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Cedar string literal: `\u{…}` escapes for controls, quotes and backslashes escaped. */
export function cedarString(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what gets escaped
  const body = s.replace(/[\\"\u0000-\u001f\u007f]/g, (c) =>
    c === '\\' || c === '"' ? `\\${c}` : `\\u{${c.charCodeAt(0).toString(16)}}`,
  );
  return `"${body}"`;
}

/** `context.injection_score`, or `context["toxicity.insult"]` for dotted names. */
export function claimRef(name: string): string {
  return IDENT.test(name) ? `context.${name}` : `context[${cedarString(name)}]`;
}

type ScalarValue = Condition['value'];

/** Each scalar claim type's literal form, throwing (with the claim's name) on a value it cannot take. */
const SCALARS: Partial<Record<ClaimType, (value: ScalarValue, claim: string) => string | undefined>> = {
  score_normalized: (value, claim) => {
    if (typeof value !== 'number' || value < 0 || value > 1)
      throw new Error(`${claim}: a score threshold is a number 0.0–1.0`);
    return String(scaleDecimal(value));
  },
  duration_ms: (value, claim) => {
    const ms = typeof value === 'string' ? parseDurationMs(value) : value;
    if (typeof ms !== 'number' || !Number.isFinite(ms))
      throw new Error(`${claim}: a duration is milliseconds or like 2s`);
    return String(Math.round(ms));
  },
  count: (value, claim) => {
    if (!Number.isInteger(value)) throw new Error(`${claim}: a count compares with an integer`);
    return String(value);
  },
  boolean: (value, claim) => {
    if (typeof value !== 'boolean') throw new Error(`${claim}: a boolean compares with true or false`);
    return String(value);
  },
  string: (value) => (typeof value === 'string' ? cedarString(value) : undefined),
};

function scalar(type: ClaimType, value: ScalarValue, claim: string): string {
  const literal = SCALARS[type]?.(value, claim);
  if (literal !== undefined) return literal;
  throw new Error(`${claim}: cannot compare a ${type} claim with ${JSON.stringify(value)}`);
}

const ORDERED: ReadonlySet<ClaimType> = new Set(['score_normalized', 'count', 'duration_ms']);

function stringListExpr(c: Condition, ref: string): string {
  const items = Array.isArray(c.value) ? c.value : [String(c.value)];
  if (c.op === 'contains') return `${ref}.contains(${cedarString(String(items[0] ?? ''))})`;
  if (c.op === 'containsAny' || c.op === 'containsAll')
    return `${ref}.${c.op}([${items.map(cedarString).join(', ')}])`;
  throw new Error(`${c.claim}: a string_list takes contains, containsAny or containsAll`);
}

/** One condition as a Cedar expression; throws with a reason when it does not fit the claim's type. */
export function conditionExpr(c: Condition, type: ClaimType): string {
  const ref = claimRef(c.claim);
  if (type === 'string_list') return stringListExpr(c, ref);
  if (type === 'object') throw new Error(`${c.claim}: object claims are not visible to Cedar`);
  if (['<', '<=', '>', '>='].includes(c.op) && !ORDERED.has(type))
    throw new Error(`${c.claim}: ${c.op} needs a numeric claim`);
  if (!['<', '<=', '>', '>=', '==', '!='].includes(c.op))
    throw new Error(`${c.claim}: ${c.op} needs a string_list claim`);
  return `${ref} ${c.op} ${scalar(type, c.value, c.claim)}`;
}

function phaseGuard(infos: ClaimInfo[]): string {
  const phases = [...new Set(infos.flatMap((i) => i.phases))];
  if (phases.length === 0 || infos.some((i) => i.phases.length === 0)) return '';
  return phases.length === 1
    ? `context.phase == ${cedarString(phases[0]!)}`
    : `[${phases.map(cedarString).join(', ')}].contains(context.phase)`;
}

/**
 * A rule as Cedar text. Conditions on claims that only some phases produce
 * are guarded by the phase (Cedar's `&&` short-circuits), so a response-phase
 * rule does not read a claim that the request phase never has.
 */
export function compileRule(rule: RuleSpec, claims: Map<string, ClaimInfo>): string {
  const infos: ClaimInfo[] = [];
  const exprs = rule.when.map((c) => {
    const info = claims.get(c.claim);
    if (!info) throw new Error(`${c.claim}: no registered auditor declares this claim`);
    infos.push(info);
    return conditionExpr(c, info.type);
  });
  const guard = phaseGuard(infos);
  const body = [guard, ...exprs].filter(Boolean).join(' && ');
  const scope = `principal, action == ${ACTION_TYPE}::${cedarString(ACTION_ID)}, resource`;
  return `${rule.effect} (${scope})${body ? ` when { ${body} }` : ''};`;
}

/** A stored response rule (`{claim, threshold?, minConfidence?, decision}`) as a RuleSpec. */
export function ruleSpecOf(rule: ResponseRule, claims: Map<string, ClaimInfo>): RuleSpec {
  const info = claims.get(rule.claim);
  if (!info) throw new Error(`${rule.claim}: no registered auditor declares this claim`);
  const effect = rule.decision === 'deny' ? 'forbid' : 'permit';
  const when: Condition[] = [];
  if (info.type === 'boolean') when.push({ claim: rule.claim, op: '==', value: true });
  else if (info.type === 'score_normalized') {
    if (rule.threshold === undefined) throw new Error(`${rule.claim}: a score rule needs a threshold`);
    when.push({ claim: rule.claim, op: '>=', value: rule.threshold });
  } else
    throw new Error(
      `${rule.claim}: response rules take boolean or score claims; write Cedar for ${info.type}`,
    );
  return { name: rule.name, effect, when };
}

function confidenceExpr(rule: ResponseRule): string {
  if (rule.minConfidence === undefined) return '';
  return `context.confidence[${cedarString(rule.claim)}] >= ${scaleDecimal(rule.minConfidence)}`;
}

export interface CompiledSet {
  policies: Record<string, string>;
  problems: string[];
}

function compileRecord(policy: PolicyRecord, claims: Map<string, ClaimInfo>, out: CompiledSet): void {
  for (const rule of policy.spec.responseRules ?? []) {
    try {
      let text = compileRule(ruleSpecOf(rule, claims), claims);
      const conf = confidenceExpr(rule);
      if (conf) text = text.replace(/ };$/, ` && ${conf} };`);
      out.policies[`${policy.id}/${rule.name}`] = text;
    } catch (err) {
      out.problems.push(`policy ${policy.id}, rule ${rule.name}: ${(err as Error).message}`);
    }
  }
  if (!policy.spec.cedar?.trim()) return;
  const parts = policySetTextToParts(policy.spec.cedar);
  if (parts.type === 'failure') {
    out.problems.push(
      `policy ${policy.id}: Cedar does not parse: ${parts.errors.map((e) => e.message).join('; ')}`,
    );
    return;
  }
  parts.policies.forEach((text, i) => {
    const named = /^\s*@id\("([^"\\]+)"\)/.exec(text)?.[1];
    out.policies[`${policy.id}/${named ?? `cedar-${i}`}`] = text;
  });
  if (parts.policy_templates.length > 0)
    out.problems.push(`policy ${policy.id}: templates are not supported`);
}

/**
 * The Cedar policy set of a chain `[org, …, workspace]`: a base permit, then
 * every policy's rules and Cedar text. Cedar's forbid-overrides-permit makes
 * an org forbid final whatever a workspace permits.
 */
export function compilePolicySet(chain: PolicyRecord[], claims: Map<string, ClaimInfo>): CompiledSet {
  const out: CompiledSet = { policies: { [BASE_PERMIT_ID]: BASE_PERMIT }, problems: [] };
  for (const policy of chain) compileRecord(policy, claims, out);
  return out;
}
