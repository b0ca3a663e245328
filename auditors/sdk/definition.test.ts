import { describe, expect, it } from 'vitest';
import { createTestAuditor } from '../../test/process/fixtures/test-auditors.ts';
import { definitionProblems, vocabularyDeclaration } from './definition.ts';
import { backoffDelayMs } from './register.ts';

describe('auditor definition checks', () => {
  it('accepts a well-formed definition', () => {
    expect(definitionProblems(createTestAuditor())).toEqual([]);
  });

  it('lists every problem of a broken definition', () => {
    const def = createTestAuditor();
    def.vocabulary = [
      { name: 'Bad Name', type: 'boolean', description: '', value_schema: {} },
      {
        name: 'x',
        type: 'number' as never,
        description: '',
        value_schema: {},
        settings: [{ key: 'maxLen', type: 'number', default: 'ten' }],
      },
      {
        name: 'x',
        type: 'boolean',
        description: '',
        value_schema: {},
        settings: [{ key: 'maxLen', type: 'string', default: null }],
      },
    ];
    def.phases = ['request', 'audit' as never];
    const problems = definitionProblems(def);
    expect(problems).toEqual(
      expect.arrayContaining([
        'claim "Bad Name": name must be snake_case',
        'claim x: declared twice',
        'claim x: unknown type "number"',
        'phases must be a non-empty subset of request, response, artifact, execution',
        'x.settings.maxLen: key must be snake_case',
        'x.settings.maxLen: default does not match type number',
        'x.settings.maxLen: key shared with another claim under a different type',
      ]),
    );
  });

  it('declares the vocabulary with settings[] on every entry', () => {
    const v = vocabularyDeclaration(createTestAuditor(), 'custom-id');
    expect(v).toMatchObject({ auditor_id: 'custom-id', version: '0.0.1', phases: ['request', 'response'] });
    expect(v.vocabulary.every((e) => Array.isArray(e.settings))).toBe(true);
  });
});

describe('registration backoff', () => {
  it('doubles from the initial delay up to the cap, within ±20 % jitter', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 10].map((a) => backoffDelayMs(a, 500, 4000, mid))).toEqual([
      500, 1000, 2000, 4000, 4000,
    ]);
    expect(backoffDelayMs(1, 500, 4000, () => 0)).toBe(400);
    expect(backoffDelayMs(1, 500, 4000, () => 1)).toBe(600);
  });
});
