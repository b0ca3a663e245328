// Envelope checks on the optional call metadata an Evidence may carry.
import { describe, expect, it } from 'vitest';
import { validateEvidence } from './validate.ts';

const envelope = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  schema_version: '2.0.0',
  evidence_id: 'ev-1',
  attester_id: 'gateway/a',
  attester_type: 'gateway',
  agent_id: 'ns.agent',
  claims: [],
  decision: 'allow',
  decision_reasons: [],
  policy_id: 'p',
  policy_version: '1',
  phase: 'request',
  generated_at: '2026-11-22T00:00:00Z',
  auditors: [],
  attestation: { key_id: 'k', public_key: 'pk', hardware_attested: false },
  signature: 'sig',
  ...extra,
});

describe('validateEvidence: call metadata', () => {
  it('accepts an Evidence with or without model, user and session ids', () => {
    expect(validateEvidence(envelope()).ok).toBe(true);
    expect(validateEvidence(envelope({ model_id: 'gpt-4o', user_id: 'ann', session_id: 's' })).ok).toBe(true);
  });

  it('names each malformed id', () => {
    const r = validateEvidence(envelope({ model_id: 'has space', user_id: 7, session_id: '' }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      'model_id: 1–253 printable ASCII characters when present',
      'user_id: 1–253 printable ASCII characters when present',
      'session_id: 1–253 printable ASCII characters when present',
    ]);
  });
});
