// Training data and grouped cross-validation of the injection model: the
// corpus TRAINING split, the BIPIA rows outside its held-out groups
// (bipia.ts) and our own augmentation set
// (test/fixtures/detection/injection-train-aug.jsonl), never a held-out
// split or the own evaluation set. Folds are by template family (corpus) or
// group_id (augmentation), so paraphrases of one attack sit in one fold.
import path from 'node:path';
import { injectionFeatures, type FeatureOptions } from '../../auditors/injection/features.ts';
import { scorePatterns } from '../../auditors/injection/patterns.ts';
import { sigmoid, type TrainOptions } from '../../auditors/text/hashing.ts';
import { primaryView, textViews } from '../../auditors/text/normalize.ts';
import {
  REPO_ROOT,
  loadInjection,
  loadSplit,
  selectRows,
  stripCorpusArtefacts,
  type LabelledRow,
} from './data.ts';
import {
  count,
  crossFittedIsotonic,
  emptyTally,
  fitDetector,
  rate,
  type Example,
  type Tally,
} from './fit.ts';
import { auc } from './layers.ts';
import { bipiaHeldOut, loadBipia } from './bipia.ts';

export const AUG_FILE = path.join(REPO_ROOT, 'test/fixtures/detection/injection-train-aug.jsonl');

export interface TrainingRow extends LabelledRow {
  /** Corpus rows carry scenario/trace artefacts that must be cut. */
  corpus: boolean;
}

/** Corpus training split + BIPIA training groups + augmentation rows (group ids prefixed so they never collide). */
export function injectionTrainingRows(withAug = true): TrainingRow[] {
  const corpus = selectRows(loadInjection(), loadSplit().injection.train_ids).map((r) => ({
    ...r,
    corpus: true,
  }));
  const bipia = loadBipia()
    .filter((r) => !bipiaHeldOut(r))
    .map((r) => ({ ...r, family: `bipia:${r.family}`, corpus: false }));
  if (!withAug) return [...corpus, ...bipia];
  const aug = loadInjection(AUG_FILE).map((r) => ({ ...r, group: `aug:${r.group}`, corpus: false }));
  return [...corpus, ...bipia, ...aug];
}

export function injectionExamples(
  rows: readonly TrainingRow[],
  withPatterns: boolean,
  opts?: FeatureOptions,
): Example[] {
  return rows.map((r) => {
    const views = textViews(r.text);
    const clean = r.corpus ? stripCorpusArtefacts : (t: string): string => t;
    return {
      x: injectionFeatures(primaryView(views), withPatterns ? scorePatterns(views) : undefined, clean, opts),
      y: r.positive ? 1 : 0,
      group: r.group,
    };
  });
}

/** Ranking quality independent of calibration: recall at the loosest threshold keeping FPR <= `fpr`. */
function recallAtFpr(p: readonly number[], rows: readonly TrainingRow[], fpr: number): string {
  const neg = p.filter((_, i) => !rows[i]!.positive).sort((a, b) => b - a);
  const cut = neg[Math.floor(fpr * neg.length)] ?? 0;
  const pos = p.filter((_, i) => rows[i]!.positive);
  const recall = pos.filter((x) => x > cut).length / pos.length;
  return `${recall.toFixed(3)} (threshold ${cut.toFixed(3)})`;
}

/** Share of attacks per out-of-fold score bin, the classes weighted equally (what the Platt fit assumes). */
export function reliability(p: readonly number[], rows: readonly { positive: boolean }[]): string {
  const pos = rows.filter((r) => r.positive).length;
  const w = (i: number): number => (rows[i]!.positive ? 0.5 / pos : 0.5 / (rows.length - pos));
  const bins = [0, 0.2, 0.4, 0.6, 0.7, 0.8, 0.9, 1.0001];
  return bins
    .slice(0, -1)
    .map((lo, b) => {
      const idx = p.map((x, i) => (x >= lo && x < bins[b + 1]! ? i : -1)).filter((i) => i >= 0);
      const total = idx.reduce((t, i) => t + w(i), 0);
      const share = idx.filter((i) => rows[i]!.positive).reduce((t, i) => t + w(i), 0) / (total || 1);
      return `${lo.toFixed(1)}–${Math.min(1, bins[b + 1]!).toFixed(1)}: ${idx.length ? share.toFixed(2) : '-'} (n=${idx.length})`;
    })
    .join('; ');
}

/**
 * `--batch=<prefix>` (repeatable): out-of-fold recall / FPR of the augmentation
 * groups whose id starts with the prefix (a fresh batch's first look, before
 * any cue is changed in response to it).
 */
function batchReport(rows: readonly TrainingRow[], p: readonly number[], threshold: number): void {
  for (const arg of process.argv.filter((a) => a.startsWith('--batch='))) {
    const prefix = arg.slice('--batch='.length);
    const t = emptyTally();
    rows.forEach((r, i) => {
      if (!r.corpus && r.group.startsWith(`aug:${prefix}`)) count(r.positive, p[i]! >= threshold, t);
    });
    const r = (a: number, b: number): string => `${(a / Math.max(1, b)).toFixed(3)} (${a}/${b})`;
    console.log(`  batch ${prefix}: recall ${r(t.tp, t.pos)}, FPR ${r(t.fp, t.neg)}`);
  }
}

/** Grouped out-of-fold report at `threshold`, per source (corpus / aug) and family. */
export function crossValidate(
  rows: readonly TrainingRow[],
  examples: readonly Example[],
  train: TrainOptions,
  report: { threshold: number; verbose: boolean; isotonic: boolean },
): { recall: number; fpr: number; auc: number } {
  const { threshold, verbose, isotonic } = report;
  const { model, oof } = fitDetector(examples, train);
  const platt = oof.map((z) => sigmoid(model.calibration.a * z + model.calibration.b));
  // The isotonic correction (decision 206) is graded cross-fitted: knots from the other folds.
  const p = isotonic ? crossFittedIsotonic(platt, examples) : platt;
  const tallies = new Map<string, Tally>();
  const total = emptyTally();
  rows.forEach((r, i) => {
    const key = r.corpus || r.family.startsWith('bipia:') ? `corpus:${r.family}` : `aug:${r.family}`;
    const t = tallies.get(key) ?? emptyTally();
    const hit = p[i]! >= threshold;
    count(r.positive, hit, t, total);
    tallies.set(key, t);
    if (process.argv.includes('--errors') && hit !== r.positive)
      console.log(
        `  ${hit ? 'FP' : 'FN'} ${p[i]!.toFixed(2)} ${key} ${r.text.slice(0, 110).replace(/\n/g, ' ')}`,
      );
  });
  const a = auc(
    p,
    rows.map((r) => r.positive),
  );
  if (verbose) {
    for (const [k, t] of [...tallies].sort()) console.log(`  ${k} (n=${t.pos + t.neg}): ${rate(t)}`);
    batchReport(rows, p, threshold);
    for (const f of [0.05, 0.1]) console.log(`  best recall at FPR <= ${f}: ${recallAtFpr(p, rows, f)}`);
    console.log(`  reliability (classes weighted equally): ${reliability(p, rows)}`);
  }
  return { recall: total.tp / total.pos, fpr: total.fp / total.neg, auc: a };
}
