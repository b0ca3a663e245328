// Loading the labelled evaluation data from ../shared/data (read in place,
// never copied into the repository) and the family split recorded in
// auditors/data-split.json (ids only).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DATA_ROOT = path.resolve(REPO_ROOT, '../shared/data');
export const INJECTION_FILE = path.join(DATA_ROOT, 'injection/injection-dev.jsonl');
export const HATECHECK_FILE = path.join(DATA_ROOT, 'toxicity/hatecheck-dev.csv');
export const SPLIT_FILE = path.join(REPO_ROOT, 'auditors/data-split.json');

/**
 * Corpus artefacts the model must not learn: every attack row ends in
 * "Scenario PI1-A-…" and every benign row in "Reference PI1-B-…", followed
 * by a trace id. They are cut from the training text (in every view).
 */
export function stripCorpusArtefacts(text: string): string {
  return text.replace(/\b(scenario|reference)\b[\s\S]*$/, '').replace(/(scenario|reference)pii[\s\S]*$/, '');
}

/** One labelled example in either corpus. */
export interface LabelledRow {
  id: string;
  text: string;
  positive: boolean;
  /** Attack family (injection) or HateCheck functionality. */
  family: string;
  /** The split unit: a template family. */
  group: string;
  /** The corpus's own split field, when it has one. */
  upstreamSplit?: string;
}

const BYPASS_SUFFIX =
  /:(plain|rot13|diacritics|homoglyph|leet_spacing|letter_spaced|encoding|chunked_leet|compact_leet|compact_plain|leet_letter_spaced|separator_spaced|multilingual)$/;

/** Template family of an injection row: its group_id without the obfuscation suffix. */
export function injectionGroup(groupId: string): string {
  return groupId.replace(BYPASS_SUFFIX, '');
}

export function loadInjection(file = INJECTION_FILE): LabelledRow[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((line, i) => {
      const r = JSON.parse(line) as Record<string, unknown>;
      const cls = String(r.attack_class ?? 'benign');
      const groupId = String(r.group_id ?? r.id ?? i);
      return {
        id: String(r.id ?? i),
        text: String(r.text ?? ''),
        positive: !cls.startsWith('benign'),
        family: cls,
        group: injectionGroup(groupId),
        upstreamSplit: String(r.split ?? ''),
      };
    });
}

interface CsvState {
  rows: string[][];
  row: string[];
  field: string;
  quoted: boolean;
}

function endField(st: CsvState): void {
  st.row.push(st.field);
  st.field = '';
}

function endRow(st: CsvState): void {
  endField(st);
  st.rows.push(st.row);
  st.row = [];
}

/** Characters that end a field or a row outside quotes. */
const CSV_BREAKS = new Set([',', '\n', '\r']);

/** Consumes the character at `i` (and a second one for `""` or CRLF); returns the last index consumed. */
function csvStep(st: CsvState, text: string, i: number): number {
  const c = text[i]!;
  if (c === '"') return quoteStep(st, text, i);
  if (st.quoted || !CSV_BREAKS.has(c)) {
    st.field += c;
    return i;
  }
  if (c === ',') {
    endField(st);
    return i;
  }
  endRow(st);
  return c === '\r' && text[i + 1] === '\n' ? i + 1 : i;
}

/** A doubled quote inside a quoted field is a literal quote; any other quote opens or closes the field. */
function quoteStep(st: CsvState, text: string, i: number): number {
  if (st.quoted && text[i + 1] === '"') {
    st.field += '"';
    return i + 1;
  }
  st.quoted = !st.quoted;
  return i;
}

/** RFC 4180 CSV: quoted fields, doubled quotes, newlines inside quotes. */
export function parseCsv(text: string): string[][] {
  const st: CsvState = { rows: [], row: [], field: '', quoted: false };
  for (let i = 0; i < text.length; i++) i = csvStep(st, text, i);
  if (st.field.length > 0 || st.row.length > 0) endRow(st);
  return st.rows.filter((r) => r.length > 1 || (r[0] ?? '') !== '');
}

export interface HateCheckRow extends LabelledRow {
  templId: string;
  refTemplId: string;
}

export function loadHateCheck(file = HATECHECK_FILE): HateCheckRow[] {
  const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
  const col = (name: string): number => header!.indexOf(name);
  const [cCase, cText, cLabel, cFunc, cTempl, cRef] = [
    'case_id',
    'test_case',
    'label_gold',
    'functionality',
    'templ_id',
    'ref_templ_id',
  ].map(col);
  return rows.map((r) => ({
    id: r[cCase!] ?? '',
    text: (r[cText!] ?? '').trim(),
    positive: r[cLabel!] === 'hateful',
    family: r[cFunc!] ?? '',
    templId: r[cTempl!] ?? '',
    refTemplId: r[cRef!] ?? '',
    group: '',
  }));
}

/** Template families: templates joined through `ref_templ_id` (union-find), so derived cases stay with their source. */
export function hateCheckFamilies(rows: HateCheckRow[]): HateCheckRow[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let p = parent.get(x) ?? x;
    while (p !== (parent.get(p) ?? p)) p = parent.get(p) ?? p;
    parent.set(x, p);
    return p;
  };
  const union = (a: string, b: string): void => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent.set(ra > rb ? ra : rb, ra > rb ? rb : ra);
  };
  for (const r of rows)
    if (r.refTemplId) union(`t${r.templId}`, `t${String(Math.round(Number(r.refTemplId)))}`);
  return rows.map((r) => ({ ...r, group: find(`t${r.templId}`) }));
}

export interface SplitFile {
  injection: { method: string; heldout_groups: string[]; train_ids: string[]; heldout_ids: string[] };
  toxicity: {
    method: string;
    seed: string;
    heldout_groups: string[];
    train_ids: string[];
    heldout_ids: string[];
  };
}

export function loadSplit(file = SPLIT_FILE): SplitFile {
  return JSON.parse(readFileSync(file, 'utf8')) as SplitFile;
}

export function selectRows<T extends LabelledRow>(rows: T[], ids: readonly string[]): T[] {
  const set = new Set(ids);
  return rows.filter((r) => set.has(r.id));
}
