// Features of the offensive-language model (the `toxicity` category): what
// real social-media text looks like when it is abusive, learnt from labelled
// tweets and HateCheck cases. Word uni/bigrams and in-word character 3-5-grams
// of a tweet-cleaned, leet-folded, elongation-squashed view (so "biiitch",
// "b1tch" and "bitchez" share features), plus the lexicon categories and the
// context frames of the analysis, so the model can learn that a quoted,
// negated or condemned slur is not the writer's own abuse.
import { addFeature, fnv1a, l2normalize, mergeInto, type SparseVector } from '../text/hashing.ts';
import { normalizeText, WORD_LEET } from '../text/normalize.ts';
import type { ToxicityAnalysis } from './analyse.ts';

export const OFFENSIVE_DIMS = 32768;
/** Words read per request: a tweet is ~30; long documents are judged on their first 400 words. */
const MAX_WORDS = 400;
const MAX_WORD_CHARS = 30;

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
  return word.replace(/[013457@$]/g, (c) => WORD_LEET[c] ?? c);
}

/** Most words: lower-case ASCII letters with no run of a repeated letter; nothing to clean. */
const PLAIN_WORD = /^[a-z]+$/;
const REPEAT = /(\p{L})\1/u;

/** Runs of one letter cut to `keep` letters ("fuuuuck" → "fuuck" with 2, "fuck" with 1). */
function squash(word: string, keep: 1 | 2): string {
  if (!REPEAT.test(word)) return word;
  return keep === 2 ? word.replace(/(\p{L})\1{2,}/gu, '$1$1') : word.replace(/(\p{L})\1+/gu, '$1');
}

function cleanWord(raw: string): string {
  return squash(foldLeet(raw.replace(/'/g, '')).replace(/\*+/g, '*'), 2);
}

/** Words of the cleaned text, elongations squashed to two letters ("fuuuuck" → "fuuck"). */
export function offensiveWords(input: string): string[] {
  // MAX_WORDS words fit in 4 KB of ordinary text; reading more would only cost time.
  const text = stripTweetArtefacts(normalizeText(input.slice(0, 4096)));
  const words: string[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}@$*']+/gu)) {
    const w = PLAIN_WORD.test(m[0]) ? squash(m[0], 2) : cleanWord(m[0]);
    // A "word" of more than MAX_WORD_CHARS is an encoded blob or a URL, not language.
    if (w.length > 0 && w.length <= MAX_WORD_CHARS && w !== '*') words.push(w);
    if (words.length >= MAX_WORDS) break;
  }
  return words;
}

const FNV_PRIME = 0x01000193;
const CHAR_PREFIX_HASH = fnv1a('c:');

/**
 * Character 3-, 4- and 5-grams of a padded word, hashed as fnv1a(`c:${gram}`)
 * but incrementally (one pass per start position, no substrings): the same
 * buckets as addFeature would give, at a fraction of the cost.
 */
function addCharGrams(vec: SparseVector, padded: string): void {
  for (let k = 0; k + 3 <= padded.length; k++) {
    let h = CHAR_PREFIX_HASH;
    for (let j = k; j < k + 5 && j < padded.length; j++) {
      h = Math.imul(h ^ padded.charCodeAt(j), FNV_PRIME);
      if (j - k >= 2) {
        const idx = (h >>> 0) % OFFENSIVE_DIMS;
        vec.set(idx, (vec.get(idx) ?? 0) + 0.5);
      }
    }
  }
}

function ngramFeatures(words: readonly string[]): SparseVector {
  const vec: SparseVector = new Map();
  words.forEach((w, i) => {
    addFeature(vec, `w:${w}`, OFFENSIVE_DIMS);
    if (i > 0) addFeature(vec, `b:${words[i - 1]}_${w}`, OFFENSIVE_DIMS);
    // One-letter squash too ("fuuck" → "fuck"), and character n-grams for misspellings.
    addCharGrams(vec, ` ${squash(w, 1)} `);
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
