import { describe, expect, it } from 'vitest';
import { jsonEqual, mergeConditions, rfc3339, setCondition, type Condition } from './conditions.ts';

const t0 = new Date('2026-01-01T00:00:00.123Z');
const t1 = new Date('2026-01-01T01:00:00.000Z');

describe('setCondition', () => {
  it('adds a new condition with the transition time at second precision', () => {
    const list = setCondition(undefined, { type: 'Ready', status: 'False', reason: 'PodNotCreated' }, t0);
    expect(list).toEqual([
      { type: 'Ready', status: 'False', reason: 'PodNotCreated', lastTransitionTime: '2026-01-01T00:00:00Z' },
    ]);
  });

  it('keeps lastTransitionTime when the status is unchanged, even when reason and message change', () => {
    const before = setCondition(undefined, { type: 'Ready', status: 'False', reason: 'A', message: 'a' }, t0);
    const after = setCondition(before, { type: 'Ready', status: 'False', reason: 'B', message: 'b' }, t1);
    expect(after[0]).toMatchObject({ reason: 'B', message: 'b', lastTransitionTime: rfc3339(t0) });
  });

  it('moves lastTransitionTime when the status changes', () => {
    const before = setCondition(undefined, { type: 'Ready', status: 'False', reason: 'A' }, t0);
    const after = setCondition(before, { type: 'Ready', status: 'True', reason: 'A' }, t1);
    expect(after[0]?.lastTransitionTime).toBe(rfc3339(t1));
  });

  it('drops an empty message so that equal conditions compare equal', () => {
    const list = setCondition(undefined, { type: 'X', status: 'True', reason: 'R', message: '' }, t0);
    expect('message' in (list[0] as Condition)).toBe(false);
  });
});

describe('mergeConditions', () => {
  const foreign: Condition = {
    type: 'Attested',
    status: 'True',
    reason: 'Quote',
    lastTransitionTime: rfc3339(t0),
  };
  const stale: Condition = {
    type: 'Stale',
    status: 'True',
    reason: 'NoActivity',
    lastTransitionTime: rfc3339(t0),
  };

  it('keeps conditions other controllers own and removes owned ones no longer desired', () => {
    const merged = mergeConditions(
      [foreign, stale],
      [{ type: 'Ready', status: 'True', reason: 'PodRunning' }],
      t1,
      ['Ready', 'Stale'],
    );
    expect(merged.map((c) => c.type)).toEqual(['Attested', 'Ready']);
  });

  it('is idempotent: the same desired conditions give an equal list', () => {
    const desired = [{ type: 'Ready', status: 'False' as const, reason: 'R', observedGeneration: 2 }];
    const once = mergeConditions([], desired, t0, ['Ready']);
    const twice = mergeConditions(once, desired, t1, ['Ready']);
    expect(jsonEqual(once, twice)).toBe(true);
  });
});

describe('jsonEqual', () => {
  it('ignores key order and undefined members but not array order', () => {
    expect(jsonEqual({ a: 1, b: [1, 2], c: undefined }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual({ b: [2, 1] }, { b: [1, 2] })).toBe(false);
    expect(jsonEqual({ a: null }, { a: 0 })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });
});
