import { describe, expect, it } from 'vitest';
import type { AuditContext } from '../sdk/types.ts';
import { defaultsContext } from '../testing/harness.ts';
import { analyseToxicity, joinSpacedLetters, resolveWord } from './analyse.ts';
import { DEFAULT_THRESHOLDS, detectToxicity } from './detect.ts';
import { auditToxicity, TOXICITY_MODEL, toxicityAuditor } from './index.ts';

const detect = (text: string): boolean => detectToxicity(text, TOXICITY_MODEL, DEFAULT_THRESHOLDS).detected;

const context: AuditContext = defaultsContext(toxicityAuditor);

describe('spelling tricks', () => {
  it('joins letter-spaced words and resolves leetspeak, swaps and drops', () => {
    expect(joinSpacedLetters('a v i l e idea')).toBe('avile idea');
    expect(resolveWord('stup1d', true)?.word).toBe('stupid');
    expect(resolveWord('thraet', true)?.word).toBe('threat');
    expect(resolveWord('despicble', true)?.word).toBe('despicable');
    expect(resolveWord('massivescumbags', true)?.word).toBe('scumbags');
    expect(resolveWord('shout', true)).toBeUndefined();
  });
  it('marks negated terms', () => {
    expect(analyseToxicity('They are not vile at all').hits.find((h) => h.word === 'vile')?.negated).toBe(
      true,
    );
  });
});

describe('negation scope', () => {
  const negated = (text: string, word: string): boolean | undefined =>
    analyseToxicity(text).hits.find((h) => h.word === word)?.negated;
  it('reads "nothing but" as an intensifier, not a negation', () => {
    expect(negated('I have nothing but disdain for them', 'disdain')).toBe(false);
  });
  it('stops at a clause break', () => {
    expect(negated('I do not know them but they are vile', 'vile')).toBe(false);
  });
  it('negates everything after a denial', () => {
    expect(negated('I never said that they are scum', 'scum')).toBe(true);
    expect(analyseToxicity('I never said that they are scum').denial).toBe(true);
  });
  it('treats victims of violence differently from calls to violence', () => {
    expect(negated('people are getting murdered in the streets', 'murdered')).toBe(true);
    expect(negated('they should be murdered', 'murdered')).toBe(false);
  });
  it('counts negated positive words', () => {
    expect(analyseToxicity('they are not human').negatedPositive).toBe(1);
    expect(analyseToxicity('they are human').negatedPositive).toBe(0);
  });
});

// Our own hand-written fixtures (not from ../shared/data).
describe('toxicity detector (committed weights)', () => {
  it.each([
    'Muslims are vermin and should be exterminated.',
    'All immigrants are filthy parasites.',
    'We should hang every gay person in this town.',
  ])('flags the attack %#', (text) => expect(detect(text)).toBe(true));

  it.each([
    'I had a wonderful dinner with my Muslim neighbours.',
    'This printer is a useless piece of junk.',
    'Saying "immigrants are parasites" is bigoted and I will report it.',
    'Women deserve equal pay.',
  ])('leaves the non-hateful text %# alone', (text) => expect(detect(text)).toBe(false));
});

describe('toxicity auditor claims', () => {
  it('emits the detection pair, per-category scores and the replacement message in metadata', async () => {
    const claims = await auditToxicity(
      { data: { input: 'All immigrants are filthy parasites.' }, phase: 'request' },
      context,
    );
    const detected = claims.find((c) => c.name === 'toxicity_detected')!;
    expect(detected.value).toBe(true);
    expect(detected.metadata).toMatchObject({
      replacement_message: 'Content filtered for safety',
      block_on_detection: true,
    });
    const names = new Set(toxicityAuditor.vocabulary.map((v) => v.name));
    for (const c of claims) expect(names.has(c.name)).toBe(true);
  });

  it.each(['', '\u200b'.repeat(50_000), 'f u c k '.repeat(4000), '💩'.repeat(10_000)])(
    'survives bad input %#',
    // A hang shows as the test's own timeout; speed is measured in test/bench, not asserted here.
    (text) => {
      const r = detectToxicity(text, TOXICITY_MODEL, DEFAULT_THRESHOLDS);
      expect(r.scores.toxicity).toBeGreaterThanOrEqual(0);
      expect(r.scores.toxicity).toBeLessThanOrEqual(1);
    },
  );
});
