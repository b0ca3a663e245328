// Features of the statistical layer: hashed word uni/bigrams of the
// leetspeak skeleton of the most language-like view, hashed character
// 4-grams of the compact view (so spacing tricks do not matter), and the
// pattern scorer's outputs as explicit features.
import { addFeature, l2normalize, mergeInto, type SparseVector } from '../text/hashing.ts';
import type { TextView } from '../text/normalize.ts';
import type { PatternResult } from './patterns.ts';

export const INJECTION_DIMS = 4096;
const MAX_WORDS = 600;
const MAX_COMPACT = 1500;

/** Optional text cleaner (the training script uses it to drop corpus artefacts). */
export type Cleaner = (text: string) => string;

function wordFeatures(text: string): SparseVector {
  const vec: SparseVector = new Map();
  const words = (text.match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, MAX_WORDS);
  words.forEach((w, i) => {
    addFeature(vec, `w:${w}`, INJECTION_DIMS);
    if (i > 0) addFeature(vec, `b:${words[i - 1]}_${w}`, INJECTION_DIMS);
  });
  return l2normalize(vec);
}

function charFeatures(compactText: string): SparseVector {
  const vec: SparseVector = new Map();
  const s = compactText.slice(0, MAX_COMPACT);
  for (let i = 0; i + 4 <= s.length; i++) addFeature(vec, `c:${s.slice(i, i + 4)}`, INJECTION_DIMS);
  return l2normalize(vec);
}

function patternFeatures(patterns: PatternResult, text: string): SparseVector {
  const vec: SparseVector = new Map();
  for (const h of patterns.hits)
    addFeature(vec, `${h.quoted ? 'patq' : 'pat'}:${h.category}`, INJECTION_DIMS, h.weight);
  addFeature(vec, 'patscore', INJECTION_DIMS, patterns.score);
  if (/["'“”‘’`]/u.test(text)) addFeature(vec, 'has_quote', INJECTION_DIMS);
  return vec;
}

/**
 * Features of one input. Without `patterns` only the text n-grams are used:
 * the evaluation trains that ablation to measure the statistical layer alone.
 */
export function injectionFeatures(
  primary: TextView,
  patterns: PatternResult | undefined,
  clean: Cleaner = (t) => t,
): SparseVector {
  const words = wordFeatures(clean(primary.skeleton));
  const chars = charFeatures(clean(primary.compact));
  const text = mergeInto(words, chars);
  return patterns ? mergeInto(text, patternFeatures(patterns, primary.text)) : text;
}
