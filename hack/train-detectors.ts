// Trains the statistical layers of the injection and toxicity auditors on
// the TRAINING split of ../shared/data and writes their weights as small
// JSON files beside the auditors. Usage:
//   npx tsx hack/train-detectors.ts [--write-split]
// --write-split (re)creates auditors/data-split.json from the family split.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { INJECTION_TRAIN_OPTIONS } from './train/layers.ts';
import { crossValidate, injectionExamples, injectionTrainingRows } from './train/injection.ts';
import { analyseToxicity, type ToxicityAnalysis } from '../auditors/toxicity/analyse.ts';
import { categoryScores, DEFAULT_THRESHOLDS, TOXICITY_CATEGORIES } from '../auditors/toxicity/detect.ts';
import { toxicityFeatures, TOXICITY_DIMS } from '../auditors/toxicity/features.ts';
import { sigmoid, type LogisticWeights } from '../auditors/text/hashing.ts';
import {
  REPO_ROOT,
  SPLIT_FILE,
  hateCheckFamilies,
  loadHateCheck,
  loadInjection,
  loadSplit,
  selectRows,
  type LabelledRow,
  type SplitFile,
} from './train/data.ts';
import { injectionSplit, toxicitySplit } from './train/split.ts';
import { FOLDS, fitDetector, type Example } from './train/fit.ts';

function ensureSplit(write: boolean): SplitFile {
  if (!write && existsSync(SPLIT_FILE)) return loadSplit();
  const split: SplitFile = {
    injection: injectionSplit(loadInjection()),
    toxicity: toxicitySplit(hateCheckFamilies(loadHateCheck())),
  };
  writeFileSync(SPLIT_FILE, `${JSON.stringify(split, null, 2)}\n`);
  console.log(`wrote ${path.relative(REPO_ROOT, SPLIT_FILE)}`);
  return split;
}

function report(
  name: string,
  oof: number[],
  examples: Example[],
  calibration: LogisticWeights['calibration'],
  threshold: number,
): void {
  let tp = 0;
  let fp = 0;
  let pos = 0;
  let neg = 0;
  oof.forEach((z, i) => {
    const hit = sigmoid(calibration.a * z + calibration.b) >= threshold;
    if (examples[i]!.y === 1) {
      pos++;
      if (hit) tp++;
    } else {
      neg++;
      if (hit) fp++;
    }
  });
  console.log(
    `${name}: grouped ${5}-fold CV on train at ${threshold}: recall ${(tp / pos).toFixed(3)} FPR ${(fp / neg).toFixed(3)} (n=${examples.length})`,
  );
}

function writeWeights(file: string, model: LogisticWeights, meta: Record<string, unknown>): void {
  writeFileSync(file, `${JSON.stringify({ ...meta, ...model })}\n`);
  console.log(`wrote ${path.relative(REPO_ROOT, file)}`);
}

function trainInjection(): void {
  const rows = injectionTrainingRows();
  const examples = injectionExamples(rows, true);
  const cv = crossValidate(rows, examples, INJECTION_TRAIN_OPTIONS, 0.8, process.argv.includes('--verbose'));
  console.log(
    `injection: grouped ${FOLDS}-fold CV on train+aug at 0.8: recall ${cv.recall.toFixed(3)} FPR ${cv.fpr.toFixed(3)} AUC ${cv.auc.toFixed(3)} (n=${rows.length})`,
  );
  if (process.argv.includes('--no-write')) return;
  const { model } = fitDetector(examples, INJECTION_TRAIN_OPTIONS);
  writeWeights(path.join(REPO_ROOT, 'auditors/injection/weights.json'), model, {
    method: 'hashed logistic regression',
    trained_on: 'injection train split + injection-train-aug.jsonl',
    rows: rows.length,
  });
}

/** Full toxicity decision (all categories at default thresholds) from out-of-fold probabilities. */
function reportToxicityPipeline(
  rows: readonly LabelledRow[],
  analyses: readonly ToxicityAnalysis[],
  oof: readonly number[],
  calibration: LogisticWeights['calibration'],
): void {
  const byFamily = new Map<string, { pos: number; tp: number; neg: number; fp: number }>();
  const total = { pos: 0, tp: 0, neg: 0, fp: 0 };
  rows.forEach((r, i) => {
    const p = analyses[i]!.tokens.length === 0 ? 0 : sigmoid(calibration.a * oof[i]! + calibration.b);
    const scores = categoryScores(analyses[i]!, p);
    const hit = TOXICITY_CATEGORIES.some((c) => scores[c] >= DEFAULT_THRESHOLDS[c]);
    const f = byFamily.get(r.family) ?? { pos: 0, tp: 0, neg: 0, fp: 0 };
    for (const t of [f, total]) {
      if (r.positive) {
        t.pos++;
        if (hit) t.tp++;
      } else {
        t.neg++;
        if (hit) t.fp++;
      }
    }
    byFamily.set(r.family, f);
    if (process.argv.includes('--errors') && hit !== r.positive)
      console.log(`  ${hit ? 'FP' : 'FN'} ${r.family} ${r.text.slice(0, 100)}`);
  });
  const fmt = (t: typeof total): string =>
    t.pos > 0 ? `recall ${(t.tp / t.pos).toFixed(3)}` : `FPR ${(t.fp / t.neg).toFixed(3)}`;
  console.log(
    `toxicity pipeline, out of fold on train: recall ${(total.tp / total.pos).toFixed(3)} FPR ${(total.fp / total.neg).toFixed(3)}`,
  );
  if (process.argv.includes('--verbose'))
    for (const [family, t] of [...byFamily].sort()) console.log(`  ${family}: ${fmt(t)}`);
}

function trainToxicity(split: SplitFile): void {
  const rows = selectRows(hateCheckFamilies(loadHateCheck()), split.toxicity.train_ids);
  const analyses = rows.map((r) => analyseToxicity(r.text));
  const examples: Example[] = rows.map((r, i) => ({
    x: toxicityFeatures(analyses[i]!),
    y: r.positive ? 1 : 0,
    group: r.group,
  }));
  const { model, oof } = fitDetector(examples, {
    dims: TOXICITY_DIMS,
    epochs: 300,
    learningRate: 1,
    l2: 3e-3,
  });
  report('toxicity (identity attack)', oof, examples, model.calibration, 0.5);
  reportToxicityPipeline(rows, analyses, oof, model.calibration);
  if (process.argv.includes('--no-write')) return;
  writeWeights(path.join(REPO_ROOT, 'auditors/toxicity/weights.json'), model, {
    method: 'hashed logistic regression',
    trained_on: 'hatecheck train split',
    rows: rows.length,
  });
}

const split = ensureSplit(process.argv.includes('--write-split'));
if (!process.argv.includes('--toxicity-only')) trainInjection();
if (process.argv.includes('--injection-only')) process.exit(0);
trainToxicity(split);
