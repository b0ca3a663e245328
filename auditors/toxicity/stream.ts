// The token stream of the toxicity auditor: word tokens with their sentence,
// whether the sentence is a question, the comma/colon/dash after each token,
// and whether the token sits inside a quotation. One regex pass, capped at
// `max` tokens.

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
    .replace(/‘([^’\n]{3,160}?)’/g, '"$1"')
    .replace(/(^|[\s(])'([^'\n]{3,160}?)'(?=[\s.,!?;:)]|$)/g, '$1"$2"');
}

/** Builds a TokenStream one regex match at a time. */
function streamBuilder(): { s: TokenStream; take: (t: string) => void; finish: () => TokenStream } {
  const s: TokenStream = {
    tokens: [],
    quoted: [],
    sentence: [],
    sentenceStart: [0],
    question: [false],
    comma: [],
  };
  let inQuote = false;
  let quoteStart = 0;
  const unquoteFrom = (start: number): void => {
    for (let i = start; i < s.tokens.length; i++) s.quoted[i] = false;
  };
  const quoteMark = (t: string): void => {
    if (inQuote && !OPENING.has(t)) {
      // One-word quotations are emphasis or scare quotes, not reported speech.
      if (s.tokens.length - quoteStart < 2) unquoteFrom(quoteStart);
      inQuote = false;
    } else if (!CLOSING.has(t)) [inQuote, quoteStart] = [true, s.tokens.length];
  };
  const sentenceEnd = (t: string): void => {
    const n = s.tokens.length;
    // Punctuation inside a quotation belongs to the quoted words, not to the sentence.
    if (inQuote || n === 0 || s.sentenceStart[s.sentenceStart.length - 1] === n) return;
    s.question[s.question.length - 1] = t.includes('?');
    s.sentenceStart.push(n);
    s.question.push(false);
  };
  const word = (t: string): void => {
    const w = t.replace(/^['-]+|['-]+$/g, '');
    if (!w) return;
    s.tokens.push(w);
    s.quoted.push(inQuote);
    s.sentence.push(s.sentenceStart.length - 1);
    s.comma.push(false);
  };
  const take = (t: string): void => {
    if (OPENING.has(t) || CLOSING.has(t) || t === '"') quoteMark(t);
    else if (/^[.!?;]/.test(t)) sentenceEnd(t);
    else if (/^[,:—–]$/.test(t)) {
      if (s.tokens.length > 0) s.comma[s.tokens.length - 1] = true;
    } else word(t);
  };
  const finish = (): TokenStream => {
    if (inQuote) unquoteFrom(quoteStart);
    return s;
  };
  return { s, take, finish };
}

export function tokenize(text: string, max: number): TokenStream {
  const b = streamBuilder();
  for (const m of foldQuotes(text).matchAll(TOKEN_RE)) {
    b.take(m[0]);
    if (b.s.tokens.length >= max) break;
  }
  return b.finish();
}
