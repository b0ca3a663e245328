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

  it('writes the first status of a new object', () => {
    expect(statusMergePatch(undefined, { phase: 'pending' })).toEqual({ phase: 'pending' });
  });
});
