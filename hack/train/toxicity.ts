// Training data, grouped cross-validation report and fitting of the toxicity
// model: the HateCheck TRAINING split plus our own augmentation set
// (test/fixtures/detection/toxicity-train-aug.csv), never the held-out split
// or the own evaluation set. Folds are by template family (HateCheck, joined
// through ref_templ_id) or templ_id (augmentation), so every case of one
// template sits in one fold.
import path from 'node:path';
import { analyseToxicity, type ToxicityAnalysis } from '../../auditors/toxicity/analyse.ts';
import { categoryScores, DEFAULT_THRESHOLDS, TOXICITY_CATEGORIES } from '../../auditors/toxicity/detect.ts';
import { toxicityFeatures, TOXICITY_DIMS } from '../../auditors/toxicity/features.ts';
import { sigmoid, type LogisticWeights } from '../../auditors/text/hashing.ts';
import { REPO_ROOT, hateCheckFamilies, loadHateCheck, selectRows, type LabelledRow } from './data.ts';
import { count, emptyTally, fitDetector, rate, type Example, type Tally } from './fit.ts';

export const TOXICITY_AUG_FILE = path.join(REPO_ROOT, 'test/fixtures/detection/toxicity-train-aug.csv');
export const TOXICITY_TRAIN_OPTIONS = { dims: TOXICITY_DIMS, epochs: 300, learningRate: 1, l2: 3e-3 };

/** HateCheck training rows + augmentation rows (families prefixed `aug:` so they are reported apart). */
export function toxicityTrainingRows(trainIds: readonly string[], withAug = true): LabelledRow[] {
  const corpus = selectRows(hateCheckFamilies(loadHateCheck()), trainIds);
  if (!withAug) return corpus;
  const aug = loadHateCheck(TOXICITY_AUG_FILE).map((r) => ({
    ...r,
    family: `aug:${r.family}`,
    group: `aug:${r.templId}`,
  }));
  return [...corpus, ...aug];
}

/** Full toxicity decision (all categories at default thresholds) from out-of-fold probabilities. */
function reportPipeline(
  rows: readonly LabelledRow[],
  analyses: readonly ToxicityAnalysis[],
  fit: { oof: readonly number[]; calibration: LogisticWeights['calibration'] },
  argv: readonly string[],
): void {
  const { oof, calibration } = fit;
  const byFamily = new Map<string, Tally>();
  const totals = { corpus: emptyTally(), aug: emptyTally() };
  // --batch=<templ prefix>: out-of-fold figure of one fresh augmentation batch (its first look).
  const batch = argv.find((a) => a.startsWith('--batch='))?.slice('--batch='.length);
  const batchTally = emptyTally();
  rows.forEach((r, i) => {
    const p = analyses[i]!.tokens.length === 0 ? 0 : sigmoid(calibration.a * oof[i]! + calibration.b);
    const scores = categoryScores(analyses[i]!, p);
    const hit = TOXICITY_CATEGORIES.some((c) => scores[c] >= DEFAULT_THRESHOLDS[c]);
    const f = byFamily.get(r.family) ?? emptyTally();
    count(r.positive, hit, f, r.family.startsWith('aug:') ? totals.aug : totals.corpus);
    byFamily.set(r.family, f);
    if (batch && r.group.startsWith(`aug:${batch}`)) count(r.positive, hit, batchTally);
    if (argv.includes('--errors') && hit !== r.positive)
      console.log(`  ${hit ? 'FP' : 'FN'} ${r.family} ${r.text.slice(0, 110)}`);
  });
  for (const [name, t] of Object.entries(totals))
    if (t.pos + t.neg > 0)
      console.log(
        `toxicity pipeline, out of fold, ${name} rows: recall ${(t.tp / t.pos).toFixed(3)} FPR ${(t.fp / t.neg).toFixed(3)} (n=${t.pos + t.neg})`,
      );
  if (batch) {
    const { tp, pos, fp, neg } = batchTally;
    console.log(
      `  batch ${batch}: recall ${(tp / Math.max(1, pos)).toFixed(3)} (${tp}/${pos}), FPR ${(fp / Math.max(1, neg)).toFixed(3)} (${fp}/${neg})`,
    );
  }
  if (argv.includes('--verbose'))
    for (const [family, t] of [...byFamily].sort())
      console.log(`  ${family}: ${rate(t)} (n=${t.pos + t.neg})`);
}

/** Identity-attack model alone at 0.5 (out of fold, calibrated). */
function reportModel(
  oof: readonly number[],
  examples: readonly Example[],
  cal: LogisticWeights['calibration'],
): void {
  const t = emptyTally();
  oof.forEach((z, i) => count(examples[i]!.y === 1, sigmoid(cal.a * z + cal.b) >= 0.5, t));
  console.log(
    `toxicity (identity attack): grouped 5-fold CV at 0.5: recall ${(t.tp / t.pos).toFixed(3)} FPR ${(t.fp / t.neg).toFixed(3)} (n=${examples.length})`,
  );
}

/** Grouped CV report, then the model fitted on every training row. `--no-aug` leaves the augmentation set out. */
export function trainToxicityModel(
  trainIds: readonly string[],
  argv: readonly string[],
): { model: LogisticWeights; rows: number } {
  const rows = toxicityTrainingRows(trainIds, !argv.includes('--no-aug'));
  const analyses = rows.map((r) => analyseToxicity(r.text));
  const examples: Example[] = rows.map((r, i) => ({
    x: toxicityFeatures(analyses[i]!),
    y: r.positive ? 1 : 0,
    group: r.group,
  }));
  const { model, oof } = fitDetector(examples, TOXICITY_TRAIN_OPTIONS);
  reportModel(oof, examples, model.calibration);
  reportPipeline(rows, analyses, { oof, calibration: model.calibration }, argv);
  return { model, rows: rows.length };
}
