// Stochastic training of a hashed logistic regression for the larger data
// sets (tens of thousands of tweets), where full-batch gradient descent
// (auditors/text/hashing.ts trainLogistic) converges too slowly: AdaGrad over
// a fixed-seed shuffle, class-balanced and per-example weights, L2 applied
// per touched weight. Deterministic for a given input order.
import { fnv1a, sigmoid, type LogisticWeights, type SparseVector } from '../../auditors/text/hashing.ts';

export interface SgdOptions {
  dims: number;
  epochs: number;
  learningRate: number;
  l2: number;
}

export interface WeightedExample {
  x: SparseVector;
  y: number;
  /** Importance of the example (1 unless a source is up- or down-weighted). */
  weight: number;
}

function shuffled(n: number, epoch: number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  return idx
    .map((i) => [fnv1a(`shuffle:${epoch}:${i}`), i] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, i]) => i);
}

export function trainLogisticSgd(examples: readonly WeightedExample[], opts: SgdOptions): LogisticWeights {
  const w = new Float64Array(opts.dims);
  const g2 = new Float64Array(opts.dims).fill(1e-8);
  let bias = 0;
  let gBias = 1e-8;
  const pos = examples.filter((e) => e.y === 1).reduce((s, e) => s + e.weight, 0);
  const total = examples.reduce((s, e) => s + e.weight, 0);
  const cw = [total / (2 * Math.max(total - pos, 1e-9)), total / (2 * Math.max(pos, 1e-9))];
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (const i of shuffled(examples.length, epoch)) {
      const e = examples[i]!;
      let z = bias;
      for (const [k, v] of e.x) z += w[k]! * v;
      const err = (sigmoid(z) - e.y) * cw[e.y]! * e.weight;
      for (const [k, v] of e.x) {
        const g = err * v + opts.l2 * w[k]!;
        g2[k] = g2[k]! + g * g;
        w[k] = w[k]! - (opts.learningRate * g) / Math.sqrt(g2[k]!);
      }
      gBias += err * err;
      bias -= (opts.learningRate * err) / Math.sqrt(gBias);
    }
  }
  return { dims: opts.dims, bias, weights: Array.from(w), calibration: { a: 1, b: 0 } };
}
