// Trains the statistical layers of the injection and toxicity auditors on
// the TRAINING split of ../shared/data and writes their weights as small
// JSON files beside the auditors. Usage:
//   npx tsx hack/train-detectors.ts [--write-split] [--no-write] [--verbose] [--errors]
//     [--injection-only | --toxicity-only | --offensive-only] [--no-aug (toxicity: without the augmentation set)]
//     [--heldout (offensive model: report the davidson held-out part once)]
// --write-split (re)creates auditors/data-split.json from the family split.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { INJECTION_TRAIN_OPTIONS } from './train/layers.ts';
import { FEATURE_OPTIONS } from '../auditors/injection/features.ts';
import { crossValidate, injectionExamples, injectionTrainingRows } from './train/injection.ts';
import { trainToxicityModel } from './train/toxicity.ts';
import { trainOffensiveModel } from './train/offensive.ts';
import { type LogisticWeights } from '../auditors/text/hashing.ts';
import {
  REPO_ROOT,
  SPLIT_FILE,
  hateCheckFamilies,
  loadHateCheck,
  loadInjection,
  loadSplit,
  type SplitFile,
} from './train/data.ts';
import { injectionSplit, toxicitySplit } from './train/split.ts';
import { FOLDS, fitDetector } from './train/fit.ts';

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

function writeWeights(file: string, model: LogisticWeights, meta: Record<string, unknown>): void {
  writeFileSync(file, `${JSON.stringify({ ...meta, ...model })}\n`);
  console.log(`wrote ${path.relative(REPO_ROOT, file)}`);
}

function trainInjection(): void {
  const rows = injectionTrainingRows();
  // --ngrams=binary|count: the n-gram weighting compared by grouped CV (decision 161).
  const ngrams = process.argv.find((a) => a.startsWith('--ngrams='))?.slice('--ngrams='.length);
  // --structure-weight=<x>, --ngram-weight=<x>: the balance of slots against n-grams (decision 187).
  const weight = (name: string): number | undefined => {
    const v = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
    return v === undefined ? undefined : Number(v);
  };
  const opts = {
    ...FEATURE_OPTIONS,
    ...(ngrams ? { binaryNgrams: ngrams === 'binary' } : {}),
    structureWeight: weight('structure-weight') ?? FEATURE_OPTIONS.structureWeight,
    ngramWeight: weight('ngram-weight') ?? FEATURE_OPTIONS.ngramWeight,
  };
  const examples = injectionExamples(rows, true, opts);
  // --l2=<x>: the regularisation compared by grouped CV (no big grids: 2 shared cores).
  const l2 = process.argv.find((a) => a.startsWith('--l2='))?.slice('--l2='.length);
  const train = l2 ? { ...INJECTION_TRAIN_OPTIONS, l2: Number(l2) } : INJECTION_TRAIN_OPTIONS;
  // --no-isotonic: Platt scaling alone (the calibration before round 4, decision 206).
  const isotonic = !process.argv.includes('--no-isotonic');
  const cv = crossValidate(rows, examples, train, {
    threshold: 0.8,
    verbose: process.argv.includes('--verbose'),
    isotonic,
  });
  console.log(
    `injection: grouped ${FOLDS}-fold CV on train+aug at 0.8: recall ${cv.recall.toFixed(3)} FPR ${cv.fpr.toFixed(3)} AUC ${cv.auc.toFixed(3)} (n=${rows.length})`,
  );
  if (process.argv.includes('--no-write')) return;
  const { model } = fitDetector(examples, train, isotonic);
  writeWeights(path.join(REPO_ROOT, 'auditors/injection/weights.json'), model, {
    method: 'hashed logistic regression',
    trained_on: 'injection train split + BIPIA training groups + injection-train-aug.jsonl',
    rows: rows.length,
  });
}

function trainToxicity(split: SplitFile): void {
  const { model, rows } = trainToxicityModel(split.toxicity.train_ids, process.argv);
  if (process.argv.includes('--no-write')) return;
  writeWeights(path.join(REPO_ROOT, 'auditors/toxicity/weights.json'), model, {
    method: 'hashed logistic regression',
    trained_on: 'hatecheck train split + toxicity-train-aug.csv',
    rows,
  });
}

function trainOffensive(split: SplitFile): void {
  const model = trainOffensiveModel(split.toxicity.train_ids, process.argv);
  if (process.argv.includes('--no-write')) return;
  writeWeights(path.join(REPO_ROOT, 'auditors/toxicity/weights-offensive.json'), model, {
    method: 'hashed logistic regression (AdaGrad), word/char n-grams + lexicon and context features',
    trained_on:
      'davidson tweets outside the held-out source groups + hatecheck train split + toxicity-train-aug.csv',
  });
}

const split = ensureSplit(process.argv.includes('--write-split'));
const only = ['--injection-only', '--toxicity-only', '--offensive-only'].find((a) =>
  process.argv.includes(a),
);
if (!only || only === '--injection-only') trainInjection();
if (!only || only === '--toxicity-only') trainToxicity(split);
if (!only || only === '--offensive-only') trainOffensive(split);
