// BIPIA rows (../shared/data/injection/bipia-dev.jsonl): real e-mails with a
// code instruction planted in them, the same e-mails clean, and code questions
// with a forum answer. Grouped so that nothing shared crosses the split: an
// e-mail, its planted instruction's wording and its code snippet are joined
// (union-find), so the held-out part has e-mails, instruction phrasings and
// snippets the model never saw.
import path from 'node:path';
import { fnv1a } from '../../auditors/text/hashing.ts';
import { DATA_ROOT, loadInjection, type LabelledRow } from './data.ts';

export const BIPIA_FILE = path.join(DATA_ROOT, 'injection/bipia-dev.jsonl');
export const BIPIA_SEED = 'bipia-group-split-v1';
export const BIPIA_HELDOUT_PERCENT = 30;

/** "<instruction>:\n```\n<code>```": the block BIPIA plants in an e-mail. */
const PLANTED = /\n*([^\n]*):\n```\n([\s\S]*?)```\n*/;

function unionFind(): { find: (x: string) => string; union: (a: string, b: string) => void } {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let p = x;
    while (parent.has(p) && parent.get(p) !== p) p = parent.get(p)!;
    return p;
  };
  const union = (a: string, b: string): void => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent.set(ra > rb ? ra : rb, ra > rb ? rb : ra);
  };
  return { find, union };
}

/** Keys of a row: its document (planted block removed), and for an attack the instruction and the snippet. */
function keysOf(r: LabelledRow): string[] {
  const m = r.positive ? PLANTED.exec(r.text) : null;
  const clean = m ? r.text.replace(PLANTED, '\n\n') : r.text;
  const doc = `d:${clean
    .slice(0, 80)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')}`;
  return m ? [doc, `i:${m[1]!.trim().toLowerCase()}`, `c:${m[2]!.slice(0, 200)}`] : [doc];
}

export function loadBipia(file = BIPIA_FILE): LabelledRow[] {
  const rows = loadInjection(file).map((r, i) => ({ ...r, id: `bipia:${i}` }));
  const uf = unionFind();
  const keys = rows.map(keysOf);
  for (const k of keys) for (const other of k.slice(1)) uf.union(k[0]!, other);
  return rows.map((r, i) => ({ ...r, group: `bipia:${uf.find(keys[i]![0]!)}` }));
}

export const bipiaHeldOut = (r: LabelledRow): boolean =>
  fnv1a(`${BIPIA_SEED}:${r.group}`) % 100 < BIPIA_HELDOUT_PERCENT;
