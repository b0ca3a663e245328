import { describe, expect, it } from 'vitest';
import { syncVocabulary } from './vocabulary.ts';

const entry = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'boolean',
  description: 'd',
  value_schema: { type: 'boolean' },
  ...extra,
});

describe('syncVocabulary', () => {
  it('turns a declaration into claims, phases and version', () => {
    const out = syncVocabulary('pii', {
      auditor_id: 'pii',
      version: '2.1',
      schema_version: '2.0.0',
      phases: ['response'],
      vocabulary: [entry('pii.found', { settings: [{ key: 'threshold', type: 'number', default: 0.5 }] })],
    });
    expect(out).toEqual({
      ok: true,
      value: {
        claims: [
          {
            name: 'pii.found',
            type: 'boolean',
            description: 'd',
            settings: [{ key: 'threshold', type: 'number', default: 0.5 }],
          },
        ],
        phases: ['response'],
        version: '2.1',
      },
    });
  });

  it.each([
    ['not an object', 'nope', /vocabulary/],
    ['no claims', { vocabulary: [] }, /vocabulary\/vocabulary/],
    ['a bad claim name', { vocabulary: [entry('Bad Name')] }, /vocabulary\/vocabulary\/0\/name/],
    ['an unknown claim type', { vocabulary: [{ ...entry('a'), type: 'percent' }] }, /type/],
    [
      'schema version 3',
      { schema_version: '3.0', vocabulary: [entry('a')] },
      /schema_version 3.0 is not 2.x/,
    ],
    ['another auditor', { auditor_id: 'other', vocabulary: [entry('a')] }, /"other"'s, not pii's/],
    ['a claim twice', { vocabulary: [entry('a'), entry('a')] }, /claim a is declared twice/],
    [
      'a setting twice',
      {
        vocabulary: [
          entry('a', {
            settings: [
              { key: 'k', type: 'number' },
              { key: 'k', type: 'string' },
            ],
          }),
        ],
      },
      /claim a declares setting k twice/,
    ],
  ])('refuses %s, naming why', (_what, decl, problem) => {
    const out = syncVocabulary('pii', decl);
    expect(out.ok).toBe(false);
    expect(out.ok ? '' : out.problem).toMatch(problem);
  });
});
