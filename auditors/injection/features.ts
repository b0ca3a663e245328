// Features of the statistical layer: hashed word uni/bigrams of the
// leetspeak skeleton of the most language-like view, hashed character
// 3/4-grams of the compact view (so spacing tricks do not matter, and
// sub-word pieces carry across inflections and languages), the structural
// slots of structure.ts, and the pattern scorer's outputs.
import { addFeature, l2normalize, mergeInto, type SparseVector } from '../text/hashing.ts';
import type { TextView } from '../text/normalize.ts';
import type { PatternResult } from './patterns.ts';
import { findSlots, questionOrCode, structureFeatureNames } from './structure.ts';

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

export interface FeatureOptions {
  /** Character n-gram lengths over the compact view. */
  charNgrams: readonly number[];
  /** Value of each structural feature (0 leaves them out). */
  structureWeight: number;
  /** Scale of the word and character n-gram blocks (each unit length before scaling). */
  ngramWeight: number;
}

export const FEATURE_OPTIONS: FeatureOptions = { charNgrams: [3, 4], structureWeight: 1, ngramWeight: 1 };

function charFeatures(compactText: string, sizes: readonly number[]): SparseVector {
  const vec: SparseVector = new Map();
  const s = compactText.slice(0, MAX_COMPACT);
  for (const n of sizes)
    for (let i = 0; i + n <= s.length; i++) addFeature(vec, `c${n}:${s.slice(i, i + n)}`, INJECTION_DIMS);
  return l2normalize(vec);
}

function scaled(vec: SparseVector, factor: number): SparseVector {
  if (factor !== 1) for (const [k, v] of vec) vec.set(k, v * factor);
  return vec;
}

function structureFeatures(text: string, weight: number): SparseVector {
  const vec: SparseVector = new Map();
  if (weight === 0) return vec;
  for (const name of structureFeatureNames(findSlots(text), questionOrCode(text)))
    addFeature(vec, name, INJECTION_DIMS, weight);
  return vec;
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
  opts: FeatureOptions = FEATURE_OPTIONS,
): SparseVector {
  const words = scaled(wordFeatures(clean(primary.skeleton)), opts.ngramWeight);
  const chars = scaled(charFeatures(clean(primary.compact), opts.charNgrams), opts.ngramWeight);
  const text = mergeInto(
    mergeInto(words, chars),
    structureFeatures(clean(primary.text), opts.structureWeight),
  );
  return patterns ? mergeInto(text, patternFeatures(patterns, primary.text)) : text;
}
