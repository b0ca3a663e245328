// Per-phase policy subsets, worked out once per loaded set. A generated rule
// opens with a phase guard (`context.phase == "request" && …`, or
// `[…].contains(context.phase) && …`); in any other phase Cedar's `&&`
// short-circuits it to false, so it can neither decide nor error. Leaving
// such policies out of that phase's set changes no decision and no reason,
// and each policy Cedar need not evaluate saves a few microseconds.
import { contextPath, isNode } from './context-usage.ts';

const isPhase = (x: unknown): boolean => {
  const path = contextPath(x);
  return path !== null && path.length === 1 && path[0] === 'phase';
};

const stringValue = (x: unknown): string | undefined =>
  isNode(x) && typeof x.Value === 'string' ? x.Value : undefined;

/** `context.phase == "x"` (either side) → `["x"]`. */
function equalityGuard(eq: Record<string, unknown>): string[] | undefined {
  const value = isPhase(eq.left)
    ? stringValue(eq.right)
    : isPhase(eq.right)
      ? stringValue(eq.left)
      : undefined;
  return value === undefined ? undefined : [value];
}

/** `["x", "y"].contains(context.phase)` → `["x", "y"]`. */
function containsGuard(contains: unknown): string[] | undefined {
  if (!isNode(contains) || !isPhase(contains.right) || !isNode(contains.left)) return undefined;
  const items = contains.left.Set;
  if (!Array.isArray(items)) return undefined;
  const values = items.map(stringValue);
  return values.every((v) => v !== undefined) ? (values as string[]) : undefined;
}

/** The phases a guard expression admits, or undefined when it is not a phase guard. */
function guardOf(expr: unknown): string[] | undefined {
  if (!isNode(expr)) return undefined;
  const eq = expr['=='];
  return isNode(eq) ? equalityGuard(eq) : containsGuard(expr.contains);
}

/** The phases a policy (Cedar's JSON form) can apply in; undefined for every phase. */
export function guardPhases(policy: unknown): string[] | undefined {
  if (!isNode(policy) || !Array.isArray(policy.conditions)) return undefined;
  const first: unknown = policy.conditions[0];
  if (!isNode(first) || first.kind !== 'when') return undefined;
  let body = first.body;
  // The leftmost conjunct of `a && b && c` is evaluated first.
  while (isNode(body) && isNode(body['&&'])) body = body['&&'].left;
  return guardOf(body);
}

export interface PhasePlan {
  /** Guarded phase → the ids of the policies that can apply in it. */
  byPhase: Map<string, string[]>;
  /** The policies of a phase no guard names: the unguarded ones. */
  other: string[];
}

/** Which policies each phase needs; without the JSON forms, every policy everywhere. */
export function phasePlan(jsons: Map<string, unknown> | undefined, ids: string[]): PhasePlan {
  const guards = new Map(ids.map((id) => [id, jsons ? guardPhases(jsons.get(id)) : undefined]));
  const phases = new Set([...guards.values()].flatMap((g) => g ?? []));
  const byPhase = new Map(
    [...phases].map((phase) => [phase, ids.filter((id) => guards.get(id)?.includes(phase) ?? true)]),
  );
  return { byPhase, other: ids.filter((id) => guards.get(id) === undefined) };
}
