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

/** RFC 4180 CSV: quoted fields, doubled quotes, newlines inside quotes. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = (): void => {
    row.push(field);
    field = '';
  };
  const endRow = (): void => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) field += c;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (field.length > 0 || row.length > 0) endRow();
  return rows.filter((r) => r.length > 1 || (r[0] ?? '') !== '');
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
