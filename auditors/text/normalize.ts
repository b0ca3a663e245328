// Normalisation before any rule runs: NFKC, invisible characters removed,
// confusables folded to Latin, diacritics dropped, lower case; plus decoded
// views of obvious encodings (base64, percent-encoding, HTML entities, rot13)
// and de-spaced / leetspeak "skeleton" views. Every step is linear in the
// input and capped, so the work per byte is bounded.
import { stripInvisible } from './invisible.ts';
import { stopwordCounts } from './language.ts';

/** Characters looked at; the rest of a longer input is not normalised. */
export const MAX_SCAN_CHARS = 256 * 1024;
/** Total characters produced by decoding embedded base64 spans. */
export const MAX_DECODED_CHARS = 64 * 1024;

const CONFUSABLES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ɡ: 'g',
  ո: 'n',
  ս: 'u',
  ӏ: 'l',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ı: 'i',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
};

/** Leetspeak a word-level reader undoes: digits and symbols that stand for one letter. */
export const WORD_LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

const LEET: Record<string, string> = {
  ...WORD_LEET,
  '8': 'b',
  '9': 'g',
  '!': 'i',
  '|': 'i',
};

const escapeClass = (ch: string): string => ch.replace(/[\\\]^$-]/g, '\\$&');
/** One regex per table: only the characters that change are visited. */
const CONFUSABLE_RE = new RegExp(`[${Object.keys(CONFUSABLES).map(escapeClass).join('')}]`, 'gu');
const LEET_RE = new RegExp(`[${Object.keys(LEET).map(escapeClass).join('')}l]`, 'g');
const NON_ASCII = /[\u0080-\uffff]/;

/** Whether every code unit is ASCII (the common case, for which most steps are identities). */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** NFKC, invisible characters removed, confusables folded, diacritics dropped, lower case. */
export function normalizeText(text: string): string {
  const capped = text.slice(0, MAX_SCAN_CHARS);
  // ASCII is unchanged by NFKC/NFD/NFC, holds no invisible, confusable or combining character.
  if (isAscii(capped)) return capped.toLowerCase();
  const nfkc = stripInvisible(capped.normalize('NFKC')).toLowerCase();
  const folded = nfkc.replace(CONFUSABLE_RE, (ch) => CONFUSABLES[ch]!);
  return folded
    .normalize('NFD')
    .replace(/\p{Mn}+/gu, '')
    .normalize('NFC');
}

/**
 * Leetspeak skeleton for matching: digits and symbols mapped to letters and
 * `l` folded into `i` (so `1` may stand for either). Rules compiled for the
 * skeleton fold their own `l`s the same way.
 */
export function skeleton(normalized: string): string {
  return normalized.replace(LEET_RE, (ch) => LEET[ch] ?? 'i');
}

/** Letters and digits only: undoes letter-spacing, dotted separators and compaction alike. */
export function compact(text: string): string {
  return isAscii(text) ? text.replace(/[^a-zA-Z0-9]+/g, '') : text.replace(/[^\p{L}\p{N}]+/gu, '');
}

/** One letter, a separator, repeated: four letters at least, so "U.S.A." and "e.g." stay. */
const DOTTED = /^(?:[\p{L}\p{N}][.\-_*·|/]){3,}[\p{L}\p{N}][.\-_*·|/]?$/u;
/** Once a text is judged dotted, shorter words ("t-h-e") are joined too. */
const DOTTED_SHORT = /^(?:[\p{L}\p{N}][.\-_*·|/])+[\p{L}\p{N}][.\-_*·|/]?$/u;

/**
 * "i.g.n.o.r.e y.o.u.r r.u.l.e.s" → "ignore your rules": when three or more
 * words of four letters or more, and most words, are letters joined by one
 * separator each.
 */
function undot(tokens: readonly string[]): string | undefined {
  if (tokens.filter((t) => DOTTED.test(t)).length < 3) return undefined;
  if (tokens.filter((t) => DOTTED_SHORT.test(t)).length / tokens.length < 0.6) return undefined;
  return tokens.map((t) => (DOTTED_SHORT.test(t) ? t.replace(/[.\-_*·|/]/g, '') : t)).join(' ');
}

/**
 * "I g n o r e  a l l" → "ignore all": when most tokens are single
 * characters, single spaces join letters and runs of two or more split words.
 */
export function despace(text: string): string {
  const tokens = text.split(/\s+/).filter((t) => t.length > 0);
  const undotted = undot(tokens);
  if (undotted !== undefined) return undotted;
  if (tokens.length < 8) return text;
  const single = tokens.filter((t) => [...t].length === 1).length;
  if (single / tokens.length < 0.6) return text;
  return text
    .split(/\s{2,}/)
    .map((w) => w.replace(/\s/g, ''))
    .join(' ');
}

export function rot13(text: string): string {
  return text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

const PRINTABLE = /^[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\r\t]*$/u;

/** Decodes base64 spans of 16+ characters that decode to mostly printable UTF-8. */
export function decodeBase64Spans(text: string): string[] {
  const out: string[] = [];
  let budget = MAX_DECODED_CHARS;
  for (const m of text.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)) {
    if (budget <= 0) break;
    const span = m[0].slice(0, Math.ceil((budget * 4) / 3));
    const decoded = Buffer.from(span.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (decoded.length < 8 || !PRINTABLE.test(decoded) || decoded.includes('\ufffd')) continue;
    if (!/[a-z]{3,}\s/i.test(decoded)) continue;
    out.push(decoded);
    budget -= decoded.length;
  }
  return out;
}

export function decodePercent(text: string): string | undefined {
  if ((text.match(/%[0-9a-f]{2}/gi)?.length ?? 0) < 3) return undefined;
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (seq) => {
    try {
      return decodeURIComponent(seq);
    } catch {
      return seq;
    }
  });
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

export function decodeHtmlEntities(text: string): string | undefined {
  if ((text.match(/&#?[0-9a-z]+;/gi)?.length ?? 0) < 3) return undefined;
  return text.replace(
    /&#(x[0-9a-f]{1,6}|[0-9]{1,7});|&([a-z]{2,6});/gi,
    (all, num: string | undefined, name: string | undefined) => {
      if (name) return NAMED_ENTITIES[name.toLowerCase()] ?? all;
      const cp =
        num!.startsWith('x') || num!.startsWith('X') ? parseInt(num!.slice(1), 16) : parseInt(num!, 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
    },
  );
}

export type DecodingLabel = 'raw' | 'despaced' | 'base64' | 'percent' | 'html' | 'rot13' | 'tags';

export interface TextView {
  label: DecodingLabel;
  /** Normalised text with word boundaries. */
  text: string;
  /** Leetspeak skeleton of `text`. */
  skeleton: string;
  /** Skeleton with every non-alphanumeric removed. */
  compact: string;
  /** Stopwords in `text` and in `skeleton` (computed once, for primaryView). */
  stopwords?: number;
}

function view(label: DecodingLabel, raw: string): TextView {
  const text = normalizeText(raw);
  const skel = skeleton(text);
  return { label, text, skeleton: skel, compact: compact(skel) };
}

/** All views of an input: the raw normalised view first, then decodings that apply. */
export function textViews(input: string): TextView[] {
  const raw = input.slice(0, MAX_SCAN_CHARS);
  const base = view('raw', raw);
  const views = [base];
  const spaced = despace(base.text);
  if (spaced !== base.text) views.push({ ...view('despaced', spaced) });
  const percent = decodePercent(raw);
  if (percent !== undefined) views.push(view('percent', percent));
  const html = decodeHtmlEntities(raw);
  if (html !== undefined) views.push(view('html', html));
  for (const decoded of decodeBase64Spans(raw)) views.push(view('base64', decoded));
  // Stopwords of the rot13 view are counted without building it (rot13 maps words to words).
  const counts = stopwordCounts(base.text);
  base.stopwords = counts.plain;
  if (counts.rot13 > Math.max(1, counts.plain)) views.push(view('rot13', rot13(base.text)));
  return views;
}

/** The view that reads most like natural language (most stopwords), for the statistical layer. */
export function primaryView(views: readonly TextView[]): TextView {
  let best = views[0]!;
  let bestScore = best.stopwords ?? stopwordCounts(best.text).plain;
  for (const v of views.slice(1)) {
    const s = Math.max(stopwordCounts(v.text).plain, stopwordCounts(v.skeleton).plain);
    if (s > bestScore) {
      best = v;
      bestScore = s;
    }
  }
  return best;
}
