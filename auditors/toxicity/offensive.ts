// Features of the offensive-language model (the `toxicity` category): what
// real social-media text looks like when it is abusive, learnt from labelled
// tweets and HateCheck cases. Word uni/bigrams and in-word character 3-5-grams
// of a tweet-cleaned, leet-folded, elongation-squashed view (so "biiitch",
// "b1tch" and "bitchez" share features), plus the lexicon categories and the
// context frames of the analysis, so the model can learn that a quoted,
// negated or condemned slur is not the writer's own abuse.
import { addFeature, l2normalize, mergeInto, type SparseVector } from '../text/hashing.ts';
import { normalizeText } from '../text/normalize.ts';
import type { ToxicityAnalysis } from './analyse.ts';

export const OFFENSIVE_DIMS = 32768;
/** Words read per request: a tweet is ~30; long documents are judged on their first 400 words. */
const MAX_WORDS = 400;

const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

/** Twitter artefacts that carry no meaning of their own: links, handles, "RT", HTML entities. */
function stripTweetArtefacts(text: string): string {
  return text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/(^|\s)@\w+/g, ' ')
    .replace(/&(?:#\d{1,6}|[a-z]{2,8});/g, ' ')
    .replace(/(^|\s)rt(?=\s|:)/g, ' ');
}

/** Leet digits/symbols inside a word become letters ("b1tch", "$hit"); plain numbers stay numbers. */
function foldLeet(word: string): string {
  if (!/\p{L}/u.test(word)) return word;
  return word.replace(/[013457@$]/g, (c) => LEET[c] ?? c);
}

/** Words of the cleaned text, elongations squashed to two letters ("fuuuuck" → "fuuck"). */
export function offensiveWords(input: string): string[] {
  const text = stripTweetArtefacts(normalizeText(input.slice(0, 16 * 1024)));
  const words: string[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}@$*']+/gu)) {
    const w = foldLeet(m[0].replace(/'/g, ''))
      .replace(/\*+/g, '*')
      .replace(/(\p{L})\1{2,}/gu, '$1$1');
    if (w.length > 0 && w !== '*') words.push(w);
    if (words.length >= MAX_WORDS) break;
  }
  return words;
}

function ngramFeatures(words: readonly string[]): SparseVector {
  const vec: SparseVector = new Map();
  words.forEach((w, i) => {
    addFeature(vec, `w:${w}`, OFFENSIVE_DIMS);
    if (i > 0) addFeature(vec, `b:${words[i - 1]}_${w}`, OFFENSIVE_DIMS);
    // One-letter squash too ("fuuck" → "fuck"), and character n-grams for misspellings.
    const padded = ` ${w.replace(/(\p{L})\1+/gu, '$1')} `;
    for (let n = 3; n <= 5; n++)
      for (let k = 0; k + n <= padded.length; k++)
        addFeature(vec, `c:${padded.slice(k, k + n)}`, OFFENSIVE_DIMS, 0.5);
  });
  return l2normalize(vec);
}

/** Lexicon categories (own vs negated) and the context frames that change what a hostile word means. */
function contextFeatures(a: ToxicityAnalysis): SparseVector {
  const vec: SparseVector = new Map();
  for (const h of a.hits) addFeature(vec, `${h.negated ? 'n' : 'h'}:${h.category}`, OFFENSIVE_DIMS, 0.3);
  const flags: [string, boolean][] = [
    ['quoted', a.quoted],
    ['counter', a.counterSpeech],
    ['reported', a.frames.reported],
    ['rejected', a.frames.rejected],
    ['condemn', a.frames.condemn],
    ['reclaim', a.reclaimedContext],
    ['homonym', a.homonymContext],
    ['you', a.secondPerson],
    ['denial', a.denial],
  ];
  for (const [name, on] of flags) if (on) addFeature(vec, `f:${name}`, OFFENSIVE_DIMS, 0.5);
  return vec;
}

export function offensiveFeatures(input: string, a: ToxicityAnalysis): SparseVector {
  return mergeInto(ngramFeatures(offensiveWords(input)), contextFeatures(a));
}
