// The passport's accesses are rendered from stored, signed Evidence.
import { describe, expect, it } from 'vitest';
import type { StoredEvidence } from '../../evidence/store.ts';
import type { Evidence } from '../../evidence/types.ts';
import type { StoredAccess } from '../../accesses/store.ts';
import { normalizedRecord, type AccessWire } from '../../accesses/record.ts';
import { accessesFromDataLog, accessesFromEvidence, mergedAccesses } from './passport.ts';

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
        source: 'model_call',
        time: '2026-11-22T00:00:00.000Z',
        resource: 'model:gpt-4o',
        operation: 'model.response',
        decision: 'deny',
        blocked: true,
        evidence_id: 'ev-2',
      },
      {
        source: 'model_call',
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

const dataAccess = (seq: number, a: Partial<AccessWire>): StoredAccess =>
  ({
    seq,
    access: normalizedRecord({
      at: '2026-11-22T00:00:01.000Z',
      kind: 'https',
      destination: 'api.example.com:443',
      method: 'GET',
      action: 'read',
      outcome: 'forwarded',
      bytes_up: 1,
      bytes_down: 2,
      duration_ms: 3,
      ...a,
    }),
  }) as StoredAccess;

describe('accessesFromDataLog', () => {
  it('names the destination and path, the method and the outcome; only a call that went out is allowed', () => {
    const accesses = accessesFromDataLog([
      dataAccess(7, { path: '/v1/items', status: 200, service: 'example', user: 'ann' }),
      dataAccess(6, { method: 'POST', action: 'write', outcome: 'approval_denied', approval_id: 'ap-1' }),
      dataAccess(5, { outcome: 'upstream_error' }),
    ]);
    expect(accesses).toEqual([
      {
        source: 'data_access',
        time: '2026-11-22T00:00:01.000Z',
        resource: 'api.example.com:443/v1/items',
        operation: 'GET',
        decision: 'allow',
        blocked: false,
        access_seq: 7,
        action: 'read',
        outcome: 'forwarded',
        status: 200,
        service: 'example',
        user_id: 'ann',
      },
      {
        source: 'data_access',
        time: '2026-11-22T00:00:01.000Z',
        resource: 'api.example.com:443',
        operation: 'POST',
        decision: 'deny',
        blocked: true,
        access_seq: 6,
        action: 'write',
        outcome: 'approval_denied',
      },
      expect.objectContaining({ decision: 'allow', blocked: false, outcome: 'upstream_error' }),
    ]);
  });
});

describe('mergedAccesses', () => {
  it('interleaves model calls and data accesses newest first and keeps the newest `limit`', () => {
    const model = accessesFromEvidence([
      stored({ evidence_id: 'ev-new', generated_at: '2026-11-22T00:00:03.000Z' }),
      stored({ evidence_id: 'ev-old', generated_at: '2026-11-22T00:00:00.000Z' }),
    ]);
    const data = accessesFromDataLog([
      dataAccess(2, { at: '2026-11-22T00:00:02.000Z' }),
      dataAccess(1, { at: '2026-11-22T00:00:01.000Z' }),
    ]);
    const merged = mergedAccesses(model, data, 3);
    expect(merged.map((a) => a.evidence_id ?? a.access_seq)).toEqual(['ev-new', 2, 1]);
  });
});
