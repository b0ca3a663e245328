import { describe, expect, it } from 'vitest';
import { applyPlan, currentKey, isNoop, planRotation, type KeyTimes } from './rotation.ts';

const DAY = 86_400_000;
const policy = { trustDomain: 'td.test', rotateAfterMs: 30 * DAY, retainMs: DAY };
const key = (kid: string, createdAt: number, retiredAt?: number, trustDomain = 'td.test'): KeyTimes => ({
  kid,
  trustDomain,
  createdAt,
  ...(retiredAt !== undefined ? { retiredAt } : {}),
});

describe('planRotation', () => {
  it('makes a first key when there is none', () => {
    expect(planRotation([], 0, policy)).toEqual({ rotate: true, retire: [], drop: [] });
  });

  it('keeps a young key and does nothing', () => {
    const plan = planRotation([key('a', 0)], 29 * DAY, policy);
    expect(isNoop(plan)).toBe(true);
  });

  it('rotates an old key: it is retired but stays in the bundle', () => {
    const keys = [key('a', 0)];
    const plan = planRotation(keys, 30 * DAY, policy);
    expect(plan).toEqual({ rotate: true, retire: ['a'], drop: [] });
    const next = applyPlan(keys, plan, 30 * DAY, key('b', 30 * DAY));
    expect(next.map((k) => [k.kid, k.retiredAt])).toEqual([
      ['a', 30 * DAY],
      ['b', undefined],
    ]);
    expect(currentKey(next)?.kid).toBe('b');
  });

  it('keeps a retired key until every SVID it signed has expired, then drops it', () => {
    const keys = [key('a', 0, 30 * DAY), key('b', 30 * DAY)];
    expect(isNoop(planRotation(keys, 31 * DAY - 1, policy))).toBe(true);
    const plan = planRotation(keys, 31 * DAY, policy);
    expect(plan).toEqual({ rotate: false, retire: [], drop: ['a'] });
    expect(applyPlan(keys, plan, 31 * DAY).map((k) => k.kid)).toEqual(['b']);
  });

  it('rotates when the trust domain changed', () => {
    expect(planRotation([key('a', 0, undefined, 'old.test')], 1, policy).rotate).toBe(true);
  });

  it('retires all but the newest of several unretired keys', () => {
    const plan = planRotation([key('a', 0), key('b', 10)], 20, policy);
    expect(plan).toEqual({ rotate: false, retire: ['a'], drop: [] });
  });
});
