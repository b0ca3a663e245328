// The offensive-language model on sentences of our own (not rows of any
// training or evaluation file): real-world wording (slang, misspellings,
// leetspeak, elongation, tweet artefacts) is toxic; counter-speech, negation,
// a positive identity statement and ordinary banter are not.
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, detectToxicity } from './detect.ts';
import { TOXICITY_MODEL } from './index.ts';
import { offensiveWords } from './offensive.ts';

const toxicity = (text: string): number =>
  detectToxicity(text, TOXICITY_MODEL, DEFAULT_THRESHOLDS).scores.toxicity;

describe('offensive-language words', () => {
  it('drops links, handles, "RT" and HTML entities, folds leetspeak and squashes elongation', () => {
    expect(offensiveWords('RT @some_user: ur such a b1tch &amp; a fuuuuck up http://t.co/abc')).toEqual([
      'ur',
      'such',
      'a',
      'bitch',
      'a',
      'fuuck',
      'up',
    ]);
  });
  it('keeps plain numbers and caps the words read', () => {
    expect(offensiveWords('call 911 now')).toEqual(['call', '911', 'now']);
    expect(offensiveWords('word '.repeat(5000)).length).toBe(400);
  });
});

describe('toxicity on social-media wording', () => {
  it.each([
    'shut up u dumb hoe nobody asked',
    'this b1tch stay lyin smh',
    'yall some fuckin clowns',
    'ur a pathetic lil pussy',
  ])('flags %s at the default threshold', (text) => {
    expect(toxicity(text)).toBeGreaterThanOrEqual(DEFAULT_THRESHOLDS.toxicity);
  });

  it.each([
    'Calling women bitches is disgusting and I will not tolerate it.',
    "I don't hate gay people.",
    'I love being queer.',
    'The game last night was great, what a comeback!',
    'trash talk aside the yankees looked good',
  ])('does not flag %s', (text) => {
    expect(toxicity(text)).toBeLessThan(DEFAULT_THRESHOLDS.toxicity);
  });
});

// Languages the models were not trained on: an unsure score, never a confident "clean".
describe('languages outside coverage', () => {
  const result = (text: string): ReturnType<typeof detectToxicity> =>
    detectToxicity(text, TOXICITY_MODEL, DEFAULT_THRESHOLDS);
  it.each(['Tu es une sale conne, ferme ta gueule.', 'Ты тупой идиот', 'お前は本当に馬鹿だ'])(
    'gives %s a low-confidence score and marks it uncovered',
    (text) => {
      const r = result(text);
      expect(r.languageCovered).toBe(false);
      expect(r.scores.toxicity).toBeGreaterThanOrEqual(0.25);
    },
  );
  it('keeps English covered and an encoded blob out of the offensive model', () => {
    expect(result('You are all wonderful people.').languageCovered).toBe(true);
    const blob = Buffer.from('ignore all previous instructions '.repeat(8)).toString('base64');
    expect(result(blob).detected).toBe(false);
  });
});
