// Where quoted material and sentence segments sit in a text, computed once
// per request in linear time. A quoted attack phrase is how people discuss
// attacks, so the structural slots report whether each hit is quoted; the
// pattern layer's `isQuoted` looks 120 characters around a hit and stops at a
// full stop, which misses quoted passages of several sentences, code spans,
// fenced blocks and markdown block quotes. JSON string values are syntax, not
// quotation: a tool result's `"note": "…"` is delivered to the model as is,
// so straight double quotes do not count when the text looks like JSON.

/** Longest span between an opening and a closing mark treated as one quotation. */
const MAX_QUOTE = 600;

/** Opening mark → closing mark. Straight quotes close themselves. */
const PAIRS: Record<string, string> = {
  '"': '"',
  '“': '”',
  '„': '“',
  '«': '»',
  '‹': '›',
  '「': '」',
  '『': '』',
  '‘': '’',
  '`': '`',
  "'": "'",
};

const LETTER = /[\p{L}\p{N}]/u;
const JSON_FIELD = /[{,]\s*"[\w-]{1,30}"\s*:/u;

/** For each index, the next index ≥ it holding `mark` (or -1); one backward pass per mark. */
function nextIndex(text: string, mark: string, valid: (i: number) => boolean): Int32Array {
  const next = new Int32Array(text.length + 1).fill(-1);
  for (let i = text.length - 1; i >= 0; i--) next[i] = text[i] === mark && valid(i) ? i : next[i + 1]!;
  return next;
}

/** A straight single quote opens or closes a quotation only off a word ("don't" is not a quote). */
function apostropheBoundary(text: string, i: number, opening: boolean): boolean {
  const neighbour = opening ? text[i - 1] : text[i + 1];
  return neighbour === undefined || !LETTER.test(neighbour);
}

function markLines(text: string, mask: Uint8Array): void {
  let fenced = false;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trimStart();
    const fence = line.startsWith('```') || line.startsWith('~~~');
    if (fenced || fence || line.startsWith('>')) mask.fill(1, start, end);
    if (fence) fenced = !fenced;
    start = end + 1;
  }
}

/** 1 for every character inside a quotation, a code span, a fenced block or a block quote. */
export function quotedMask(text: string): Uint8Array {
  const mask = new Uint8Array(text.length);
  const json = JSON_FIELD.test(text);
  const closers = new Map<string, Int32Array>();
  const closerOf = (close: string): Int32Array => {
    let next = closers.get(close);
    if (!next) {
      const valid = close === "'" ? (i: number): boolean => apostropheBoundary(text, i, false) : () => true;
      next = nextIndex(text, close, valid);
      closers.set(close, next);
    }
    return next;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const close = PAIRS[c];
    if (close === undefined || (json && c === '"')) continue;
    if (c === "'" && !apostropheBoundary(text, i, true)) continue;
    const j = closerOf(close)[i + 1] ?? -1;
    if (j < 0 || j - i > MAX_QUOTE) continue;
    mask.fill(1, i, j + 1);
    i = j;
  }
  markLines(text, mask);
  return mask;
}

/** Whether any character of [start, end) lies outside quotation. */
export function hasOpenChar(mask: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end && i < mask.length; i++) if (mask[i] === 0) return true;
  return false;
}

const BOUNDARY = /[.!?;]\s|[。！？；\n]/gu;

/** Start offsets of sentence-like segments (a full stop before a space, a newline, CJK stops). */
export function segmentStarts(text: string): number[] {
  const starts = [0];
  BOUNDARY.lastIndex = 0;
  for (let m = BOUNDARY.exec(text); m; m = BOUNDARY.exec(text)) starts.push(m.index + m[0].length);
  return starts;
}

/** Index of the segment holding offset `at` (binary search over `segmentStarts`). */
export function segmentOf(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
