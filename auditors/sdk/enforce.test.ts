import { describe, expect, it } from 'vitest';
import { enforceClaims, valueMatchesClaimType, type Stamp } from './enforce.ts';
import type { VocabularyEntry } from './types.ts';

const vocab = new Map<string, VocabularyEntry>(
  (
    [
      { name: 'risk_score', type: 'score_normalized', description: '', value_schema: {} },
      {
        name: 'risk_detected',
        type: 'boolean',
        description: '',
        value_schema: {},
        settings: [{ key: 'threshold', type: 'number', default: 0.5 }],
      },
      { name: 'labels', type: 'string_list', description: '', value_schema: {} },
      { name: 'note', type: 'string', description: '', value_schema: {} },
    ] satisfies VocabularyEntry[]
  ).map((v) => [v.name, v]),
);

const now = new Date('2026-01-02T03:04:05.000Z');
const stamp: Stamp = {
  auditorId: 'test',
  version: '1.2.3',
  now,
  settingsFor: (name): Record<string, number> => (name === 'risk_detected' ? { threshold: 0.5 } : {}),
  extraProvenance: { tee_provider: 'MOCK' },
};

function problems(claims: unknown[]): string[] {
  const out = enforceClaims(claims, vocab, stamp);
  return out.ok ? [] : out.problems;
}

describe('claim enforcement', () => {
  it('fills the timestamp, the declared type and stamps provenance with the effective settings', () => {
    const out = enforceClaims(
      [{ name: 'risk_detected', value: true, provenance: { model: 'm' } }],
      vocab,
      stamp,
    );
    expect(out).toEqual({
      ok: true,
      claims: [
        {
          name: 'risk_detected',
          type: 'boolean',
          value: true,
          timestamp: '2026-01-02T03:04:05.000Z',
          provenance: {
            model: 'm',
            tee_provider: 'MOCK',
            auditor_id: 'test',
            auditor_version: '1.2.3',
            settings: { threshold: 0.5 },
          },
        },
      ],
    });
  });

  it('normalises a given timestamp to RFC 3339 UTC', () => {
    const out = enforceClaims(
      [{ name: 'note', type: 'string', value: 'x', timestamp: '2026-01-02T05:04:05+02:00' }],
      vocab,
      stamp,
    );
    expect(out.ok && out.claims[0]?.timestamp).toBe('2026-01-02T03:04:05.000Z');
  });

  it('refuses a claim that is not declared', () => {
    expect(problems([{ name: 'surprise', type: 'boolean', value: true }])).toEqual([
      'claim 0: "surprise" is not declared in the vocabulary',
    ]);
  });

  it('refuses a value of the wrong type without quoting it', () => {
    const found = problems([{ name: 'risk_score', type: 'score_normalized', value: 'secret text' }]);
    expect(found).toEqual(['claim risk_score: value (string) is not a valid score_normalized']);
  });

  it('refuses a type that differs from the declaration', () => {
    expect(problems([{ name: 'note', type: 'boolean', value: 'x' }])[0]).toContain(
      'differs from the declared string',
    );
  });

  it('refuses a confidence outside 0–1 and a non-date timestamp', () => {
    expect(problems([{ name: 'note', value: 'x', confidence: 1.5 }])[0]).toContain(
      'confidence (number 1.5) is outside 0–1',
    );
    expect(problems([{ name: 'note', value: 'x', timestamp: 'yesterday' }])[0]).toContain(
      'timestamp (string) is not a date',
    );
  });

  it('refuses decision words in values, lists and metadata', () => {
    expect(problems([{ name: 'note', value: 'blocked' }])[0]).toContain('auditors observe');
    expect(problems([{ name: 'labels', value: ['fine', 'DENY'] }])).toHaveLength(1);
    expect(problems([{ name: 'note', value: 'x', metadata: { decision: 'x' } }])).toHaveLength(1);
  });

  it('does not treat settings recorded in provenance as decisions', () => {
    expect(problems([{ name: 'note', value: 'ok', provenance: { mode: 'block' } }])).toEqual([]);
  });

  it('refuses a result that is not an array', () => {
    expect(enforceClaims({ name: 'note' }, vocab, stamp)).toEqual({
      ok: false,
      problems: ['audit() must return an array of claims'],
    });
  });

  it.each([
    ['score_normalized', 0, true],
    ['score_normalized', 1.0001, false],
    ['count', 3, true],
    ['count', 2.5, false],
    ['count', -1, false],
    ['duration_ms', 12.5, true],
    ['duration_ms', Number.POSITIVE_INFINITY, false],
    ['object', { a: 1 }, true],
    ['object', [1], false],
    ['object', null, false],
    ['string_list', [], true],
    ['boolean', 'true', false],
  ] as const)('checks %s value %j → %s', (type, value, expected) => {
    expect(valueMatchesClaimType(type, value)).toBe(expected);
  });
});
