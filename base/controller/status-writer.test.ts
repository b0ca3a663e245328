import { describe, expect, it } from 'vitest';
import { statusMergePatch, withObservedGeneration } from './status-writer.ts';

describe('statusMergePatch', () => {
  it('is undefined when nothing changed, whatever the key order', () => {
    expect(
      statusMergePatch(
        { phase: 'pending', observedGeneration: 1 },
        { observedGeneration: 1, phase: 'pending' },
      ),
    ).toBeUndefined();
  });

  it('carries the desired status and nulls keys that disappeared', () => {
    expect(statusMergePatch({ phase: 'pending', clientId: 'x' }, { phase: 'running' })).toEqual({
      phase: 'running',
      clientId: null,
    });
  });

  it('nulls keys gone from nested maps too, so a shrinking map converges', () => {
    const current = { passport: { trustTiers: { injection: 'unverified', 'llm-judge': 'tee_attested' } } };
    const desired = { passport: { trustTiers: { 'llm-judge': 'tee_attested' } } };
    expect(statusMergePatch(current, desired)).toEqual({
      passport: { trustTiers: { injection: null, 'llm-judge': 'tee_attested' } },
    });
  });

  it('writes the first status of a new object', () => {
    expect(statusMergePatch(undefined, { phase: 'pending' })).toEqual({ phase: 'pending' });
  });
});

describe('withObservedGeneration', () => {
  const conditions = [
    { type: 'Ready', status: 'True', reason: 'Reconciled', lastTransitionTime: 't' },
    // A condition another writer owns keeps its own generation.
    { type: 'Foreign', status: 'True', reason: 'X', lastTransitionTime: 't', observedGeneration: 1 },
  ];

  it("stamps the object's generation on the status and on the conditions set this time", () => {
    expect(withObservedGeneration({ phase: 'running', conditions }, 4)).toEqual({
      phase: 'running',
      observedGeneration: 4,
      conditions: [{ ...conditions[0], observedGeneration: 4 }, conditions[1]],
    });
  });

  it('stamps a status without conditions and leaves one without a generation alone', () => {
    expect(withObservedGeneration({ phase: 'active' }, 2)).toEqual({
      phase: 'active',
      observedGeneration: 2,
    });
    expect(withObservedGeneration({ phase: 'active' }, undefined)).toEqual({ phase: 'active' });
  });
});
