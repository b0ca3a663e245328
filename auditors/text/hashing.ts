// Hashed sparse features and a logistic-regression scorer shared by the
// statistical layers of both auditors and by the training script.

/** FNV-1a over UTF-16 code units, 32-bit. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Sparse vector: bucket index → value. */
export type SparseVector = Map<number, number>;

export function addFeature(vec: SparseVector, name: string, dims: number, value = 1): void {
  const idx = fnv1a(name) % dims;
  vec.set(idx, (vec.get(idx) ?? 0) + value);
}

/** Scales the vector to unit L2 norm (no-op for an empty vector). */
export function l2normalize(vec: SparseVector): SparseVector {
  let sum = 0;
  for (const v of vec.values()) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm === 0) return vec;
  for (const [k, v] of vec) vec.set(k, v / norm);
  return vec;
}

/** Adds every entry of `from` into `into` (feature groups hashed into one space). */
export function mergeInto(into: SparseVector, from: SparseVector): SparseVector {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
  return into;
}

export interface LogisticWeights {
  dims: number;
  bias: number;
  /** Dense weights, length `dims`. */
  weights: number[];
  /**
   * Platt scaling fitted on out-of-fold training scores: p = σ(a·z + b);
   * optionally followed by a monotone correction (`knots`: isotonic fit of
   * the Platt probability on the same out-of-fold scores, [x, y] pairs,
   * x increasing, interpolated linearly), where the Platt curve's shape does
   * not follow the margins (decision 206).
   */
  calibration: { a: number; b: number; knots?: number[][] };
}

export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** Raw margin z = w·x + bias. */
export function margin(model: Pick<LogisticWeights, 'bias' | 'weights'>, x: SparseVector): number {
  let z = model.bias;
  for (const [k, v] of x) z += (model.weights[k] ?? 0) * v;
  return z;
}

/** Piecewise-linear interpolation through increasing knots (flat beyond the ends). */
export function interpolateKnots(knots: readonly (readonly number[])[], x: number): number {
  if (knots.length === 0) return x;
  if (x <= knots[0]![0]!) return knots[0]![1]!;
  let [lo, hi] = [0, knots.length - 1];
  if (x >= knots[hi]![0]!) return knots[hi]![1]!;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (knots[mid]![0]! <= x) lo = mid;
    else hi = mid;
  }
  const [x0, y0] = knots[lo] as [number, number];
  const [x1, y1] = knots[hi] as [number, number];
  return x1 > x0 ? y0 + ((y1 - y0) * (x - x0)) / (x1 - x0) : y1;
}

/** Calibrated probability. */
export function predict(model: LogisticWeights, x: SparseVector): number {
  const p = sigmoid(model.calibration.a * margin(model, x) + model.calibration.b);
  return model.calibration.knots ? interpolateKnots(model.calibration.knots, p) : p;
}

/**
 * Isotonic regression (pool adjacent violators) of labels on probabilities,
 * the classes weighted equally as in fitPlatt: knots at each pooled block's
 * mean probability, plus (0, 0) and (1, 1), so the map stays increasing.
 */
export function isotonicKnots(probs: readonly number[], ys: readonly number[]): [number, number][] {
  const pos = ys.filter((y) => y === 1).length;
  const neg = ys.length - pos;
  const w = (y: number): number => (y === 1 ? 0.5 / Math.max(pos, 1) : 0.5 / Math.max(neg, 1));
  const order = probs.map((_, i) => i).sort((i, j) => probs[i]! - probs[j]!);
  const blocks: { x: number; v: number; w: number }[] = [];
  for (const i of order) {
    blocks.push({ x: probs[i]! * w(ys[i]!), v: ys[i]! * w(ys[i]!), w: w(ys[i]!) });
    while (blocks.length > 1) {
      const [a, b] = [blocks[blocks.length - 2]!, blocks[blocks.length - 1]!];
      if (a.v / a.w < b.v / b.w) break;
      [a.x, a.v, a.w] = [a.x + b.x, a.v + b.v, a.w + b.w];
      blocks.pop();
    }
  }
  const knots: [number, number][] = blocks.map((b) => [b.x / b.w, b.v / b.w]);
  return [[0, 0], ...knots.filter(([x]) => x > 0 && x < 1), [1, 1]];
}

export interface TrainOptions {
  dims: number;
  epochs: number;
  learningRate: number;
  l2: number;
}

/** Full-batch gradient descent with class-balanced weights and L2; deterministic. */
export function trainLogistic(
  xs: readonly SparseVector[],
  ys: readonly number[],
  opts: TrainOptions,
): LogisticWeights {
  const w = new Float64Array(opts.dims);
  let bias = 0;
  const pos = ys.filter((y) => y === 1).length;
  const neg = ys.length - pos;
  const cw = (y: number): number =>
    y === 1 ? ys.length / (2 * Math.max(pos, 1)) : ys.length / (2 * Math.max(neg, 1));
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    const grad = new Float64Array(opts.dims);
    let gb = 0;
    xs.forEach((x, i) => {
      const y = ys[i]!;
      const err = (sigmoid(margin({ bias, weights: w as unknown as number[] }, x)) - y) * cw(y);
      for (const [k, v] of x) grad[k] = grad[k]! + err * v;
      gb += err;
    });
    for (let k = 0; k < opts.dims; k++)
      w[k] = w[k]! - opts.learningRate * (grad[k]! / xs.length + opts.l2 * w[k]!);
    bias -= (opts.learningRate * gb) / xs.length;
  }
  return { dims: opts.dims, bias, weights: Array.from(w), calibration: { a: 1, b: 0 } };
}

/**
 * Platt scaling: fits p = σ(a·z + b) to (margin, label) pairs by gradient
 * descent, with the two classes weighted equally, so the probability assumes
 * even prior odds rather than the training corpus's share of positives.
 */
export function fitPlatt(margins: readonly number[], ys: readonly number[]): { a: number; b: number } {
  let a = 1;
  let b = 0;
  const pos = ys.filter((y) => y === 1).length;
  const weight = (y: number): number =>
    y === 1 ? ys.length / (2 * Math.max(pos, 1)) : ys.length / (2 * Math.max(ys.length - pos, 1));
  for (let it = 0; it < 3000; it++) {
    let ga = 0;
    let gb = 0;
    margins.forEach((z, i) => {
      const err = (sigmoid(a * z + b) - ys[i]!) * weight(ys[i]!);
      ga += err * z;
      gb += err;
    });
    a -= (0.05 * ga) / margins.length;
    b -= (0.05 * gb) / margins.length;
  }
  return { a, b };
}

/** Rounds weights for a compact committed JSON file. */
export function compactWeights(model: LogisticWeights, digits = 4): LogisticWeights {
  const f = 10 ** digits;
  const r = (v: number): number => Math.round(v * f) / f;
  return {
    dims: model.dims,
    bias: r(model.bias),
    weights: model.weights.map(r),
    calibration: {
      a: r(model.calibration.a),
      b: r(model.calibration.b),
      ...(model.calibration.knots ? { knots: model.calibration.knots.map((k) => k.map(r)) } : {}),
    },
  };
}
