import { describe, expect, it } from 'vitest';
import { ReplacementTracker, recreateDelayMs } from './injection.ts';

describe('re-creation delay after un-injected pods', () => {
  it('re-creates the first at once, then waits 5 s, doubling up to 5 min', () => {
    expect([1, 2, 3, 4, 5, 8, 9, 20].map(recreateDelayMs)).toEqual([
      0, 5_000, 10_000, 20_000, 40_000, 300_000, 300_000, 300_000,
    ]);
  });

  it('counts replacements in a row per agent and knows the pod it deleted', () => {
    const t = new ReplacementTracker();
    t.record('a', { problem: 'p', podUid: 'pod-1' }, 1_000);
    expect(t.waitMs('a', 1_000)).toBe(0);
    t.record('a', { problem: 'p', podUid: 'pod-2' }, 2_000);
    expect(t.waitMs('a', 3_000)).toBe(4_000);
    expect(t.deleted('a', { metadata: { uid: 'pod-2' } })).toBe(true);
    expect(t.deleted('a', { metadata: { uid: 'pod-3' } })).toBe(false);
    expect(t.waitMs('b', 3_000)).toBe(0);
    t.clear('a');
    expect(t.get('a')).toBeUndefined();
  });
});
