// Insinuation markers (insinuation.ts) and the newer group terms, on
// sentences written for these tests (not from ../shared/data or the
// augmentation set): a marker counts in the writer's own words about a
// group, never without a group or inside someone else's reported words,
// and it lifts the no-evidence discount of the identity-attack score.
import { describe, expect, it } from 'vitest';
import { analyseToxicity } from './analyse.ts';
import { DEFAULT_THRESHOLDS, detectToxicity } from './detect.ts';
import { contextFlags } from './features.ts';
import { TOXICITY_MODEL } from './index.ts';

const ins = (text: string): Record<string, number> => analyseToxicity(text).insinuation;

describe('insinuation markers', () => {
  it('counts a disclaimer, a wink or an essentialist claim about a group', () => {
    expect(ins("I'm not racist, but Muslims keep to themselves for a reason.").disclaimer).toBe(1);
    expect(ins('Funny how the refugees always end up with the new flats.').wink).toBe(1);
    expect(ins('Transgender athletes are a trend that will pass.').essentialist).toBe(1);
    expect(ins('Jews control the media in this town, look it up.').takeover).toBe(1);
  });

  it('counts nothing without a group, or in words reported from someone else', () => {
    expect(ins('Funny how the printer always jams on Mondays.').wink).toBe(0);
    expect(ins('Not saying every landlord is greedy, just most of them.').disclaimer).toBe(0);
    expect(ins('My uncle said "funny how the refugees always get flats", which is nonsense.').wink).toBe(0);
  });

  it('knows the group terms added in round 3', () => {
    for (const term of ['Somalis', 'Pakistanis', 'Nigerians', 'Afghans', 'Hispanics'])
      expect(analyseToxicity(`${term} live on my street.`).canonical).toContain('<id>');
  });

  it('makes an insinuation evidence, so the identity score is not discounted for lacking a hostile word', () => {
    const flags = contextFlags(
      analyseToxicity('Ever noticed it is always the Somalis when a bike goes missing?'),
    );
    expect(flags.insinuation).toBe(1);
    expect(flags.id).toBe(1);
  });

  it('flags an insinuation about a group and not the same wording about cyclists', () => {
    const hate = detectToxicity(
      'Ever noticed it is always the Somalis when a bike goes missing? We all know why.',
      TOXICITY_MODEL,
      DEFAULT_THRESHOLDS,
    );
    const plain = detectToxicity(
      'Ever noticed it is always the cyclists when a bike goes missing? We all know why.',
      TOXICITY_MODEL,
      DEFAULT_THRESHOLDS,
    );
    expect(hate.scores.identity_attack).toBeGreaterThanOrEqual(DEFAULT_THRESHOLDS.identity_attack);
    expect(plain.scores.identity_attack).toBeLessThan(DEFAULT_THRESHOLDS.identity_attack);
  });
});
