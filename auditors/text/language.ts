// Small offline language identification: the script of the letters first,
// then stopword votes among Latin-script languages. Good enough to pick a
// lexicon; not a general-purpose detector.

const STOPWORDS: Record<string, readonly string[]> = {
  en: [
    'the',
    'and',
    'to',
    'of',
    'a',
    'is',
    'in',
    'that',
    'you',
    'your',
    'for',
    'it',
    'this',
    'with',
    'are',
    'all',
    'be',
    'me',
    'my',
    'when',
    'not',
    'they',
    'i',
    'we',
    'as',
    'an',
    'on',
    'at',
    'by',
  ],
  fr: [
    'le',
    'la',
    'les',
    'et',
    'de',
    'des',
    'du',
    'un',
    'une',
    'que',
    'qui',
    'vous',
    'est',
    'pour',
    'pas',
    'cette',
    'cet',
    'votre',
    'en',
    'dans',
    'sur',
    'au',
    'ne',
    'je',
    'il',
    'nous',
    'etes',
    'toutes',
    'tous',
  ],
  es: [
    'el',
    'la',
    'los',
    'las',
    'y',
    'de',
    'que',
    'en',
    'un',
    'una',
    'es',
    'por',
    'para',
    'con',
    'no',
    'su',
    'al',
    'lo',
    'como',
    'todas',
    'todos',
    'tu',
    'yo',
  ],
  de: [
    'der',
    'die',
    'das',
    'und',
    'ist',
    'nicht',
    'ein',
    'eine',
    'zu',
    'den',
    'mit',
    'von',
    'sie',
    'ich',
    'du',
    'auf',
    'fur',
    'dem',
    'alle',
    'wir',
  ],
  it: [
    'il',
    'di',
    'che',
    'e',
    'la',
    'per',
    'un',
    'una',
    'non',
    'sono',
    'del',
    'della',
    'le',
    'gli',
    'tutte',
    'tutti',
  ],
  pt: [
    'o',
    'os',
    'as',
    'e',
    'de',
    'que',
    'um',
    'uma',
    'do',
    'da',
    'em',
    'para',
    'com',
    'nao',
    'voce',
    'todas',
    'todos',
  ],
  nl: ['de', 'het', 'een', 'en', 'van', 'is', 'niet', 'dat', 'ik', 'je', 'jij', 'alle', 'met', 'voor'],
};

const STOP_SETS = Object.fromEntries(Object.entries(STOPWORDS).map(([k, v]) => [k, new Set(v)])) as Record<
  string,
  Set<string>
>;
const ALL_STOPWORDS = new Set(Object.values(STOPWORDS).flat());

const SCRIPTS: readonly [string, RegExp][] = [
  ['ar', /\p{Script=Arabic}/u],
  ['ru', /\p{Script=Cyrillic}/u],
  ['zh', /\p{Script=Han}/u],
  ['ja', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['ko', /\p{Script=Hangul}/u],
  ['hi', /\p{Script=Devanagari}/u],
  ['el', /\p{Script=Greek}/u],
  ['he', /\p{Script=Hebrew}/u],
  ['th', /\p{Script=Thai}/u],
];

const MAX_WORDS = 4000;

function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}']+/gu) ?? []).slice(0, MAX_WORDS);
}

/** Number of words that are stopwords in any supported Latin-script language. */
export function stopwordCount(text: string): number {
  return stopwordCounts(text).plain;
}

function rot13Word(w: string): string {
  return w.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 13) % 26) + 97));
}
/** Stopwords as they read after rot13: a word counts when its rot13 is a stopword. */
const ROT13_STOPWORDS = new Set([...ALL_STOPWORDS].map(rot13Word));

/**
 * Stopwords in `text` (lower case) and in its rot13, in one pass. rot13 maps
 * ASCII letters to letters and leaves the rest, so word boundaries are the same.
 */
export function stopwordCounts(text: string): { plain: number; rot13: number } {
  let plain = 0;
  let rot13 = 0;
  for (const w of words(text)) {
    if (ALL_STOPWORDS.has(w)) plain++;
    if (ROT13_STOPWORDS.has(w)) rot13++;
  }
  return { plain, rot13 };
}

const NON_ASCII = /[\u0080-\uffff]/;

const isAsciiLetter = (code: number): boolean => (code | 0x20) >= 97 && (code | 0x20) <= 122;

/** The first non-Latin script the letter belongs to. */
const scriptOf = (ch: string): string | undefined => SCRIPTS.find(([, re]) => re.test(ch))?.[0];

function dominantScript(text: string): string | undefined {
  const sample = text.slice(0, 2000);
  // Only non-Latin scripts are returned, and every ASCII letter is Latin.
  if (!NON_ASCII.test(sample)) return undefined;
  const counts = new Map<string, number>();
  let letters = 0;
  for (const ch of sample) {
    const code = ch.charCodeAt(0);
    if (code < 0x80) {
      if (isAsciiLetter(code)) letters++;
      continue;
    }
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    const lang = scriptOf(ch);
    if (lang) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  for (const [lang, n] of counts) if (n > letters / 2) return lang;
  return undefined;
}

/**
 * The most likely language and whether anything supports it: a dominant
 * non-Latin script or at least one stopword. Latin-script text with no
 * stopword of a known language (Indonesian, Polish, code, base64) is `en`
 * without evidence.
 */
export function languageWithEvidence(text: string): { language: string; evidence: boolean } {
  const script = dominantScript(text);
  if (script) return { language: script, evidence: true };
  const ws = words(NON_ASCII.test(text) ? text.normalize('NFD').replace(/\p{Mn}+/gu, '') : text);
  let best = 'und';
  let bestVotes = 0;
  for (const [lang, set] of Object.entries(STOP_SETS)) {
    let votes = 0;
    for (const w of ws) if (set.has(w)) votes++;
    if (votes > bestVotes) {
      best = lang;
      bestVotes = votes;
    }
  }
  if (bestVotes >= 1) return { language: best, evidence: true };
  return { language: ws.length > 0 ? 'en' : 'und', evidence: false };
}

/** ISO 639-1 code of the most likely language, or `und` when unsure. */
export function detectLanguage(text: string): string {
  return languageWithEvidence(text).language;
}

/** Text without a stopword or script to go by and fewer letters than this is judged as it is ("idiot!"). */
const MIN_LETTERS_FOR_LANGUAGE = 12;

/** Language of the text, and whether the detectors were built for it. */
export function languageCoverage(
  text: string,
  covered: ReadonlySet<string>,
): { language: string; covered: boolean } {
  const { language, evidence } = languageWithEvidence(text);
  const short = (text.match(/\p{L}/gu) ?? []).length < MIN_LETTERS_FOR_LANGUAGE;
  return { language, covered: evidence ? covered.has(language) : short };
}

/**
 * A detector's answer on text in a language it does not cover: a score below
 * 0.5 is pulled halfway to 0.5, so the claim says "unsure" rather than a
 * confident "clean"; a score above 0.5 came from evidence found (a lexicon or
 * rule hit) and stays.
 */
export function uncoveredScore(score: number): number {
  return score < 0.5 ? 0.5 - (0.5 - score) / 2 : score;
}
