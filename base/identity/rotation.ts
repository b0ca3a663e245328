// When the trust-domain key rotates and which keys the bundle keeps, pure:
// the newest unretired key signs; it is retired (and a fresh one made) once it
// is `rotateAfterMs` old or was made for another trust domain; a retired key
// stays in the bundle until every SVID it signed has expired (`retainMs`
// after its retirement, at least the longest SVID lifetime), then is dropped.
export interface KeyTimes {
  kid: string;
  trustDomain: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  retiredAt?: number;
}

export interface RotationPolicy {
  trustDomain: string;
  rotateAfterMs: number;
  retainMs: number;
}

export interface RotationPlan {
  /** Make a fresh signing key. */
  rotate: boolean;
  /** Keys to mark retired now (no longer signing, still in the bundle). */
  retire: string[];
  /** Keys to remove from the bundle. */
  drop: string[];
}

/** The key that signs: the newest one not retired. */
export function currentKey<K extends KeyTimes>(keys: readonly K[]): K | undefined {
  return keys.filter((k) => k.retiredAt === undefined).sort((a, b) => b.createdAt - a.createdAt)[0];
}

export function planRotation(keys: readonly KeyTimes[], nowMs: number, policy: RotationPolicy): RotationPlan {
  const current = currentKey(keys);
  const rotate =
    !current ||
    current.trustDomain !== policy.trustDomain ||
    nowMs - current.createdAt >= policy.rotateAfterMs;
  const retire = keys
    .filter((k) => k.retiredAt === undefined && (rotate || k.kid !== current?.kid))
    .map((k) => k.kid);
  const drop = keys
    .filter((k) => k.retiredAt !== undefined && nowMs >= k.retiredAt + policy.retainMs)
    .map((k) => k.kid);
  return { rotate, retire, drop };
}

export const isNoop = (p: RotationPlan): boolean => !p.rotate && p.retire.length === 0 && p.drop.length === 0;

/** The key list after `plan`, with `fresh` (made by the caller when `plan.rotate`) appended. */
export function applyPlan<K extends KeyTimes>(
  keys: readonly K[],
  plan: RotationPlan,
  nowMs: number,
  fresh?: K,
): K[] {
  const kept = keys
    .filter((k) => !plan.drop.includes(k.kid))
    .map((k) => (plan.retire.includes(k.kid) ? { ...k, retiredAt: nowMs } : k));
  return fresh ? [...kept, fresh] : kept;
}
