// Which context attributes a policy set can read, worked out once per loaded
// set from Cedar's own JSON form of each policy. The Gateway then passes Cedar
// only those claims (and confidences): crossing into wasm and parsing the
// context is most of a decision's cost, and an attribute no policy names
// cannot change a decision or an error. Anything the walk does not recognise
// as a plain `context.x` / `context.confidence.x` read (the whole `context`
// or `context.confidence` used as a value) keeps everything.
import { policyToJson } from '@cedar-policy/cedar-wasm/nodejs';

export type Node = Record<string, unknown>;

export interface ContextUsage {
  /** Every top-level attribute is needed. */
  wholeContext: boolean;
  attributes: Set<string>;
  /** Every confidence entry is needed. */
  wholeConfidence: boolean;
  confidence: Set<string>;
}

export const KEEP_ALL: ContextUsage = {
  wholeContext: true,
  attributes: new Set(),
  wholeConfidence: true,
  confidence: new Set(),
};

export const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && !Array.isArray(x);

/** `[]` for `context`, `['a', 'b']` for `context.a.b`, null for anything else. */
export function contextPath(expr: unknown): string[] | null {
  if (!isNode(expr)) return null;
  if (expr.Var === 'context' && Object.keys(expr).length === 1) return [];
  const access = expr['.'];
  if (!isNode(access) || typeof access.attr !== 'string') return null;
  const inner = contextPath(access.left);
  return inner ? [...inner, access.attr] : null;
}

function record(usage: ContextUsage, path: string[]): void {
  const [top, second] = path;
  if (top === undefined) {
    usage.wholeContext = true;
    return;
  }
  usage.attributes.add(top);
  if (top !== 'confidence') return;
  if (second === undefined) usage.wholeConfidence = true;
  else usage.confidence.add(second);
}

function visit(node: unknown, usage: ContextUsage): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, usage);
    return;
  }
  if (!isNode(node)) return;
  const path = contextPath(node);
  if (path) return record(usage, path);
  const has = node.has;
  if (isNode(has) && typeof has.attr === 'string') {
    const left = contextPath(has.left);
    // `context has a` reads `a`; `context.confidence has a` reads confidence `a`.
    if (left) return record(usage, [...left, has.attr].slice(0, 2));
  }
  for (const value of Object.values(node)) visit(value, usage);
}

/** Cedar's JSON form of each policy, or undefined when one cannot be converted. */
export function policyJsons(policies: Record<string, string>): Map<string, unknown> | undefined {
  const out = new Map<string, unknown>();
  for (const [id, text] of Object.entries(policies)) {
    const json = policyToJson(text);
    if (json.type === 'failure') return undefined;
    out.set(id, json.json);
  }
  return out;
}

/** The attributes the policies (in Cedar's JSON form) can read; `KEEP_ALL` without them. */
export function contextUsage(jsons: Map<string, unknown> | undefined): ContextUsage {
  if (!jsons) return KEEP_ALL;
  const usage: ContextUsage = {
    wholeContext: false,
    attributes: new Set(),
    wholeConfidence: false,
    confidence: new Set(),
  };
  for (const json of jsons.values()) {
    visit(json, usage);
    if (usage.wholeContext) return KEEP_ALL;
  }
  return usage;
}
