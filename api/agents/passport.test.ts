// The passport's accesses are rendered from stored, signed Evidence.
import { describe, expect, it } from 'vitest';
import type { StoredEvidence } from '../../evidence/store.ts';
import type { Evidence } from '../../evidence/types.ts';
import { accessesFromEvidence } from './passport.ts';

const stored = (e: Partial<Evidence>): StoredEvidence =>
  ({
    evidence: {
      evidence_id: 'ev-1',
      generated_at: '2026-11-22T00:00:00.000Z',
      phase: 'request',
      decision: 'allow',
      blocked: false,
      ...e,
    },
  }) as StoredEvidence;

describe('accessesFromEvidence', () => {
  it('names the model, the phase, the decision and the evidence of each call, newest first as stored', () => {
    const accesses = accessesFromEvidence([
      stored({ evidence_id: 'ev-2', phase: 'response', model_id: 'gpt-4o', decision: 'deny', blocked: true }),
      stored({ user_id: 'ann' }),
    ]);
    expect(accesses).toEqual([
      {
        time: '2026-11-22T00:00:00.000Z',
        resource: 'model:gpt-4o',
        operation: 'model.response',
        decision: 'deny',
        blocked: true,
        evidence_id: 'ev-2',
      },
      {
        time: '2026-11-22T00:00:00.000Z',
        resource: 'model',
        operation: 'model.request',
        decision: 'allow',
        blocked: false,
        evidence_id: 'ev-1',
        user_id: 'ann',
      },
    ]);
  });

  it('keeps other phases as they are', () => {
    expect(accessesFromEvidence([stored({ phase: 'execution' })])[0]?.operation).toBe('execution');
  });
});
