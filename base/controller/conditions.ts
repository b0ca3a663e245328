// Kubernetes-shaped status conditions, computed purely: a reconciler states the
// conditions it wants and these helpers keep `lastTransitionTime` when a
// condition's status did not change, so an unchanged object yields an equal
// status and the status writer performs no write.

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Condition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message?: string;
  /** RFC 3339, UTC, second precision (the apiserver's `date-time` format). */
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** What a reconciler decides; the transition time is filled in by `setCondition`. */
export type DesiredCondition = Omit<Condition, 'lastTransitionTime'>;

/** RFC 3339 at second precision, as metav1.Time serialises. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * Returns the list with `desired` set: the transition time is kept when the
 * status is unchanged and set to `now` when it changed or is new.
 * Order is kept; a new type is appended.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  desired: DesiredCondition,
  now: Date,
): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === desired.type);
  const previous = index >= 0 ? list[index] : undefined;
  const lastTransitionTime =
    previous && previous.status === desired.status ? previous.lastTransitionTime : rfc3339(now);
  const next: Condition = { ...withoutEmptyMessage(desired), lastTransitionTime };
  if (index >= 0) list[index] = next;
  else list.push(next);
  return list;
}

/**
 * Sets every desired condition. A type listed in `owned` but absent from
 * `desired` is removed; types this reconciler does not own are kept untouched.
 */
export function mergeConditions(
  conditions: readonly Condition[] | undefined,
  desired: readonly DesiredCondition[],
  now: Date,
  owned: readonly string[] = [],
): Condition[] {
  const wanted = new Set(desired.map((d) => d.type));
  let list = (conditions ?? []).filter((c) => wanted.has(c.type) || !owned.includes(c.type));
  for (const d of desired) list = setCondition(list, d, now);
  return list;
}

function withoutEmptyMessage(desired: DesiredCondition): DesiredCondition {
  if (desired.message !== undefined && desired.message !== '') return { ...desired };
  const { message: _message, ...rest } = desired;
  return rest;
}

/** Structural equality of JSON values, independent of key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((v, i) => jsonEqual(v, bs[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const aKeys = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bKeys = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return aKeys.length === bKeys.length && aKeys.every((k) => jsonEqual(ao[k], bo[k]));
}
