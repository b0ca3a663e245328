// Features of the statistical layer: hashed word uni/bigrams of the
// leetspeak skeleton of the most language-like view, hashed character
// 3/4-grams of the compact view (so spacing tricks do not matter, and
// sub-word pieces carry across inflections and languages), the structural
// slots of structure.ts, and the pattern scorer's outputs.
import { addFeature, fnv1a, l2normalize, mergeInto, type SparseVector } from '../text/hashing.ts';
import type { TextView } from '../text/normalize.ts';
import type { PatternResult } from './patterns.ts';
import { findSlots, questionOrCode, structureFeatureNames } from './structure.ts';

export const INJECTION_DIMS = 4096;
const MAX_WORDS = 600;
const MAX_COMPACT = 1500;

/**
 * The first half and the last half of a capped window: an instruction after
 * a long junk prefix sits at the end, where a head-only cap never looked.
 */
export function headAndTail<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const half = Math.floor(max / 2);
  return [...items.slice(0, half), ...items.slice(items.length - (max - half))];
}

/** Optional text cleaner (the training script uses it to drop corpus artefacts). */
export type Cleaner = (text: string) => string;

/** Sets a feature to 1 (presence) or adds 1 (count). */
function marker(binary: boolean): (vec: SparseVector, name: string) => void {
  return binary
    ? (vec, name) => vec.set(fnv1a(name) % INJECTION_DIMS, 1)
    : (vec, name) => addFeature(vec, name, INJECTION_DIMS);
}

function wordFeatures(text: string, binary: boolean): SparseVector {
  const vec: SparseVector = new Map();
  const mark = marker(binary);
  const words = headAndTail(text.match(/[\p{L}\p{N}_]+/gu) ?? [], MAX_WORDS);
  words.forEach((w, i) => {
    mark(vec, `w:${w}`);
    if (i > 0) mark(vec, `b:${words[i - 1]}_${w}`);
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
  /**
   * N-grams as presence (1) rather than counts: a junk prefix repeated a
   * hundred times then weighs as one n-gram and does not dilute the rest.
   */
  binaryNgrams: boolean;
}

export const FEATURE_OPTIONS: FeatureOptions = {
  charNgrams: [3, 4],
  structureWeight: 1,
  ngramWeight: 1,
  binaryNgrams: false,
};

function charFeatures(compactText: string, sizes: readonly number[], binary: boolean): SparseVector {
  const vec: SparseVector = new Map();
  const mark = marker(binary);
  const half = MAX_COMPACT / 2;
  // Head and tail apart, so no n-gram spans the cut.
  const parts =
    compactText.length <= MAX_COMPACT
      ? [compactText]
      : [compactText.slice(0, half), compactText.slice(-half)];
  for (const s of parts)
    for (const n of sizes) for (let i = 0; i + n <= s.length; i++) mark(vec, `c${n}:${s.slice(i, i + n)}`);
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
  const words = scaled(wordFeatures(clean(primary.skeleton), opts.binaryNgrams), opts.ngramWeight);
  const chars = scaled(
    charFeatures(clean(primary.compact), opts.charNgrams, opts.binaryNgrams),
    opts.ngramWeight,
  );
  const text = mergeInto(
    mergeInto(words, chars),
    structureFeatures(clean(primary.text), opts.structureWeight),
  );
  return patterns ? mergeInto(text, patternFeatures(patterns, primary.text)) : text;
}
