// Lexical analysis for the toxicity auditor: normalise, undo spelling
// tricks (letter spacing, leetspeak, dropped/swapped letters, missing
// spaces), look words up in the graded lexicons, and note the context that
// changes their meaning (negation, quotation and counter-speech, reclaimed
// in-group use, harmless homonyms, who is targeted).
import { normalizeText } from '../text/normalize.ts';
import { FUZZY_TARGETS, LEXICON, MULTILINGUAL_LEXICON, type LexCategory, type LexEntry } from './lexicon.ts';

export const MAX_TOKENS = 2000;

export interface LexHit extends LexEntry {
  word: string;
  index: number;
  /**
   * A negator occurs within the four preceding tokens, or the hit follows a
   * denial ("never said that ..."), or it is a threat word describing what
   * happens to victims ("are getting murdered") rather than a call to act.
   */
  negated: boolean;
}

export interface ToxicityAnalysis {
  tokens: string[];
  /** Tokens with lexicon words replaced by their category (`<slur>`, `<id>`, ...). */
  canonical: string[];
  hits: LexHit[];
  quoted: boolean;
  counterSpeech: boolean;
  reclaimedContext: boolean;
  homonymContext: boolean;
  secondPerson: boolean;
  thirdPersonIndividual: boolean;
  /** Count of plainly positive words (admire, wonderful, respect, ...). */
  positive: number;
  /** Positive words under negation ("no compassion", "not human", "do not matter"). */
  negatedPositive: number;
  /** The text denies saying or believing something ("I never said that ..."). */
  denial: boolean;
}

const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};
const DENIAL_VERBS = new Set(['said', 'say', 'says', 'claimed', 'claim', 'think', 'thought', 'believe', 'believed', 'meant', 'mean']);
/** Auxiliaries before a past participle that describe victims, not intent ("are being killed"). */
const VICTIM_AUX = new Set(['getting', 'being', 'got', 'get', 'gets', 'were', 'was']);
const RECLAIM_CUES =
  /\b(my|myself|being an?|i'?m (the|a|an)|me and my|like me|we|us|our|i'?m an?|proud|as an?|fellow|love (you|my)|happy birthday|bestie|sis|queen)\b/;
const HOMONYM_CUES =
  /\b(ate|eat|eaten|smoke|smoking|cigarettes?|dinner|cooked|cooking|delicious|tasty|oven|canines?|meatballs?|pan-fried|butcher|recipe|sticks|firewood|bundle|garden|gardening|shed|tools?|soil|weeds?|notion|strange|odd|peculiar|feeling|dogs?|puppies|breeder|embankment|dam|river)\b/;

/** "t h r e a t" → "threat": runs of three or more single letters are joined. */
export function joinSpacedLetters(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}])(?:[\p{L}\p{N}@$] ){2,}[\p{L}\p{N}@$](?![\p{L}\p{N}])/gu, (run) =>
    run.replace(/ /g, ''),
  );
}

function deleteVariants(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Every one-letter deletion of a lexicon word → the lexicon word ("disabld" → "disabled"). */
const DELETION_INDEX: ReadonlyMap<string, string> = (() => {
  const index = new Map<string, string>();
  for (const w of FUZZY_TARGETS)
    for (const d of deleteVariants(w)) if (!index.has(d) && !LEXICON.has(d)) index.set(d, w);
  return index;
})();

function exactFuzzyTarget(word: string): boolean {
  return LEXICON.has(word) && word.length >= 4;
}

/** One dropped letter, two swapped neighbours, or (long words) one extra letter; no substitutions. */
function fuzzyLookup(word: string): string | undefined {
  if (word.length < 4 || word.length > 24) return undefined;
  const dropped = DELETION_INDEX.get(word);
  if (dropped) return dropped;
  for (let i = 0; i + 1 < word.length; i++) {
    const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    if (swapped !== word && exactFuzzyTarget(swapped) && swapped.length >= 5) return swapped;
  }
  if (word.length >= 7) return deleteVariants(word).find((d) => exactFuzzyTarget(d) && d.length >= 6);
  return undefined;
}

/** "sosickening" → "sickening", "manysluts" → "sluts": a lexicon word of 4+ letters at either end. */
function compoundLookup(word: string): string | undefined {
  if (word.length < 7 || word.length > 30) return undefined;
  for (let i = 2; i <= word.length - 4; i++) {
    const tail = word.slice(i);
    if (LEXICON.get(tail)?.category && LEXICON.get(tail)!.category !== 'identity') return tail;
  }
  for (let i = word.length - 2; i >= 4; i--) {
    const head = word.slice(0, i);
    if (LEXICON.get(head) && LEXICON.get(head)!.category !== 'identity') return head;
  }
  return undefined;
}

/** Resolves a token to a lexicon word: exact, leetspeak, multilingual, fuzzy, compound. */
export function resolveWord(
  token: string,
  multilingual: boolean,
): { word: string; entry: LexEntry } | undefined {
  const candidates = [token];
  if (/[0-9@$]/.test(token) && /\p{L}/u.test(token))
    candidates.push([...token].map((c) => LEET[c] ?? c).join(''));
  for (const c of candidates) {
    const entry = LEXICON.get(c) ?? (multilingual ? MULTILINGUAL_LEXICON.get(c) : undefined);
    if (entry) return { word: c, entry };
  }
  const last = candidates[candidates.length - 1]!;
  const fuzzy = fuzzyLookup(last) ?? compoundLookup(last);
  return fuzzy ? { word: fuzzy, entry: LEXICON.get(fuzzy)! } : undefined;
}

type Resolved = { word: string; entry: LexEntry } | undefined;
/** Lookups repeat across requests (the same words recur); the cache is bounded by clearing it. */
const RESOLVE_CACHE = new Map<string, Resolved | null>();
const RESOLVE_CACHE_LIMIT = 50_000;

function cachedResolve(token: string, multilingual: boolean): Resolved {
  const key = `${multilingual ? 'm' : 'e'}${token}`;
  const cached = RESOLVE_CACHE.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const found = resolveWord(token, multilingual);
  if (RESOLVE_CACHE.size >= RESOLVE_CACHE_LIMIT) RESOLVE_CACHE.clear();
  RESOLVE_CACHE.set(key, found ?? null);
  return found;
}

const PLACEHOLDER: Record<LexCategory, string> = {
  slur: '<slur>',
  dehumanizing: '<dehum>',
  insult: '<insult>',
  negative_emotion: '<emo>',
  threat: '<threat>',
  profanity: '<prof>',
  identity: '<id>',
};

/** Idioms whose negation expresses hostility rather than denying it. */
function rewriteIdioms(text: string): string {
  return text
    .replace(
      /\b(can'?t|cannot|can not) (stand|bear|tolerate) (?!(posts|comments|people saying|it when))/g,
      'loathe ',
    )
    .replace(/\bnothing (but|except) /g, 'only ')
    .replace(/\b(there is |there's )?(really )?nothing (worse|more disgusting|lower) than\b/g, 'loathe')
    .replace(/\bput an end to\b/g, 'eliminate')
    .replace(/\b(not|n't) worth (any )?less\b/g, ' equally worth');
}

/** Whether a negator governs the token at `index` (within four tokens, not across a clause break). */
function negatedAt(tokens: readonly string[], index: number): boolean {
  for (let j = index - 1; j >= Math.max(0, index - 4); j--) {
    const p = tokens[j]!;
    if (SCOPE_BREAK.has(p)) return false;
    if (NEGATORS.has(p) || p.endsWith("n't")) return true;
  }
  return false;
}

/** A threat word preceded by a victim auxiliary ("are getting murdered"), with no modal call to act. */
function victimUse(tokens: readonly string[], index: number, entry: LexEntry): boolean {
  if (entry.category !== 'threat') return false;
  const prev = tokens[index - 1] ?? '';
  const before = tokens.slice(Math.max(0, index - 4), index);
  if (before.some((t) => /^(should|must|will|deserve|deserves|ought|gonna|let's|lets)$/.test(t)))
    return false;
  return VICTIM_AUX.has(prev);
}

export function analyseToxicity(input: string, multilingual = true): ToxicityAnalysis {
  const text = rewriteIdioms(joinSpacedLetters(normalizeText(input)));
  const tokens = (text.match(/[\p{L}\p{N}'@$-]+/gu) ?? [])
    .slice(0, MAX_TOKENS)
    .map((t) => t.replace(/^['-]+|['-]+$/g, ''));
  const hits: LexHit[] = [];
  const denialMatch = DENIAL.exec(text);
  const denialFrom = denialMatch
    ? (text.slice(0, denialMatch.index).match(/[\p{L}\p{N}'@$-]+/gu) ?? []).length
    : -1;
  const canonical = tokens.map((t, index) => {
    const found = cachedResolve(t, multilingual);
    if (!found) return t;
    const negated =
      negatedAt(tokens, index) ||
      (denialFrom >= 0 && index > denialFrom) ||
      victimUse(tokens, index, found.entry);
    hits.push({ ...found.entry, word: found.word, index, negated });
    return PLACEHOLDER[found.entry.category];
  });
  return {
    tokens,
    canonical,
    hits,
    quoted: /["“”«»]|(^|\s)'[^']{3,}'/u.test(input),
    counterSpeech: COUNTER_CUES.test(text),
    reclaimedContext: RECLAIM_CUES.test(text),
    homonymContext: HOMONYM_CUES.test(text),
    secondPerson: tokens.some((t) => SECOND_PERSON.has(t)),
    thirdPersonIndividual: tokens.some((t) => THIRD_INDIVIDUAL.has(t)),
    positive: tokens.filter((t) => POSITIVE.has(t)).length,
    negatedPositive: tokens.filter((t, i) => POSITIVE.has(t) && negatedAt(tokens, i)).length,
    denial: denialFrom >= 0,
  };
}
