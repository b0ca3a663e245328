// Per-layer evaluation of the injection detector (npm run eval:auditors --
// --kind injection --layers): each layer's own decision on the evaluated rows,
// so the leakage-prone pattern rules can be told apart from the statistical
// layer, which is fitted on the training split only.
import { analyseInjection, matchBanned, suspiciousInvisible } from '../../auditors/injection/detect.ts';
import { injectionFeatures, INJECTION_DIMS } from '../../auditors/injection/features.ts';
import { INJECTION_MODEL } from '../../auditors/injection/index.ts';
import { DEFAULT_BAN_SUBSTRINGS } from '../../auditors/injection/detect.ts';
import { scorePatterns } from '../../auditors/injection/patterns.ts';
import { predict, type LogisticWeights } from '../../auditors/text/hashing.ts';
import { scanInvisible } from '../../auditors/text/invisible.ts';
import { primaryView, textViews } from '../../auditors/text/normalize.ts';

import { fitDetector } from './fit.ts';

/** Training options of the injection model (shared with hack/train-detectors.ts). */
export const INJECTION_TRAIN_OPTIONS = { dims: INJECTION_DIMS, epochs: 400, learningRate: 1, l2: 3e-4 };

export const LAYERS = [
  'statistical_text_only',
  'patterns_only',
  'rules_only',
  'statistical_deployed',
  'combined',
] as const;
export type Layer = (typeof LAYERS)[number];

export const LAYER_DOC: Record<Layer, string> = {
  statistical_text_only:
    'logistic regression on word/char n-grams and structural slots (no pattern features), trained and calibrated on train split + augmentation here',
  patterns_only: 'pattern noisy-OR score >= threshold',
  rules_only: 'patterns >= threshold, or an unquoted banned substring, or suspicious invisible characters',
  statistical_deployed: 'the shipped statistical layer (n-grams + pattern outputs as features)',
  combined: 'injection_detected of the shipped auditor',
};

export interface LayerScore {
  score: number;
  detected: boolean;
}

/** Fits the no-pattern ablation on the training rows (train split + augmentation), as the shipped model is fitted. */
export async function trainTextOnlyModel(): Promise<LogisticWeights> {
  const { injectionExamples, injectionTrainingRows } = await import('./injection.ts');
  return fitDetector(injectionExamples(injectionTrainingRows(), false), INJECTION_TRAIN_OPTIONS).model;
}

/** Every layer's score and decision for one text at `threshold`. */
export function scoreLayers(
  text: string,
  textOnly: LogisticWeights,
  threshold: number,
): Record<Layer, LayerScore> {
  const views = textViews(text);
  const invisible = scanInvisible(text);
  if (invisible.smuggled.length > 0) views.push(...textViews(invisible.smuggled));
  const patterns = scorePatterns(views);
  const primary = primaryView(views);
  const banned = matchBanned(views, DEFAULT_BAN_SUBSTRINGS);
  const rulesHit = patterns.score >= threshold || banned.unquoted || suspiciousInvisible(invisible);
  const full = analyseInjection(
    text,
    { threshold, banSubstrings: DEFAULT_BAN_SUBSTRINGS, invisibleCharCheck: true },
    INJECTION_MODEL,
  );
  const at = (score: number): LayerScore => ({ score, detected: score >= threshold });
  return {
    statistical_text_only: at(predict(textOnly, injectionFeatures(primary, undefined))),
    patterns_only: at(patterns.score),
    rules_only: { score: rulesHit ? 1 : patterns.score, detected: rulesHit },
    statistical_deployed: at(full.statisticalScore),
    combined: { score: full.score, detected: full.detected },
  };
}

/** Area under the ROC curve (ties count half); NaN when a class is missing. */
export function auc(scores: readonly number[], positive: readonly boolean[]): number {
  const pos = scores.filter((_, i) => positive[i]);
  const neg = scores.filter((_, i) => !positive[i]);
  if (pos.length === 0 || neg.length === 0) return NaN;
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}
