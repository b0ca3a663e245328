// Lexical analysis for the toxicity auditor: normalise, undo spelling
// tricks (letter spacing, leetspeak, dropped/swapped letters, missing
// spaces), look words up in the graded lexicons, and note the context that
// changes their meaning: negation (negation.ts), reported speech and
// counter-speech (frames.ts, counter.ts), the writer's own emotion and intent
// (writer.ts), reclaimed in-group use, harmless homonyms, who is targeted.
import { normalizeText, WORD_LEET } from '../text/normalize.ts';
import { ADVERBS, CONDEMN, NEGATORS, POSITIVE, SECOND_PERSON, THIRD_INDIVIDUAL } from './cues.ts';
import { counterContext, type CounterContext } from './counter.ts';
import { writerAttitude, type WriterAttitude } from './writer.ts';
import { frameStatus } from './frames.ts';
import { implicitHate, type ImplicitHate } from './implicit.ts';
import { insinuation } from './insinuation.ts';
import { negatedAt } from './negation.ts';
import { tokenize, type TokenStream } from './stream.ts';
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
  /** A quotation of two or more words. */
  quoted: boolean;
  /** Counter-speech (see counter.ts): reported hostility met by rejection or condemnation. */
  counterSpeech: boolean;
  /** Reported speech, rejection, condemnation, endorsement, writer's own assertion. */
  frames: CounterContext;
  /** Hostile emotion and threatening intent the writer states as their own. */
  writer: WriterAttitude;
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
  /** Exclusion, loaded questions, harm wishes and victim frames around a group (implicit.ts). */
  implicit: ImplicitHate;
  /** Insinuation markers per kind in the writer's own words (insinuation.ts). */
  insinuation: Record<string, number>;
}

const DENIAL_VERBS = new Set([
  'said',
  'say',
  'says',
  'claimed',
  'claim',
  'think',
  'thought',
  'believe',
  'believed',
  'meant',
  'mean',
]);
/** Auxiliaries before a past participle that describe victims, not intent ("are being killed"). */
const VICTIM_AUX = new Set([
  'getting',
  'being',
  'got',
  'get',
  'gets',
  'were',
  'was',
  'are',
  'is',
  'been',
  'be',
]);
/**
 * The writer counts themselves in the group ("me and my <id> friends", "as a
 * <id>", "us <id>"): rhetoric about it is then in-group talk, not insinuation
 * (round 4: "me and my queer friends are taking over karaoke").
 */
const IN_GROUP =
  /(?:^| )(?:me and my|my fellow|us|we|as an?|i'?m an?|i am an?|im an?|proud) (?:\S+ )?<id>(?: |$)/;
function inGroupSpeaker(canonical: readonly string[]): boolean {
  return canonical.includes('<id>') && IN_GROUP.test(canonical.slice(0, 2000).join(' '));
}
const RECLAIM_CUES =
  /\b(my|myself|being an?|i'?m (the|a|an)|me and my|like me|we|us|our|i'?m an?|proud|as an?|fellow|love (you|my)|happy birthday|bestie|sis|queen)\b/;
const HOMONYM_CUES =
  /\b(ate|eat|eaten|smoke|smoking|cigarettes?|dinner|cooked|cooking|delicious|tasty|oven|canines?|meatballs?|pan-fried|butcher|recipe|sticks|firewood|bundle|garden|gardening|shed|tools?|soil|weeds?|notion|strange|odd|peculiar|feeling|dogs?|puppies|breeder|embankment|dam|river|ignition|engine|spark|timing|retardants?|flame|fireproof|peas|gravy|kennel|litter|whelp(ed|ing)?|breeding|moths?|caterpillars?|weeding|vegetables?|allotment|rake|spade|lighter|ashtray|coffee|tea|fag break|pack of|packet of|throat|smoked|cheese|toastie|sandwich|bins?|raccoons?|rummaging|fields?|flooded|flood|rain|levee|dutch|armou?r|light|glasses|cleaning|cleaned|kitchen|spray|cat|cats|kitten|radiator)\b/;

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

const FUZZY_SET: ReadonlySet<string> = new Set(FUZZY_TARGETS);

function exactFuzzyTarget(word: string): boolean {
  return FUZZY_SET.has(word);
}

/**
 * Four-letter words are swapped back only past the first letter and only to
 * strong hostile terms ("klil" → "kill", "htae" → "hate"): weak ones collide
 * with ordinary words ("carp" / "crap", "beta" / "beat").
 */
function shortSwapTarget(word: string, i: number): boolean {
  const e = LEXICON.get(word);
  return (
    i >= 1 && e !== undefined && e.severity >= 0.8 && e.category !== 'profanity' && e.category !== 'insult'
  );
}

/** One dropped letter, two swapped neighbours, or (long words) one extra letter; no substitutions. */
function fuzzyLookup(word: string): string | undefined {
  if (word.length < 4 || word.length > 24) return undefined;
  const dropped = DELETION_INDEX.get(word);
  if (dropped) return dropped;
  for (let i = 0; i + 1 < word.length; i++) {
    const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    if (swapped === word || !exactFuzzyTarget(swapped)) continue;
    if (swapped.length >= 5 || shortSwapTarget(swapped, i)) return swapped;
  }
  if (word.length >= 7) return deleteVariants(word).find((d) => exactFuzzyTarget(d) && d.length >= 6);
  return undefined;
}

/**
 * "sosickening" → "sickening", "manysluts" → "sluts": a lexicon word of 4+
 * letters at either end. Weak entries and the newer exact-only ones are left
 * out: ordinary words end in them ("understand", "nutshell", "therapists").
 */
function compoundPart(part: string): boolean {
  const e = LEXICON.get(part);
  return e !== undefined && e.category !== 'identity' && e.severity >= 0.5 && FUZZY_SET.has(part);
}

function compoundLookup(word: string): string | undefined {
  if (word.length < 7 || word.length > 30) return undefined;
  for (let i = 2; i <= word.length - 4; i++) if (compoundPart(word.slice(i))) return word.slice(i);
  for (let i = word.length - 2; i >= 4; i--) if (compoundPart(word.slice(0, i))) return word.slice(0, i);
  return undefined;
}

/** Common words one letter away from a group term ("back" / "black"): never respelled. */
const ORDINARY = new Set([
  ...['back', 'backs', 'lack', 'lacks', 'bake', 'bakes'],
  // Round 4: frequent words in ordinary tweets one letter from a lexicon word, or
  // ending in one ("down" / "drown", "money" / "monkey", "pics" / "spics", "hangover").
  ...['down', 'money', 'pick', 'picks', 'pics', 'lose', 'treat', 'treats', 'rick', 'hangover', 'hangovers'],
]);

/** Resolves a token to a lexicon word: exact, leetspeak, multilingual, fuzzy, compound. */
export function resolveWord(
  token: string,
  multilingual: boolean,
): { word: string; entry: LexEntry } | undefined {
  const candidates = [token];
  if (/[0-9@$]/.test(token) && /\p{L}/u.test(token))
    candidates.push([...token].map((c) => WORD_LEET[c] ?? c).join(''));
  for (const c of candidates) {
    const entry = LEXICON.get(c) ?? (multilingual ? MULTILINGUAL_LEXICON.get(c) : undefined);
    if (entry) return { word: c, entry };
  }
  const last = candidates[candidates.length - 1]!;
  if (ORDINARY.has(last)) return undefined;
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
  return (
    text
      .replace(/\b(can'?t|cannot|can not) (stand|bear|tolerate|stomach)\b/g, 'loathe')
      .replace(/\b(get|gets|got|getting) rid of\b/g, 'eliminate')
      .replace(/\b(nothing|no) (but|except|more than|better than|other than) /g, 'only ')
      .replace(/\b(there is |there's )?(really )?nothing (worse|more disgusting|lower) than\b/g, 'loathe')
      .replace(/\bput an end to\b/g, 'eliminate')
      // "Nothing disgusts me more than ..." is a superlative, not a negation.
      .replace(/\b(nothing|nobody|no one) (\w+) me (more|as much) (than|as)\b/g, '$2 me $3 $4')
      .replace(/\b(not|n't) worth (any )?less\b/g, ' equally worth')
  );
}

/**
 * What is done to victims, not a call to do it: a threat word after a passive
 * auxiliary ("are attacked", "are getting murdered") or a dehumanising word in
 * "are treated like animals", with no modal or infinitive before it
 * ("should be", "deserve to be", "need to be" call for it).
 */
function victimUse(tokens: readonly string[], index: number, entry: LexEntry): boolean {
  const before = tokens.slice(Math.max(0, index - 5), index);
  if (before.some((t) => CALL_TO_ACT.has(t))) return false;
  if (entry.category === 'threat') return pastOrPassiveThreat(tokens, index);
  if (entry.category !== 'dehumanizing' && entry.category !== 'insult') return false;
  return treatedLike(tokens, index);
}

/** "are treated like <word>" / "are treated as a <word>": the word is what victims are treated as. */
function treatedLike(tokens: readonly string[], index: number): boolean {
  const simile = similePosition(tokens, index);
  return (
    simile > 0 &&
    /^treat(ed|ing)?$/.test(tokens[index - simile] ?? '') &&
    VICTIM_AUX.has(tokens[index - simile - 1] ?? '')
  );
}

/** How far back the verb before "like"/"as" sits (2 or 3 tokens), or 0 when no simile leads to the word. */
function similePosition(tokens: readonly string[], index: number): number {
  if (/^(like|as)$/.test(tokens[index - 1] ?? '')) return 2;
  return /^(like|as)$/.test(tokens[index - 2] ?? '') ? 3 : 0;
}
/**
 * "are attacked" (passive, not the progressive "are destroying") and "those
 * who attacked them" (a past act in a relative clause names perpetrators).
 */
function pastOrPassiveThreat(tokens: readonly string[], index: number): boolean {
  const prev = tokens[index - 1] ?? '';
  const word = tokens[index]!;
  return (VICTIM_AUX.has(prev) && !word.endsWith('ing')) || (PAST_RELATIVE.test(prev) && word.endsWith('ed'));
}
const PAST_RELATIVE = /^(who|that|which|whoever)$/;
const CALL_TO_ACT = new Set(
  "should must will deserve deserves ought gonna let's lets to need needs would could may might hope wish want wants".split(
    ' ',
  ),
);

const OPPOSING = new Set(
  'against stop stopping end ending fight fighting oppose opposing reject rejecting combat combating tackle tackling counter countering condemn condemning'.split(
    ' ',
  ),
);

/** "against hate", "stop the killing": an emotion or harm named as the thing opposed is not endorsed. */
function opposed(tokens: readonly string[], index: number, entry: LexEntry): boolean {
  if (entry.category !== 'negative_emotion' && entry.category !== 'threat') return false;
  const prev = tokens[index - 1] ?? '';
  return (
    OPPOSING.has(prev) ||
    (/^(all|the|this|that|such|any)$/.test(prev) && OPPOSING.has(tokens[index - 2] ?? ''))
  );
}

/** Index of the first denial ("I never said", "I don't think"): what follows it is not asserted. */
function denialIndex(s: TokenStream): number {
  return s.tokens.findIndex((t, i) => DENIAL_VERBS.has(t) && nearNegator(s, i));
}

/** The negator sits right before the verb (adverbs aside): "never said", "don't really think". */
function nearNegator(s: TokenStream, i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
    const p = s.tokens[j]!;
    if (NEGATORS.has(p) || p.endsWith("n't")) return true;
    if (!ADVERBS.has(p)) return false;
  }
  return false;
}

/**
 * A negated positive word ("not human", "no compassion") is hostile, unless
 * the harm itself follows it ("do not deserve to be tortured"): then the
 * negation denies the harm. Reported negated positives are not the writer's.
 */
function negatedPositives(s: TokenStream, hits: readonly LexHit[], reported: (i: number) => boolean): number {
  const harmAt = new Set(hits.filter((h) => HARM.has(h.category)).map((h) => h.index));
  let n = 0;
  s.tokens.forEach((t, i) => {
    if (!POSITIVE.has(t) || !negatedAt(s, i) || reported(i)) return;
    // "not less intelligent", "no less capable": a negated comparative of inferiority affirms the group.
    if (s.tokens[i - 1] === 'less' || s.tokens[i - 1] === 'inferior') return;
    for (let j = i + 1; j <= i + 6 && s.sentence[j] === s.sentence[i]; j++) if (harmAt.has(j)) return;
    n++;
  });
  return n;
}
/**
 * In a sentence that names the group as the victim of hostility ("the abuse
 * X receive is disgusting", "I hate how X are treated"), emotion and insult
 * words judge that hostility, not the group, unless the same text states
 * hate without a hostile word (then the victim frame may be mocking).
 */
function victimEvaluations(s: TokenStream, hits: LexHit[], implicit: ImplicitHate): void {
  if (!victimOnly(implicit)) return;
  for (const h of hits) {
    if (!implicit.victimSentences.has(s.sentence[h.index]!)) continue;
    // A threat noun aimed at the group ("attacks on X", "violence against X") reports an event.
    const eventNoun = h.category === 'threat' && EVENT_PREPOSITION.has(s.tokens[h.index + 1] ?? '');
    if (h.category === 'negative_emotion' || h.category === 'insult' || eventNoun) h.negated = true;
  }
}
const EVENT_PREPOSITION = new Set(['on', 'against', 'towards', 'toward', 'targeting']);

const victimOnly = (m: ImplicitHate): boolean =>
  m.victim > 0 && m.exclusion + m.harmWish + m.loadedQuestion === 0;

const HARM = new Set<LexCategory>(['threat', 'dehumanizing', 'insult', 'slur', 'negative_emotion']);

export function analyseToxicity(input: string, multilingual = true): ToxicityAnalysis {
  // Curly apostrophes are straightened first so that idioms ("can’t stand") match.
  const text = rewriteIdioms(
    joinSpacedLetters(normalizeText(input)).replace(/(?<=\p{L})[’‘`](?=\p{L})/gu, "'"),
  );
  const stream = tokenize(text, MAX_TOKENS);
  const { tokens } = stream;
  const hits: LexHit[] = [];
  const denialFrom = denialIndex(stream);
  const canonical = tokens.map((t, index) => {
    // Words that condemn hate ("hateful", "racist") are not spellings of hostile words.
    const found = CONDEMN.has(t) && !LEXICON.has(t) ? undefined : cachedResolve(t, multilingual);
    if (!found) return t;
    const negated =
      negatedAt(stream, index) ||
      (denialFrom >= 0 && index > denialFrom) ||
      victimUse(tokens, index, found.entry) ||
      opposed(tokens, index, found.entry);
    hits.push({ ...found.entry, word: found.word, index, negated });
    return PLACEHOLDER[found.entry.category];
  });
  const status = frameStatus(stream);
  const implicit = implicitHate(stream, canonical, status);
  victimEvaluations(stream, hits, implicit);
  const frames = counterContext(stream, status, hits);
  // A negated positive inside someone else's reported words is theirs, unless the writer endorses it.
  // So is one in a sentence about hostility the group suffers ("hatred of X has no place here").
  const reported = (i: number): boolean =>
    (status[i]! >= 2 && !frames.endorse) ||
    (victimOnly(implicit) && implicit.victimSentences.has(stream.sentence[i]!));
  return {
    tokens,
    canonical,
    hits,
    quoted: stream.quoted.some(Boolean),
    counterSpeech: frames.counter,
    frames,
    writer: writerAttitude(stream, status, hits),
    reclaimedContext: RECLAIM_CUES.test(text),
    homonymContext: HOMONYM_CUES.test(text),
    secondPerson: tokens.some((t) => SECOND_PERSON.has(t)),
    thirdPersonIndividual: tokens.some((t) => THIRD_INDIVIDUAL.has(t)),
    positive: tokens.filter((t) => POSITIVE.has(t)).length,
    negatedPositive: negatedPositives(stream, hits, reported),
    denial: denialFrom >= 0,
    implicit,
    insinuation: inGroupSpeaker(canonical) ? insinuation([], status) : insinuation(canonical, status),
  };
}
