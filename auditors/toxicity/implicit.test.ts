// Implicit hate (implicit.ts): exclusion, loaded questions, harm wishes and
// victim frames around a protected group. Sentences written for these tests
// (not from ../shared/data or the augmentation set); each pair puts a
// construction next to a look-alike that must not fire.
import { describe, expect, it } from 'vitest';
import { analyseToxicity } from './analyse.ts';
import { DEFAULT_THRESHOLDS, detectToxicity } from './detect.ts';
import { TOXICITY_MODEL } from './index.ts';

const implicit = (text: string) => analyseToxicity(text).implicit;
const detect = (text: string): boolean => detectToxicity(text, TOXICITY_MODEL, DEFAULT_THRESHOLDS).detected;

describe('exclusion and expulsion predicates', () => {
  it('fires on a restriction or removal applied to a group', () => {
    expect(implicit('Muslims must never be allowed to run a school.').exclusion).toBe(1);
    expect(implicit('Lock up the refugees and be done with it.').exclusion).toBe(1);
    expect(implicit('Gay couples simply do not belong in our church.').exclusion).toBe(1);
    expect(implicit('Jews should go back to their own country.').exclusion).toBe(1);
  });
  it('does not fire when the predicate is negated, reported, or not about the group', () => {
    expect(implicit('Refugees should not be deported to a war zone.').exclusion).toBe(0);
    expect(implicit('The mayor said Muslims should be banned from the fair.').exclusion).toBe(0);
    expect(implicit('Keep the dogs out of the kitchen.').exclusion).toBe(0);
    expect(implicit('Muslims should go back to work after the holiday.').exclusion).toBe(0);
    expect(implicit('A rule that keeps women out of the army was dropped.').exclusion).toBe(0);
  });
  it('does not respell "back" as a group term', () => {
    expect(analyseToxicity('send it back').hits).toHaveLength(0);
  });
});

describe('loaded questions', () => {
  it('fires on questions that presuppose inferiority', () => {
    expect(implicit('Why are Hindus so arrogant?').loadedQuestion).toBe(1);
    expect(implicit('Who would trust a Muslim with the keys?').loadedQuestion).toBe(1);
    expect(implicit('Do immigrants even pay taxes?').loadedQuestion).toBe(1);
  });
  it('leaves questions asked in good faith alone', () => {
    expect(implicit('Why are women always paid less than men?').loadedQuestion).toBe(0);
    expect(implicit('Why do so many Hindus live in Leicester?').loadedQuestion).toBe(0);
    expect(implicit('Why are trans people so often the target of abuse?').loadedQuestion).toBe(0);
    expect(implicit('Do you really think Jews are so different?').loadedQuestion).toBe(0);
    expect(implicit('Why are Hindus always so kind to guests?').loadedQuestion).toBe(0);
  });
});

describe('harm wishes', () => {
  it('fires on harm wished on a group without a threat word', () => {
    expect(implicit('I hope the refugees at the camp starve.').harmWish).toBe(1);
    expect(implicit('Somebody has to deal with those immigrants.').harmWish).toBe(1);
    expect(implicit('Mark my words, they will regret it, every last Jew.').harmWish).toBe(1);
  });
  it('does not fire on negated wishes, other targets or perpetrators', () => {
    expect(implicit('I hope no refugee ever has to suffer like that.').harmWish).toBe(0);
    expect(implicit('Someone should deal with those potholes.').harmWish).toBe(0);
    expect(implicit('The men who attacked the Muslims will pay for it.').harmWish).toBe(0);
  });
});

describe('victim frames', () => {
  it('reads hostility the group suffers as its object, not its author', () => {
    const a = analyseToxicity('The hatred disabled people put up with is sickening.');
    expect(a.implicit.victim).toBe(1);
    expect(a.hits.filter((h) => h.category !== 'identity').every((h) => h.negated)).toBe(true);
  });
  it('keeps a threat against the group live', () => {
    const a = analyseToxicity('I will attack the Muslims tonight.');
    expect(a.hits.find((h) => h.category === 'threat')?.negated).toBe(false);
  });
});

describe('toxicity detector on implicit hate (committed weights)', () => {
  it('flags implicit hate and leaves its look-alikes', () => {
    expect(detect('Black people have no right to teach our children.')).toBe(true);
    expect(detect('Why would anyone hire a trans person?')).toBe(true);
    expect(detect('Refugees should be rounded up and shipped back.')).toBe(true);
    expect(detect('Attacks on Muslims have risen and it is sickening.')).toBe(false);
    expect(detect('Why do Jews fast on Yom Kippur?')).toBe(false);
    expect(detect('Many refugees now work in the hospital.')).toBe(false);
  });
});
