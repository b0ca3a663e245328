// Invisible and formatting characters by pinned code-point ranges. A zero-width
// joiner or non-joiner is legitimate inside an emoji sequence or between two
// letters of a joining script (Arabic/Persian, Indic); a tag character is
// legitimate inside an emoji tag sequence (subdivision flags). Anything else
// in these ranges is reported as suspicious.

export type InvisibleKind =
  'tag' | 'bidi' | 'zero_width' | 'private_use' | 'variation_selector' | 'other_format';

/** Pinned ranges, inclusive. Order matters only for readability. */
export const INVISIBLE_RANGES: readonly { kind: InvisibleKind; from: number; to: number }[] = [
  { kind: 'tag', from: 0xe0000, to: 0xe007f },
  { kind: 'bidi', from: 0x202a, to: 0x202e },
  { kind: 'bidi', from: 0x2066, to: 0x2069 },
  { kind: 'bidi', from: 0x200e, to: 0x200f },
  { kind: 'bidi', from: 0x061c, to: 0x061c },
  { kind: 'zero_width', from: 0x200b, to: 0x200d },
  { kind: 'zero_width', from: 0x2060, to: 0x2064 },
  { kind: 'zero_width', from: 0xfeff, to: 0xfeff },
  { kind: 'zero_width', from: 0x180e, to: 0x180e },
  { kind: 'other_format', from: 0x00ad, to: 0x00ad },
  { kind: 'other_format', from: 0x034f, to: 0x034f },
  { kind: 'other_format', from: 0x115f, to: 0x1160 },
  { kind: 'other_format', from: 0x3164, to: 0x3164 },
  { kind: 'private_use', from: 0xe000, to: 0xf8ff },
  { kind: 'private_use', from: 0xf0000, to: 0xffffd },
  { kind: 'private_use', from: 0x100000, to: 0x10fffd },
  { kind: 'variation_selector', from: 0xfe00, to: 0xfe0f },
  { kind: 'variation_selector', from: 0xe0100, to: 0xe01ef },
];

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

const hex = (cp: number): string => `\\u{${cp.toString(16)}}`;
/** Any character of the pinned ranges, as one regex (a fast exact pre-check). */
const ANY_INVISIBLE_SOURCE = `[${INVISIBLE_RANGES.map((r) => `${hex(r.from)}-${hex(r.to)}`).join('')}]`;
const ANY_INVISIBLE = new RegExp(ANY_INVISIBLE_SOURCE, 'u');
const ALL_INVISIBLE = new RegExp(ANY_INVISIBLE_SOURCE, 'gu');

export function invisibleKind(cp: number): InvisibleKind | undefined {
  for (const r of INVISIBLE_RANGES) if (cp >= r.from && cp <= r.to) return r.kind;
  return undefined;
}

const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}/u;
const JOINING_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Syriac}]/u;

function isPictographic(cp: number | undefined): boolean {
  return cp !== undefined && PICTOGRAPHIC.test(String.fromCodePoint(cp));
}
function isJoiningLetter(cp: number | undefined): boolean {
  return cp !== undefined && JOINING_SCRIPT.test(String.fromCodePoint(cp));
}
function isEmojiLike(cp: number | undefined): boolean {
  return isPictographic(cp) || cp === 0xfe0f || (cp !== undefined && cp >= 0x1f3fb && cp <= 0x1f3ff);
}

export interface InvisibleReport {
  /** Suspicious invisible characters (legitimate joiners excluded). */
  count: number;
  /** Legitimate joiners / selectors that were allowed. */
  legitimate: number;
  kinds: InvisibleKind[];
  /** Longest run of consecutive suspicious invisible characters. */
  longestRun: number;
  /** ASCII smuggled through tag characters (U+E0020–E007E), capped. */
  smuggled: string;
}

/** Whether a joiner or selector is legitimate between its neighbours (tag characters are judged apart). */
const LEGITIMATE_BETWEEN: ReadonlyMap<number, (prev?: number, next?: number) => boolean> = new Map([
  [
    ZWJ,
    (prev, next) =>
      (isEmojiLike(prev) && isPictographic(next)) || (isJoiningLetter(prev) && isJoiningLetter(next)),
  ],
  [ZWNJ, (prev, next) => isJoiningLetter(prev) && isJoiningLetter(next)],
  [0xfe0e, variationSelectorLegitimate],
  [0xfe0f, variationSelectorLegitimate],
]);

/** A variation selector is legitimate after a visible character. */
function variationSelectorLegitimate(prev?: number): boolean {
  return prev !== undefined && invisibleKind(prev) === undefined;
}

/** Whether the invisible character at index i of `cps` is legitimate in context. */
function legitimateAt(cps: readonly number[], i: number, inTagSequence: boolean): boolean {
  const cp = cps[i]!;
  if (cp >= 0xe0020 && cp <= CANCEL_TAG) return inTagSequence;
  const legitimateBetween = LEGITIMATE_BETWEEN.get(cp);
  return legitimateBetween ? legitimateBetween(cps[i - 1], cps[i + 1]) : false;
}

/** The ASCII character a printable tag character (U+E0020–E007E) smuggles; empty for anything else. */
function smuggledChar(kind: InvisibleKind, cp: number): string {
  return kind === 'tag' && cp >= 0xe0020 && cp <= 0xe007e ? String.fromCharCode(cp - 0xe0000) : '';
}

const MAX_SMUGGLED = 512;

/** One pass over the code points: O(n), no allocation per character beyond the array. */
export function scanInvisible(text: string): InvisibleReport {
  if (!ANY_INVISIBLE.test(text)) return { count: 0, legitimate: 0, kinds: [], longestRun: 0, smuggled: '' };
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  const kinds = new Set<InvisibleKind>();
  let count = 0;
  let legitimate = 0;
  let run = 0;
  let longestRun = 0;
  let smuggled = '';
  let inTagSequence = false;
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!;
    if (cp === BLACK_FLAG) inTagSequence = true;
    const kind = invisibleKind(cp);
    if (kind === undefined) {
      if (cp !== BLACK_FLAG) inTagSequence = false;
      run = 0;
      continue;
    }
    if (legitimateAt(cps, i, inTagSequence)) {
      legitimate++;
      if (cp === CANCEL_TAG) inTagSequence = false;
      run = 0;
      continue;
    }
    count++;
    kinds.add(kind);
    run++;
    longestRun = Math.max(longestRun, run);
    if (smuggled.length < MAX_SMUGGLED) smuggled += smuggledChar(kind, cp);
  }
  return { count, legitimate, kinds: [...kinds].sort(), longestRun, smuggled };
}

/** Removes every character in the pinned ranges (used to build matching views). */
export function stripInvisible(text: string): string {
  return text.replace(ALL_INVISIBLE, '');
}
