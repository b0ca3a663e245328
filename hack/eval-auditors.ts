// Evaluates an auditor over a labelled file in the formats of ../shared/data.
//   npm run eval:auditors -- --kind injection|toxicity --file PATH [--url URL] [--split heldout|train]
//   npm run eval:auditors -- --set bipia|davidson [--split heldout|train]   (their own grouped splits)
//     [--errors] [--layers]   (--layers: each injection layer on its own, in process)
//     [--claim NAME]   (read another boolean claim than <kind>_detected, e.g. toxicity.hate_detected)
// With --url it POSTs each row to a started auditor's /claims; without, it
// runs the auditor in process through audit(). Detection is read from
// `<kind>_detected`. Prints precision, recall, F1, FPR and p50/p99 latency
// per attack family / HateCheck functionality and in total.
import { performance } from 'node:perf_hooks';
import type {
  AuditContext,
  AuditorDefinition,
  Claim,
  ClaimsResponse,
  SettingValue,
} from '../auditors/sdk/types.ts';
import {
  hateCheckFamilies,
  loadHateCheck,
  loadInjection,
  loadSplit,
  selectRows,
  type LabelledRow,
} from './train/data.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function parseSetting(raw: string, fallback: SettingValue): SettingValue {
  if (typeof fallback === 'number') return Number(raw);
  if (typeof fallback === 'boolean') return raw === 'true' || raw === '1';
  if (Array.isArray(fallback))
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  return raw;
}

/** In-process context: env `<AUDITOR>_<KEY>` over the declared default (no per-request overrides). */
export function localContext(def: AuditorDefinition): AuditContext {
  return {
    setting<T extends SettingValue = SettingValue>(claimName: string, key: string): T {
      const decl = def.vocabulary.find((v) => v.name === claimName)?.settings?.find((s) => s.key === key);
      if (!decl) throw new Error(`setting ${claimName}.${key} is not declared`);
      const env = process.env[`${def.id.toUpperCase()}_${key.toUpperCase()}`];
      return (env === undefined ? decl.default : parseSetting(env, decl.default)) as T;
    },
    signal: new AbortController().signal,
    emit: () => {},
  };
}

export async function loadAuditor(kind: string): Promise<AuditorDefinition> {
  if (kind === 'injection') return (await import('../auditors/injection/index.ts')).injectionAuditor;
  if (kind === 'toxicity') return (await import('../auditors/toxicity/index.ts')).toxicityAuditor;
  throw new Error(`unknown --kind ${kind}`);
}

async function claimsOverHttp(url: string, text: string): Promise<Claim[]> {
  const res = await fetch(new URL('/claims', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { input: text }, phase: 'request' }),
  });
  const body = (await res.json()) as ClaimsResponse;
  if (body.status !== 'success') throw new Error(`auditor error: ${JSON.stringify(body.error)}`);
  return body.claims;
}

interface Outcome {
  row: LabelledRow;
  detected: boolean;
  latencyMs: number;
}

async function run(kind: string, rows: LabelledRow[], url: string | undefined): Promise<Outcome[]> {
  const def = url ? undefined : await loadAuditor(kind);
  const ctx = def ? localContext(def) : undefined;
  if (def?.load) await def.load();
  const out: Outcome[] = [];
  for (const row of rows) {
    const t0 = performance.now();
    const claims = url
      ? await claimsOverHttp(url, row.text)
      : await def!.audit({ data: { input: row.text }, phase: 'request' }, ctx!);
    const latencyMs = performance.now() - t0;
    const detected = claims.find((c) => c.name === (arg('claim') ?? `${kind}_detected`))?.value === true;
    out.push({ row, detected, latencyMs });
  }
  return out;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export interface Metrics {
  n: number;
  precision: number;
  recall: number;
  f1: number;
  fpr: number;
  p50: number;
  p99: number;
}

export function metrics(outcomes: Outcome[]): Metrics {
  const tp = outcomes.filter((o) => o.row.positive && o.detected).length;
  const fp = outcomes.filter((o) => !o.row.positive && o.detected).length;
  const pos = outcomes.filter((o) => o.row.positive).length;
  const neg = outcomes.length - pos;
  const precision = tp + fp === 0 ? NaN : tp / (tp + fp);
  const recall = pos === 0 ? NaN : tp / pos;
  const lat = outcomes.map((o) => o.latencyMs).sort((a, b) => a - b);
  return {
    n: outcomes.length,
    precision,
    recall,
    f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : NaN,
    fpr: neg === 0 ? NaN : fp / neg,
    p50: quantile(lat, 0.5),
    p99: quantile(lat, 0.99),
  };
}

const fmt = (v: number): string => (Number.isNaN(v) ? '   -  ' : v.toFixed(3).padStart(6));

function printTable(outcomes: Outcome[], latency = true): void {
  const head = `| family | n | precision | recall | F1 | FPR |${latency ? ' p50 ms | p99 ms |' : ''}`;
  console.log(`${head}\n${head.replace(/[^|]+/g, '---')}`);
  const families = [...new Set(outcomes.map((o) => o.row.family))].sort();
  const line = (name: string, m: Metrics): void =>
    console.log(
      `| ${name} | ${m.n} | ${fmt(m.precision)} | ${fmt(m.recall)} | ${fmt(m.f1)} | ${fmt(m.fpr)} |${latency ? ` ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} |` : ''}`,
    );
  for (const f of families) line(f, metrics(outcomes.filter((o) => o.row.family === f)));
  line('**total**', metrics(outcomes));
}

/** Per-layer tables (injection only, in process): see hack/train/layers.ts. */
async function printLayers(rows: LabelledRow[]): Promise<void> {
  const layers = await import('./train/layers.ts');
  const textOnly = await layers.trainTextOnlyModel();
  const threshold = Number(process.env.INJECTION_THRESHOLD ?? 0.8);
  const scored = rows.map((row) => ({ row, layers: layers.scoreLayers(row.text, textOnly, threshold) }));
  for (const layer of layers.LAYERS) {
    const outcomes = scored.map((s) => ({ row: s.row, detected: s.layers[layer].detected, latencyMs: 0 }));
    const a = layers.auc(
      scored.map((s) => s.layers[layer].score),
      scored.map((s) => s.row.positive),
    );
    console.log(`\n### ${layer} (AUC ${a.toFixed(3)}): ${layers.LAYER_DOC[layer]}\n`);
    printTable(outcomes, false);
  }
}

/** The BIPIA and davidson sets, split by their own grouping (hack/train/bipia.ts, offensive.ts). */
export async function loadSet(set: string, split: string | undefined): Promise<LabelledRow[]> {
  const [rows, heldOut] =
    set === 'bipia'
      ? await import('./train/bipia.ts').then((m) => [m.loadBipia(), m.bipiaHeldOut] as const)
      : await import('./train/offensive.ts').then((m) => [m.loadDavidson(), m.davidsonHeldOut] as const);
  if (!split) return rows;
  return rows.filter((r) => heldOut(r) === (split === 'heldout'));
}

export function loadRows(kind: string, file: string | undefined, split: string | undefined): LabelledRow[] {
  const all = kind === 'injection' ? loadInjection(file) : hateCheckFamilies(loadHateCheck(file));
  if (!split) return all;
  const s = loadSplit()[kind as 'injection' | 'toxicity'];
  return selectRows(all, split === 'heldout' ? s.heldout_ids : s.train_ids);
}

function printErrors(outcomes: Outcome[]): void {
  for (const o of outcomes.filter((x) => x.detected !== x.row.positive))
    console.log(o.row.positive ? 'FN' : 'FP', o.row.family, o.row.text.slice(0, 140));
}

async function main(): Promise<void> {
  const set = arg('set');
  const kind = arg('kind') ?? (set === 'davidson' ? 'toxicity' : 'injection');
  const rows = await (set ? loadSet(set, arg('split')) : loadRows(kind, arg('file'), arg('split')));
  if (process.argv.includes('--layers')) {
    if (kind !== 'injection' || arg('url')) throw new Error('--layers: injection, in process only');
    return printLayers(rows);
  }
  const outcomes = await run(kind, rows, arg('url'));
  console.log(
    `${kind}: ${rows.length} rows${arg('split') ? ` (${arg('split')} split)` : ''}, ${arg('url') ? `via ${arg('url')}/claims` : 'in process'}\n`,
  );
  printTable(outcomes);
  if (process.argv.includes('--errors')) printErrors(outcomes);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
