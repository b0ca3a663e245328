// Context rules of the toxicity auditor: negation scope, reported speech and
// its stance, counter-speech, the writer's own attitude. Sentences written
// for these tests (not from ../shared/data); each one is a case a simpler
// rule gets wrong.
import { describe, expect, it } from 'vitest';
import { analyseToxicity } from './analyse.ts';
import { DEFAULT_THRESHOLDS, detectToxicity } from './detect.ts';
import { frameStatus } from './frames.ts';
import { negatedAt } from './negation.ts';
import { tokenize } from './stream.ts';
import { TOXICITY_MODEL } from './index.ts';

const negated = (text: string, word: string): boolean | undefined =>
  analyseToxicity(text).hits.find((h) => h.word === word)?.negated;
const frames = (text: string) => analyseToxicity(text).frames;
const detect = (text: string): boolean => detectToxicity(text, TOXICITY_MODEL, DEFAULT_THRESHOLDS).detected;

describe('tokens, sentences and quotations', () => {
  it('keeps sentence punctuation inside a quotation out of the sentence structure', () => {
    const s = tokenize('she wrote "they are rats!" and left. was it fair?', 100);
    expect(s.tokens).toEqual(['she', 'wrote', 'they', 'are', 'rats', 'and', 'left', 'was', 'it', 'fair']);
    expect(s.quoted.slice(2, 5)).toEqual([true, true, true]);
    expect(s.sentence).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    expect(s.question.slice(0, 2)).toEqual([false, true]);
  });
  it('treats one-word quotes as emphasis and pairs single quotes and curly apostrophes', () => {
    expect(tokenize('a "so-called" expert', 10).quoted).toEqual([false, false, false]);
    const s = tokenize("he said 'owls are pests' and didn’t apologise", 20);
    expect(s.quoted.slice(2, 5)).toEqual([true, true, true]);
    expect(s.tokens).toContain("didn't");
  });
  it('stops at the token limit', () => {
    expect(tokenize('word '.repeat(50), 10).tokens).toHaveLength(10);
  });
});

describe('negation scope', () => {
  it('skips adverbs but ends at a comma or a complement clause', () => {
    expect(negated('I do not really, truly despise them', 'despise')).toBe(false);
    expect(negated('I do not really truly despise them', 'despise')).toBe(true);
    expect(negated('it is not obvious that I despise them', 'despise')).toBe(false);
    expect(negated('they are not that vile', 'vile')).toBe(true);
  });
  it('lets a negated subject reach the end of its clause', () => {
    expect(negated('Nobody in this village should ever be made to suffer', 'suffer')).toBe(true);
    expect(negated('No farmer anywhere in the valley deserves to be beaten', 'beaten')).toBe(true);
    expect(negated('They said no, and every farmer will be beaten', 'beaten')).toBe(false);
    expect(negated('Not a single farmer I know is lazy or stupid', 'stupid')).toBe(true);
    expect(negated('Nothing disgusts me more than farmers', 'disgusts')).toBe(false);
  });
  it('does not read the opener of a rhetorical question as negation', () => {
    expect(negated("Isn't it time we got rid of the farmers?", 'eliminate')).toBe(false);
    expect(negated('It is not time we got rid of the farmers.', 'eliminate')).toBe(true);
  });
  it('reads an opposed emotion as not felt', () => {
    expect(negated('We stand together against hate', 'hate')).toBe(true);
    expect(negated('We hate them', 'hate')).toBe(false);
  });
  it('does not let a negated positive cover the harm it denies', () => {
    expect(analyseToxicity('Farmers do not deserve to be hurt').negatedPositive).toBe(0);
    expect(analyseToxicity('Farmers do not deserve respect').negatedPositive).toBeGreaterThan(0);
  });
  it('is bounded on long adverb runs', () => {
    const s = tokenize(`not ${'really '.repeat(1500)}vile`, 2000);
    expect(negatedAt(s, s.tokens.length - 1)).toBe(false);
  });
});

describe('reported speech', () => {
  const status = (text: string, word: string): number => {
    const s = tokenize(text, 100);
    return frameStatus(s)[s.tokens.indexOf(word)]!;
  };
  it('asserts what the unnegated writer thinks, even in a question seeking agreement', () => {
    expect(status('i think owls are vermin', 'vermin')).toBe(1);
    expect(status('am i wrong to think owls are vermin?', 'vermin')).toBe(1);
    expect(status("don't you think owls are vermin?", 'vermin')).toBe(1);
    expect(status('who else thinks owls are vermin?', 'vermin')).toBe(1);
  });
  it('keeps the writer’s negated belief as the writer’s (negation raising)', () => {
    expect(status("i don't think owls deserve rights", 'deserve')).toBe(1);
  });
  it('rejects what is denied, questioned or said by "you"', () => {
    expect(status('you cannot seriously believe owls are vermin', 'vermin')).toBe(3);
    expect(status('do you really think owls are vermin?', 'vermin')).toBe(3);
    expect(status('you said owls are vermin', 'vermin')).toBe(3);
    expect(status('it is not true that owls are vermin', 'vermin')).toBe(3);
    expect(status('it is simply false that owls are vermin', 'vermin')).toBe(3);
    expect(status('it is true that owls are vermin', 'vermin')).toBe(1);
  });
  it('reports what the writer reads, and a wish only when someone holds it', () => {
    expect(status('when i read "owls are vermin" i cried', 'vermin')).toBe(2);
    expect(status('anyone who wants owls dead is wrong', 'dead')).toBe(2);
    expect(status('owls want everything dead', 'dead')).toBe(0);
  });
  it('ends a gerund or relative subject at its singular verb, where the act is judged', () => {
    expect(status('calling owls vermin is cruel', 'cruel')).toBe(0);
    expect(status('anyone who calls owls vermin is a coward', 'coward')).toBe(0);
    expect(status('people who say owls are vermin are wrong', 'wrong')).toBe(2);
  });
  it('reports a third person, a gerund, a relative clause or a quotation', () => {
    expect(status('my aunt says owls are vermin', 'vermin')).toBe(2);
    expect(status('calling owls vermin is silly', 'vermin')).toBe(2);
    expect(status('i blocked the account that said owls are vermin', 'vermin')).toBe(2);
    expect(status('"owls are vermin" was on the sign', 'vermin')).toBe(2);
  });
  it('reads an evaluation relativised to "you" as their view, a wish "to you" as not', () => {
    expect(status('owls may be worth nothing to you', 'worth')).toBe(3);
    expect(status('death to you', 'death')).toBe(0);
  });
  it('ends the frame at a clause break', () => {
    expect(status('he says owls are fine, but they are vermin', 'vermin')).toBe(0);
  });
});

describe('counter-speech', () => {
  it('needs rejection or condemnation of the reported words', () => {
    expect(frames('My aunt says immigrants are vermin.').counter).toBe(false);
    expect(frames('My aunt says immigrants are vermin, which is bigoted.').counter).toBe(true);
    expect(frames('"Immigrants are vermin" was sprayed on the wall. Sickening.').counter).toBe(true);
    expect(frames('You really believe "immigrants are vermin"?').counter).toBe(true);
  });
  it('is cancelled by endorsement and flipped by negated endorsement', () => {
    expect(frames('My aunt says immigrants are vermin, and she is absolutely right.').counter).toBe(false);
    expect(frames('Repeating "immigrants are vermin" does not make it true.').counter).toBe(true);
  });
  it('is not claimed when the writer also attacks the group', () => {
    expect(frames('People call immigrants vermin, which is wrong; immigrants are scum.').counter).toBe(false);
  });
  it('covers emotions attributed to someone else', () => {
    expect(frames('Their contempt for immigrants has to stop.').counter).toBe(true);
    expect(frames('My contempt for immigrants will never stop.').counter).toBe(false);
  });
});

describe("the writer's own attitude", () => {
  it('finds emotions the writer feels and harm the writer intends', () => {
    expect(analyseToxicity('Immigrants make me want to vomit').writer.emotion).toBeGreaterThan(0);
    expect(analyseToxicity('Their loathing of immigrants').writer.emotion).toBe(0);
    expect(analyseToxicity("I'm going to hurt every immigrant I meet").writer.intent).toBeGreaterThan(0);
    expect(analyseToxicity('Immigrants are getting hurt every day').writer.intent).toBe(0);
  });
});

// Committed weights; sentences of our own.
describe('detector decisions in context', () => {
  it.each([
    'You cannot seriously believe that "Muslims are lesser beings".',
    'Saying that refugees are parasites is a lie, and I will report it.',
    'The claim that disabled people are a burden has been debunked.',
    'No Jew deserves to be threatened or beaten.',
  ])('leaves the counter-speech or negation %# alone', (text) => expect(detect(text)).toBe(false));

  it.each([
    'I honestly believe Muslims are lesser beings.',
    "I'm going to hurt every immigrant I meet.",
    'My uncle says refugees are parasites and he is right.',
    'Women will never be equal to men.',
  ])('flags the attack %#', (text) => expect(detect(text)).toBe(true));
});
