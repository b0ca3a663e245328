// Fitting a hashed logistic-regression detector with family-grouped
// cross-validation on the training split only: the out-of-fold margins fit
// the Platt calibration, then the final model is trained on all training rows.
import {
  compactWeights,
  fitPlatt,
  interpolateKnots,
  isotonicKnots,
  sigmoid,
  margin,
  trainLogistic,
  type LogisticWeights,
  type SparseVector,
  type TrainOptions,
} from '../../auditors/text/hashing.ts';
import { fnv1a } from '../../auditors/text/hashing.ts';

export interface Example {
  x: SparseVector;
  y: number;
  group: string;
}

export const FOLDS = 5;

function foldOf(group: string): number {
  return fnv1a(`fold:${group}`) % FOLDS;
}

/** Out-of-fold margins, one per example, from models that never saw the example's family. */
export function outOfFoldMargins(examples: readonly Example[], opts: TrainOptions): number[] {
  const margins = new Array<number>(examples.length).fill(0);
  for (let k = 0; k < FOLDS; k++) {
    const train = examples.filter((e) => foldOf(e.group) !== k);
    if (train.length === 0) continue;
    const model = trainLogistic(
      train.map((e) => e.x),
      train.map((e) => e.y),
      opts,
    );
    examples.forEach((e, i) => {
      if (foldOf(e.group) === k) margins[i] = margin(model, e.x);
    });
  }
  return margins;
}

/**
 * Isotonic correction cross-fitted by fold: each example's Platt probability
 * is mapped by knots fitted on the other folds only, so the report does not
 * grade the correction on the rows it was fitted on.
 */
export function crossFittedIsotonic(probs: readonly number[], examples: readonly Example[]): number[] {
  const out = new Array<number>(probs.length).fill(0);
  for (let k = 0; k < FOLDS; k++) {
    const rest = examples.map((_, i) => i).filter((i) => foldOf(examples[i]!.group) !== k);
    const knots = isotonicKnots(
      rest.map((i) => probs[i]!),
      rest.map((i) => examples[i]!.y),
    );
    examples.forEach((e, i) => {
      if (foldOf(e.group) === k) out[i] = interpolateKnots(knots, probs[i]!);
    });
  }
  return out;
}

export function fitDetector(
  examples: readonly Example[],
  opts: TrainOptions,
  isotonic = false,
): { model: LogisticWeights; oof: number[] } {
  const oof = outOfFoldMargins(examples, opts);
  const ys = examples.map((e) => e.y);
  const platt = fitPlatt(oof, ys);
  const calibration = isotonic
    ? {
        ...platt,
        knots: isotonicKnots(
          oof.map((z) => sigmoid(platt.a * z + platt.b)),
          ys,
        ),
      }
    : platt;
  const model = trainLogistic(
    examples.map((e) => e.x),
    examples.map((e) => e.y),
    opts,
  );
  return { model: compactWeights({ ...model, calibration }), oof };
}

/** Confusion counts of a detector over labelled rows. */
export interface Tally {
  pos: number;
  tp: number;
  neg: number;
  fp: number;
}

export const emptyTally = (): Tally => ({ pos: 0, tp: 0, neg: 0, fp: 0 });

/** Counts one row (its label, whether it was flagged) into every tally given. */
export function count(positive: boolean, hit: boolean, ...tallies: Tally[]): void {
  for (const t of tallies) {
    if (positive) [t.pos, t.tp] = [t.pos + 1, t.tp + (hit ? 1 : 0)];
    else [t.neg, t.fp] = [t.neg + 1, t.fp + (hit ? 1 : 0)];
  }
}

/** Recall for a family with attacks, else its false-positive rate. */
export const rate = (t: Tally): string =>
  t.pos > 0 ? `recall ${(t.tp / t.pos).toFixed(3)}` : `FPR ${(t.fp / Math.max(t.neg, 1)).toFixed(3)}`;
