import { describe, expect, it } from 'vitest';
import { findDecisionWords, findDecisionWordsInClaim } from './decision-words.ts';

describe('findDecisionWords', () => {
  it('finds decision words in strings and decision keys in objects, with their paths', () => {
    const found = findDecisionWords({ value: [' Deny ', 'fine'], detail: { verdict: 'ok', n: 1 } });
    expect(found.sort()).toEqual(['$.detail.verdict (decision key)', '$.value[0] = " Deny "']);
  });

  it('finds nothing in plain values', () => {
    expect(findDecisionWords({ score: 0.4, terms: ['x', null] })).toEqual([]);
    expect(findDecisionWords('hello')).toEqual([]);
  });

  it('survives deep nesting (iterative)', () => {
    let deep: unknown = 'block';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(findDecisionWords(deep)).toHaveLength(1);
  });

  it('leaves out a claim provenance', () => {
    expect(findDecisionWordsInClaim({ value: 1, provenance: { block_on_detection: 'block' } })).toEqual([]);
  });
});
