// Two readings of "toxic" that public label sets disagree on (decision 160).
// Real tweets (davidson) count profanity and in-group slang as offensive;
// HateCheck counts them not hateful and asks only whether a protected group
// is attacked. `toxicity_detected` stays the union of the categories; these
// readings let a consumer of either definition read its own answer.
import type { ToxicityCategory, ToxicityThresholds } from './detect.ts';

export interface ToxicityReadings {
  /** HateCheck's reading: a protected group is attacked (identity attack, or severe toxicity: unmitigated slur, threat to a group). */
  hate: { score: number; detected: boolean };
  /** davidson's reading: hateful or offensive language, the offensive model's discounted probability. */
  offensive: { score: number; detected: boolean };
}

export function readingsOf(
  scores: Record<ToxicityCategory, number>,
  offensive: number,
  t: ToxicityThresholds,
): ToxicityReadings {
  return {
    hate: {
      score: Math.max(scores.identity_attack, scores.severe_toxicity),
      detected: scores.identity_attack >= t.identity_attack || scores.severe_toxicity >= t.severe_toxicity,
    },
    offensive: { score: offensive, detected: offensive >= t.toxicity },
  };
}
