// Envelope checks on the optional call metadata an Evidence may carry.
import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../attestation/keys.ts';
import { timeWindowProblem, validateEvidence } from './validate.ts';

const PUBLIC_KEY = Buffer.alloc(32, 7).toString('base64url');
const KEY_ID = keyIdOf(Buffer.alloc(32, 7));

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
  attestation: { key_id: KEY_ID, public_key: PUBLIC_KEY, hardware_attested: false },
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

  it('accepts the subagent a call named, and refuses one that is not a subagent name', () => {
    expect(validateEvidence(envelope({ subagent: 'web researcher/v2' })).ok).toBe(true);
    for (const subagent of ['', '-x', 'a\nb', 'x'.repeat(254), 7]) {
      const r = validateEvidence(envelope({ subagent }));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problems[0]).toMatch(/^subagent: a subagent name/);
    }
  });
});

describe('validateEvidence: the key id', () => {
  it('refuses a key id that is not derived from the public key, naming the field', () => {
    const r = validateEvidence(
      envelope({ attestation: { key_id: 'fresh-key', public_key: PUBLIC_KEY, hardware_attested: false } }),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      'attestation.key_id: must be the first 16 base64url characters of SHA-256 over attestation.public_key',
    ]);
  });
});

describe('timeWindowProblem', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const window = { maxFutureMs: 300_000, maxAgeMs: 86_400_000 };

  it('accepts a time within the skew ahead and the age behind', () => {
    expect(timeWindowProblem('2026-11-22T12:04:59Z', now, window)).toBe('');
    expect(timeWindowProblem('2026-11-21T12:00:01Z', now, window)).toBe('');
  });

  it('refuses the year 2999 and 1970, naming generated_at', () => {
    expect(timeWindowProblem('2999-01-01T00:00:00Z', now, window)).toBe(
      "generated_at: more than 300 s ahead of the Verifier's clock",
    );
    expect(timeWindowProblem('1970-01-01T00:00:00Z', now, window)).toBe('generated_at: older than 86400 s');
  });
});

describe('validateEvidence: characters (decision 91)', () => {
  const auditor = (extra: Record<string, unknown> = {}) => ({
    auditor_id: 'injection',
    deployment_mode: 'sidecar',
    channel: 'pod_local',
    status: 'error',
    claims: [],
    latency_ms: 1,
    attempts: 1,
    error: { code: 'x', message: 'line one\nline two \u0085 \u009f', retryable: false },
    ...extra,
  });

  it('keeps free text as signed: claim values and auditor messages may hold any character', () => {
    const claims = [{ name: 'model_context.model_id', type: 'string', value: 'gpt\u0085\t\u202e' }];
    const r = validateEvidence(envelope({ claims, auditors: [auditor()], decision_reasons: ['a\nb'] }));
    expect(r.ok ? [] : r.problems).toEqual([]);
  });

  it('refuses control characters in the identifiers, naming the field', () => {
    const r = validateEvidence(envelope({ workspace_id: 'ws\u007f', policy_id: 'p\n' }));
    expect(r.ok ? [] : r.problems).toEqual(['workspace_id: holds U+007F at position 2']);
  });

  it('refuses an auditor id that could not key the passport map', () => {
    for (const id of ['inj\u0091', 'Injection', '', 'a'.repeat(64)]) {
      const r = validateEvidence(envelope({ auditors: [auditor(), auditor({ auditor_id: id })] }));
      expect(r.ok ? [] : r.problems, JSON.stringify(id)).toEqual([
        'auditors[1].auditor_id: an auditor id (^[a-z0-9]([-_a-z0-9]{0,61}[a-z0-9])?$)',
      ]);
    }
  });
});
