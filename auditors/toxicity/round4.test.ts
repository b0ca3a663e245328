// Issue 17 round 4 (decision 208): veiled threats, homonym contexts, and
// ordinary words the fuzzy match must not respell. Sentences written for
// these tests (not from ../shared/data, the augmentation set or a blind set).
import { describe, expect, it } from 'vitest';
import { analyseToxicity, resolveWord } from './analyse.ts';

const wish = (text: string): number => analyseToxicity(text).implicit.harmWish;

describe('veiled threats against a group are harm wishes', () => {
  it('fires on intimidation that names no threat word', () => {
    expect(wish('Those Sikhs had better watch their backs around here.')).toBe(1);
    expect(wish("We'll show these Roma what happens when they stay.")).toBe(1);
    expect(wish('Any Hindu who comes to the match is leaving in an ambulance.')).toBe(1);
    expect(wish('Lesbians who do that deserve a slap.')).toBe(1);
  });
  it('does not fire on the same words with no group or negated', () => {
    expect(wish('The striker had better watch his back in the second half.')).toBe(0);
    expect(wish('Lesbians do not deserve a slap for kissing in public.')).toBe(0);
  });
});

describe('ordinary words are not respelled into lexicon words', () => {
  it('leaves frequent words alone', () => {
    for (const w of ['down', 'money', 'pics', 'pick', 'lose', 'treat', 'hangover'])
      expect(resolveWord(w, false)?.word).toBeUndefined();
  });
  it('still repairs misspelt hostile words', () => {
    expect(resolveWord('klil', false)?.word).toBe('kill');
  });
});

describe('homonyms in their ordinary context', () => {
  it('marks the context', () => {
    expect(analyseToxicity('Popping out for a fag and a coffee.').homonymContext).toBe(true);
    expect(analyseToxicity('A chink of light came through the curtains.').homonymContext).toBe(true);
  });
});
