// Tokens with their sentence, clause and quotation structure, and the frames
// that decide whether a hostile word is the writer's own assertion or
// someone else's words being reported, challenged or condemned:
//   - negation scope (ends at a clause break, a comma, or a complement clause);
//   - reported speech: the complement of a verb of saying or believing, or of
//     a noun naming a statement ("comments like ..."), and quotations;
//   - who reports it: the unnegated writer ("I think ...") asserts it, while a
//     negated verb ("can't seriously believe"), a question put to someone
//     ("do you really think ...?") or a second person ("you said ...") rejects
//     it; a rhetorical negative question ("don't you think ...?") asserts it.
// Every pass is linear in the number of tokens.
import {
  ADVERBS,
  FIRST_PERSON,
  NEGATORS,
  OTHER_SUBJECT,
  RHETORICAL_OPENERS,
  SAY_VERBS,
  SCOPE_BREAK,
  SECOND_PERSON,
  SPEECH_NOUNS,
} from './cues.ts';

export interface TokenStream {
  tokens: string[];
  /** Inside a quotation of two or more words (single-word quotes are scare quotes). */
  quoted: boolean[];
  /** Sentence index of each token. */
  sentence: number[];
  /** First token index of each sentence. */
  sentenceStart: number[];
  /** Whether each sentence ends with a question mark. */
  question: boolean[];
  /** A comma, colon or dash follows the token. */
  comma: boolean[];
}

const TOKEN_RE = /[\p{L}\p{N}'@$-]+|["“”«»„]|[.!?;]+|[,:—–]/gu;
const OPENING = new Set(['“', '«', '„']);
const CLOSING = new Set(['”', '»']);

/** Curly apostrophes inside words become straight; paired single quotes become double ones. */
function foldQuotes(text: string): string {
  return text
    .replace(/(?<=\p{L})[’‘`](?=\p{L})/gu, "'")
    .replace(/‘([^’\n]{3,300}?)’/g, '"$1"')
    .replace(/(^|[\s(])'([^'\n]{3,300}?)'(?=[\s.,!?;:)]|$)/g, '$1"$2"');
}

export function tokenize(text: string, max: number): TokenStream {
  const s: TokenStream = { tokens: [], quoted: [], sentence: [], sentenceStart: [0], question: [false], comma: [] };
  let inQuote = false;
  let quoteStart = 0;
  const closeQuote = (): void => {
    // One-word quotations are emphasis or scare quotes, not reported speech.
    if (s.tokens.length - quoteStart < 2) for (let i = quoteStart; i < s.tokens.length; i++) s.quoted[i] = false;
    inQuote = false;
  };
  for (const m of foldQuotes(text).matchAll(TOKEN_RE)) {
    const t = m[0];
    const n = s.tokens.length;
    if (OPENING.has(t) || CLOSING.has(t) || t === '"') {
      if (inQuote && !OPENING.has(t)) closeQuote();
      else if (!CLOSING.has(t)) [inQuote, quoteStart] = [true, n];
    } else if (/^[.!?;]/.test(t)) {
      // Punctuation inside a quotation belongs to the quoted words, not to the sentence.
      if (inQuote || n === 0 || s.sentenceStart[s.sentenceStart.length - 1] === n) continue;
      s.question[s.question.length - 1] = t.includes('?');
      s.sentenceStart.push(n);
      s.question.push(false);
    } else if (/^[,:—–]$/.test(t)) {
      if (n > 0) s.comma[n - 1] = true;
    } else {
      const word = t.replace(/^['-]+|['-]+$/g, '');
      if (!word) continue;
      s.tokens.push(word);
      s.quoted.push(inQuote);
      s.sentence.push(s.sentenceStart.length - 1);
      s.comma.push(false);
      if (s.tokens.length >= max) break;
    }
  }
  if (inQuote) for (let i = quoteStart; i < s.tokens.length; i++) s.quoted[i] = false;
  return s;
}

/**
 * Whether a negator governs the token at `index`: within four content words
 * (adverbs such as "really" do not count), in the same sentence, not across a
 * clause break, a comma, or a complement clause ("not obvious that I hate").
 */
export function negatedAt(s: TokenStream, index: number): boolean {
  const from = s.sentenceStart[s.sentence[index] ?? 0] ?? 0;
  let seen = 0;
  for (let j = index - 1; j >= from && seen < 4; j--) {
    const p = s.tokens[j]!;
    if (SCOPE_BREAK.has(p) || s.comma[j]) return false;
    if (NEGATORS.has(p) || p.endsWith("n't")) return true;
    if ((p === 'that' || p === 'whether') && j < index - 1) return false;
    if (!ADVERBS.has(p)) seen++;
  }
  return false;
}

/** How a token's clause is framed: 0 plain, 1 asserted by the writer, 2 reported, 3 reported and rejected. */
export type FrameStatus = 0 | 1 | 2 | 3;

const MODALS = new Set([
  'can',
  'could',
  'would',
  'will',
  'should',
  'must',
  'might',
  'may',
  'do',
  'does',
  'did',
  'to',
  'for',
  'when',
  'by',
  'keep',
  'kept',
  'still',
  'ever',
  'go',
  'going',
  'just',
  'always',
]);
const COMPLEMENT_BREAK = new Set(['but', 'because', 'which', 'then', 'so', 'while', 'yet', 'although', 'though']);

/** The subject of a verb of saying at `v`: the nearest pronoun before it in the sentence. */
function subjectOf(s: TokenStream, v: number, from: number): 'first' | 'second' | 'other' | 'generic' {
  for (let j = v - 1; j >= Math.max(from, v - 5); j--) {
    const p = s.tokens[j]!;
    if (FIRST_PERSON.has(p)) return 'first';
    if (SECOND_PERSON.has(p)) return 'second';
    if (OTHER_SUBJECT.has(p)) return 'other';
    if (!MODALS.has(p) && !ADVERBS.has(p) && !NEGATORS.has(p) && !p.endsWith("n't")) return 'other';
  }
  // "Saying that ...", "for calling ...": a gerund names the act, nobody asserts it.
  return 'generic';
}

/** A question opened by a negated auxiliary ("Don't you think ...?", "Isn't it true ...?") asserts. */
function rhetorical(s: TokenStream, sentenceIndex: number): boolean {
  const start = s.sentenceStart[sentenceIndex]!;
  const [a, b, c] = [s.tokens[start], s.tokens[start + 1], s.tokens[start + 2]];
  return RHETORICAL_OPENERS.has(a ?? '') || ((a === 'is' || a === 'are') && (b === 'not' || c === 'not'));
}

/** Status of the clause a verb or noun of saying at `v` introduces. */
function triggerStatus(s: TokenStream, v: number): FrameStatus {
  const sentenceIndex = s.sentence[v]!;
  const from = s.sentenceStart[sentenceIndex]!;
  const subject = SPEECH_NOUNS.has(s.tokens[v]!) ? 'generic' : subjectOf(s, v, from);
  const question = s.question[sentenceIndex]!;
  if (question && rhetorical(s, sentenceIndex)) return 1;
  if (negatedAt(s, v) || question) return subject === 'first' && !negatedAt(s, v) ? 1 : 3;
  if (subject === 'first') return 1;
  return subject === 'second' ? 3 : 2;
}

/** A noun names a statement when a quotation or "like/that/such as" follows ("comments like ..."). */
function speechNounAt(s: TokenStream, i: number): boolean {
  const next = s.tokens[i + 1];
  return (
    SPEECH_NOUNS.has(s.tokens[i]!) &&
    (next === 'like' || next === 'that' || next === 'such' || next === 'about' || s.quoted[i + 1] === true)
  );
}

/**
 * Per-token frame status, one left-to-right pass: a trigger frames the rest of
 * its clause; a nested trigger inherits a rejecting or reporting outer frame
 * ("I can't believe you said ..."). Quotations outside any frame are reported.
 */
export function frameStatus(s: TokenStream): FrameStatus[] {
  const out: FrameStatus[] = new Array<FrameStatus>(s.tokens.length).fill(0);
  let current: FrameStatus = 0;
  let sentence = -1;
  for (let i = 0; i < s.tokens.length; i++) {
    const t = s.tokens[i]!;
    if (s.sentence[i] !== sentence) [current, sentence] = [0, s.sentence[i]!];
    if (COMPLEMENT_BREAK.has(t) || (i > 0 && s.comma[i - 1] && !s.quoted[i])) current = 0;
    if (SAY_VERBS.has(t) || speechNounAt(s, i)) {
      const own = triggerStatus(s, i);
      current = current >= 2 ? (Math.max(current, own === 1 ? 2 : own) as FrameStatus) : own;
      continue;
    }
    out[i] = s.quoted[i] && current === 0 ? 2 : current;
  }
  return out;
}
