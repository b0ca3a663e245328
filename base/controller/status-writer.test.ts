import { describe, expect, it } from 'vitest';
import { statusMergePatch } from './status-writer.ts';

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
