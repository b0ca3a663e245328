// Trains the statistical layers of the injection and toxicity auditors on
// the TRAINING split of ../shared/data and writes their weights as small
// JSON files beside the auditors. Usage:
//   npx tsx hack/train-detectors.ts [--write-split]
// --write-split (re)creates auditors/data-split.json from the family split.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { primaryView, textViews } from '../auditors/text/normalize.ts';
import { injectionFeatures, INJECTION_DIMS } from '../auditors/injection/features.ts';
import { scorePatterns } from '../auditors/injection/patterns.ts';
import { analyseToxicity } from '../auditors/toxicity/analyse.ts';
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
  type SplitFile,
} from './train/data.ts';
import { injectionSplit, toxicitySplit } from './train/split.ts';
import { fitDetector, type Example } from './train/fit.ts';

/**
 * Corpus artefacts the model must not learn: every attack row ends in
 * "Scenario PI1-A-…" and every benign row in "Reference PI1-B-…", followed
 * by a trace id. They are cut from the training text (in every view).
 */
export function stripCorpusArtefacts(text: string): string {
  return text.replace(/\b(scenario|reference)\b[\s\S]*$/, '').replace(/(scenario|reference)pii[\s\S]*$/, '');
}

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

function trainInjection(split: SplitFile): void {
  const rows = selectRows(loadInjection(), split.injection.train_ids);
  const examples: Example[] = rows.map((r) => {
    const views = textViews(r.text);
    return {
      x: injectionFeatures(primaryView(views), scorePatterns(views), stripCorpusArtefacts),
      y: r.positive ? 1 : 0,
      group: r.group,
    };
  });
  const { model, oof } = fitDetector(examples, {
    dims: INJECTION_DIMS,
    epochs: 400,
    learningRate: 1,
    l2: 1e-3,
  });
  report('injection', oof, examples, model.calibration, 0.8);
  writeWeights(path.join(REPO_ROOT, 'auditors/injection/weights.json'), model, {
    method: 'hashed logistic regression',
    trained_on: 'injection train split',
    rows: rows.length,
  });
}

function trainToxicity(split: SplitFile): void {
  const rows = selectRows(hateCheckFamilies(loadHateCheck()), split.toxicity.train_ids);
  const examples: Example[] = rows.map((r) => ({
    x: toxicityFeatures(analyseToxicity(r.text)),
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
  writeWeights(path.join(REPO_ROOT, 'auditors/toxicity/weights.json'), model, {
    method: 'hashed logistic regression',
    trained_on: 'hatecheck train split',
    rows: rows.length,
  });
}

const split = ensureSplit(process.argv.includes('--write-split'));
trainInjection(split);
trainToxicity(split);
