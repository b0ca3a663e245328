// Recall-against-FPR curves of the injection and toxicity auditors, drawn as
// SVG for docs/detection.md, with the operating point at the default
// thresholds marked, and a reliability table (is a score of 0.8 right 80% of
// the time, with the classes weighted equally as in the Platt fit?).
//   npx tsx hack/detection-curves.ts [--before before.json] [--json out.json] [--svg-dir docs/detection]
//   npx tsx hack/detection-curves.ts --from out.json [--before before.json] --svg-dir docs/detection   (redraw only)
// The score of a row is the auditor's own decision variable: injection_score /
// INJECTION_THRESHOLD, and for toxicity the largest ratio of a category score
// to its threshold, so "score >= 1" is exactly `<kind>_detected`. `--json`
// saves the points so that a run on older code can be drawn as "before".
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AuditorDefinition, Claim } from '../auditors/sdk/types.ts';
import { loadAuditor, loadRows, loadSet, localContext } from './eval-auditors.ts';
import { REPO_ROOT, type LabelledRow } from './train/data.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface EvalSet {
  kind: 'injection' | 'toxicity';
  name: string;
  rows: () => Promise<LabelledRow[]>;
}

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/detection');
const SETS: EvalSet[] = [
  { kind: 'injection', name: 'BIPIA held-out', rows: () => loadSet('bipia', 'heldout') },
  {
    kind: 'injection',
    name: 'corpus held-out',
    rows: async () => loadRows('injection', undefined, 'heldout'),
  },
  {
    kind: 'injection',
    name: 'blind v5 (seen)',
    rows: async () => loadRows('injection', path.join(FIXTURES, 'injection-blind-v5.jsonl'), undefined),
  },
  {
    kind: 'injection',
    name: 'blind v6 (seen)',
    rows: async () => loadRows('injection', path.join(FIXTURES, 'injection-blind-v6.jsonl'), undefined),
  },
  {
    kind: 'injection',
    name: 'blind v7 (seen)',
    rows: async () => loadRows('injection', path.join(FIXTURES, 'injection-blind-v7.jsonl'), undefined),
  },
  { kind: 'toxicity', name: 'davidson held-out', rows: () => loadSet('davidson', 'heldout') },
  {
    kind: 'toxicity',
    name: 'HateCheck held-out',
    rows: async () => loadRows('toxicity', undefined, 'heldout'),
  },
  {
    kind: 'toxicity',
    name: 'blind v5 (seen)',
    rows: async () => loadRows('toxicity', path.join(FIXTURES, 'toxicity-blind-v5.csv'), undefined),
  },
  {
    kind: 'toxicity',
    name: 'blind v6 (seen)',
    rows: async () => loadRows('toxicity', path.join(FIXTURES, 'toxicity-blind-v6.csv'), undefined),
  },
  {
    kind: 'toxicity',
    name: 'blind v7 (seen)',
    rows: async () => loadRows('toxicity', path.join(FIXTURES, 'toxicity-blind-v7.csv'), undefined),
  },
];

const TOXICITY_THRESHOLD_KEYS: Record<string, string> = {
  toxicity_score: 'threshold',
  'toxicity.severe_toxicity': 'severe_threshold',
  'toxicity.threat': 'threat_threshold',
  'toxicity.insult': 'insult_threshold',
  'toxicity.identity_attack': 'identity_attack_threshold',
};

/** The decision variable: 1.0 is the default operating point. */
function decisionScore(kind: string, claims: Claim[]): number {
  const ratios = claims.flatMap((c) => {
    const key =
      kind === 'injection'
        ? c.name === 'injection_score'
          ? 'threshold'
          : undefined
        : TOXICITY_THRESHOLD_KEYS[c.name];
    const t = key === undefined ? undefined : (c.provenance as Record<string, unknown> | undefined)?.[key];
    return typeof t === 'number' && typeof c.value === 'number' ? [c.value / t] : [];
  });
  return Math.max(0, ...ratios);
}

interface Scored {
  score: number;
  /** injection_score / toxicity_score as claimed. */
  headline: number;
  positive: boolean;
}

async function scoreSet(def: AuditorDefinition, set: EvalSet): Promise<Scored[]> {
  const ctx = localContext(def);
  const out: Scored[] = [];
  for (const row of await set.rows()) {
    const claims = await def.audit({ data: { input: row.text }, phase: 'request' }, ctx);
    const headline = claims.find((c) => c.name === `${set.kind}_score`)?.value;
    out.push({
      score: decisionScore(set.kind, claims),
      headline: typeof headline === 'number' ? headline : 0,
      positive: row.positive,
    });
  }
  return out;
}

type Point = [fpr: number, recall: number];

/** The ROC staircase: one point per distinct score, from the strictest threshold down. */
export function curve(scored: readonly Scored[]): Point[] {
  const pos = scored.filter((s) => s.positive).length;
  const neg = scored.length - pos;
  const sorted = [...scored].sort((a, b) => b.score - a.score);
  const points: Point[] = [[0, 0]];
  let [tp, fp] = [0, 0];
  sorted.forEach((s, i) => {
    if (s.positive) tp++;
    else fp++;
    if (i === sorted.length - 1 || sorted[i + 1]!.score !== s.score)
      points.push([fp / Math.max(neg, 1), tp / Math.max(pos, 1)]);
  });
  return points;
}

export function operatingPoint(scored: readonly Scored[]): Point {
  const pos = scored.filter((s) => s.positive);
  const neg = scored.filter((s) => !s.positive);
  const hit = (s: Scored): boolean => s.score >= 1;
  return [neg.filter(hit).length / Math.max(neg.length, 1), pos.filter(hit).length / Math.max(pos.length, 1)];
}

interface Curves {
  [set: string]: { points: Point[]; op: Point };
}

/** Drops points within 0.002 of the last kept one (a curve over thousands of rows), keeping the last. */
function thin(points: readonly Point[]): Point[] {
  const kept: Point[] = [];
  points.forEach((p, i) => {
    const last = kept[kept.length - 1];
    if (!last || i === points.length - 1 || Math.abs(p[0] - last[0]) + Math.abs(p[1] - last[1]) > 0.002)
      kept.push(p);
  });
  return kept;
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c'];

function svg(kind: string, after: Curves, before: Curves | undefined): string {
  const [W, H, M] = [420, 320, 45];
  const x = (f: number): number => M + f * (W - M - 15);
  const y = (r: number): number => H - M - r * (H - M - 15);
  const line = (pts: Point[]): string =>
    thin(pts)
      .map(([f, r]) => `${x(f).toFixed(1)},${y(r).toFixed(1)}`)
      .join(' ');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H + 20 * Object.keys(after).length}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(0)}" stroke="black"/><line x1="${x(0)}" y1="${y(0)}" x2="${x(0)}" y2="${y(1)}" stroke="black"/>`,
    ...[0, 0.25, 0.5, 0.75, 1].map(
      (t) =>
        `<text x="${x(t)}" y="${y(0) + 14}" text-anchor="middle">${t}</text><text x="${x(0) - 5}" y="${y(t) + 4}" text-anchor="end">${t}</text>`,
    ),
    `<text x="${(x(0) + x(1)) / 2}" y="${y(0) + 30}" text-anchor="middle">false-positive rate</text>`,
    `<text transform="translate(12 ${(y(0) + y(1)) / 2}) rotate(-90)" text-anchor="middle">recall</text>`,
    `<text x="${x(0.5)}" y="12" text-anchor="middle" font-weight="bold">${kind}: recall against FPR (dot: default thresholds)</text>`,
  ];
  Object.entries(after).forEach(([name, c], i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const b = before?.[name];
    if (b)
      parts.push(
        `<polyline fill="none" stroke="${colour}" stroke-dasharray="4 3" stroke-opacity="0.6" points="${line(b.points)}"/>`,
        `<circle cx="${x(b.op[0])}" cy="${y(b.op[1])}" r="3" fill="none" stroke="${colour}"/>`,
      );
    parts.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${line(c.points)}"/>`,
      `<circle cx="${x(c.op[0])}" cy="${y(c.op[1])}" r="4" fill="${colour}"/>`,
      `<text x="${M}" y="${H + 20 * i + 5}" fill="${colour}">${name}: at defaults recall ${c.op[1].toFixed(3)}, FPR ${c.op[0].toFixed(3)}${b ? ` (before, dashed: ${b.op[1].toFixed(3)} / ${b.op[0].toFixed(3)})` : ''}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** Reliability with the classes weighted equally: observed share of positives per score bin. */
function reliability(scored: readonly Scored[]): string {
  const pos = scored.filter((s) => s.positive).length;
  const w = (s: Scored): number => (s.positive ? 0.5 / pos : 0.5 / (scored.length - pos));
  const bins = [0, 0.2, 0.4, 0.6, 0.8, 1.0001];
  return bins
    .slice(0, -1)
    .map((lo, i) => {
      const inBin = scored.filter((s) => s.headline >= lo && s.headline < bins[i + 1]!);
      const total = inBin.reduce((t, s) => t + w(s), 0);
      const share = inBin.filter((s) => s.positive).reduce((t, s) => t + w(s), 0) / (total || 1);
      return `${lo.toFixed(1)}–${Math.min(1, bins[i + 1]!).toFixed(1)}: ${inBin.length === 0 ? '-' : share.toFixed(2)} (n=${inBin.length})`;
    })
    .join('; ');
}

async function main(): Promise<void> {
  const before = arg('before')
    ? (JSON.parse(readFileSync(arg('before')!, 'utf8')) as Record<string, Curves>)
    : undefined;
  const all: Record<string, Curves> = arg('from')
    ? (JSON.parse(readFileSync(arg('from')!, 'utf8')) as Record<string, Curves>)
    : { injection: {}, toxicity: {} };
  for (const set of arg('from') ? [] : SETS) {
    const def = await loadAuditor(set.kind);
    const scored = await scoreSet(def, set);
    all[set.kind]![set.name] = { points: curve(scored), op: operatingPoint(scored) };
    console.log(
      `${set.kind} / ${set.name}: share of positives per ${set.kind}_score bin (classes weighted equally): ${reliability(scored)}`,
    );
  }
  if (arg('json')) writeFileSync(arg('json')!, JSON.stringify(all));
  const dir = arg('svg-dir');
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const kind of ['injection', 'toxicity'])
    writeFileSync(path.join(dir, `${kind}-curves.svg`), svg(kind, all[kind]!, before?.[kind]));
  console.log(`wrote ${dir}/injection-curves.svg, ${dir}/toxicity-curves.svg`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
