// The frames that decide whether a hostile word is the writer's own
// assertion or someone else's words being reported, challenged or condemned
// (negation scope is in negation.ts, the token stream in stream.ts):
//   - reported speech: the complement of a verb of saying or believing, or of
//     a noun naming a statement ("comments like ..."), and quotations;
//   - who reports it: the unnegated writer ("I think ...") asserts it, while a
//     negated verb ("can't seriously believe"), a question put to someone
//     ("do you really think ...?") or a second person ("you said ...") rejects
//     it; a rhetorical negative question ("don't you think ...?") asserts it.
// Every pass is linear in the number of tokens.
import {
  ADVERBS,
  ENDORSE,
  EVALUATIVE,
  FIRST_PERSON,
  NEGATORS,
  OTHER_SUBJECT,
  PERSPECTIVE,
  RELATIVE_TO,
  RHETORICAL_OPENERS,
  SAY_VERBS,
  SECOND_PERSON,
  SPEECH_NOUNS,
} from './cues.ts';
import { negatedAt, stanceNegated } from './negation.ts';
import type { TokenStream } from './stream.ts';

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
const COMPLEMENT_BREAK = new Set([
  'but',
  'because',
  'which',
  'then',
  'so',
  'while',
  'yet',
  'although',
  'though',
]);

type Subject = 'first' | 'second' | 'other' | 'relative' | 'content' | 'generic';

/** The person a pronoun or person noun names, or undefined for any other word. */
function personOf(p: string): Subject | undefined {
  if (FIRST_PERSON.has(p)) return 'first';
  if (SECOND_PERSON.has(p)) return 'second';
  return OTHER_SUBJECT.has(p) ? 'other' : undefined;
}

/** A modal, adverb or negator: a word between subject and verb that is no subject itself. */
const auxiliaryWord = (p: string): boolean =>
  MODALS.has(p) || ADVERBS.has(p) || NEGATORS.has(p) || p.endsWith("n't");

/**
 * The subject of a verb of saying at `v`: the nearest pronoun or person noun
 * within five tokens before it ("am I wrong to think", "can we finally
 * agree"); another word there is some other subject; nothing, a gerund.
 */
function subjectOf(s: TokenStream, v: number, from: number): Subject {
  let content = false;
  // A relative pronoun right before the verb is its subject ("the account that said ...").
  if (RELATIVE.has(s.tokens[v - 1] ?? '') && v - 1 > from) return 'relative';
  for (let j = v - 1; j >= Math.max(from, v - 5); j--) {
    const p = s.tokens[j]!;
    const person = personOf(p);
    if (person) return person;
    if (!auxiliaryWord(p)) content = true;
  }
  // "Saying that ...", "for calling ...": a gerund names the act, nobody asserts it.
  return content ? 'content' : 'generic';
}

const RAISING = new Set(['think', 'thought', 'believe', 'suppose', 'expect', 'feel', 'reckon', 'imagine']);
const RELATIVE = new Set(['that', 'who', 'which', 'whoever']);

/** A question opened by a negated auxiliary ("Don't you think ...?", "Isn't it true ...?") asserts. */
function rhetorical(s: TokenStream, sentenceIndex: number): boolean {
  const start = s.sentenceStart[sentenceIndex]!;
  const [a, b, c] = [s.tokens[start], s.tokens[start + 1], s.tokens[start + 2]];
  return seekingAgreement(a, b, c) || RHETORICAL_OPENERS.has(a ?? '') || negatedCopulaOpener(a, b, c);
}

/** Questions seeking agreement ("who else thinks ...?", "am I the only one who ...?") assert too. */
function seekingAgreement(a?: string, b?: string, c?: string): boolean {
  return b === 'else' || (c === 'else' && a === 'does') || (a === 'am' && b === 'i' && c === 'the');
}

/** "Is it not ...?", "Are they not ...?". */
function negatedCopulaOpener(a?: string, b?: string, c?: string): boolean {
  return (a === 'is' || a === 'are') && (b === 'not' || c === 'not');
}

/** Status of the clause a verb or noun of saying at `v` introduces. */
function triggerStatus(s: TokenStream, v: number, subject: Subject): FrameStatus {
  const sentenceIndex = s.sentence[v]!;
  const question = s.question[sentenceIndex]!;
  if (question && rhetorical(s, sentenceIndex)) return 1;
  const negated = negatedAt(s, v);
  // "I don't think they deserve ..." means "I think they don't deserve ...": the
  // writer's negated belief is still the writer's (the negation moves inward).
  if (negated && subject === 'first' && RAISING.has(s.tokens[v]!)) return 1;
  if (negated || question) return subject === 'first' && !negated ? 1 : 3;
  return PLAIN_STATUS[subject];
}

/** Status of a plain statement's clause by who says it: the writer asserts, "you" is rejected, others report. */
const PLAIN_STATUS: Readonly<Record<Subject, FrameStatus>> = {
  first: 1,
  second: 3,
  other: 2,
  relative: 2,
  content: 2,
  generic: 2,
};

/** A noun names a statement when a quotation or "like/that/such as" follows ("comments like ..."). */
function speechNounAt(s: TokenStream, i: number): boolean {
  const next = s.tokens[i + 1];
  return (
    SPEECH_NOUNS.has(s.tokens[i]!) &&
    (next === 'like' || next === 'that' || next === 'such' || next === 'about' || s.quoted[i + 1] === true)
  );
}

interface Trigger {
  status: FrameStatus;
  /**
   * A gerund or singular relative subject ("Calling them X is ...", "Anyone
   * who says X is ...") ends its clause at the first singular verb, after
   * which the sentence judges the act.
   */
  closesAtVerb: boolean;
}

const triggerVerb = (t: string): boolean => SAY_VERBS.has(t) || DESIRE_VERBS.has(t) || READ_VERBS.has(t);

/** The frame a trigger at `i` opens, or undefined when `i` is not a trigger. */
function triggerAt(s: TokenStream, i: number): Trigger | undefined {
  const t = s.tokens[i]!;
  const truth = truthTrigger(s, i);
  if (truth !== undefined) return { status: truth, closesAtVerb: false };
  const noun = speechNounAt(s, i);
  if (!noun && !triggerVerb(t)) return undefined;
  const subject = noun ? 'generic' : subjectOf(s, i, s.sentenceStart[s.sentence[i]!]!);
  // "Muslims want ...": a wish is framed only when someone is named as holding it.
  if (DESIRE_VERBS.has(t) && subject === 'content') return undefined;
  const status = triggerStatus(s, i, subject);
  return {
    // Reading words ("when I read "...") reports them even when the writer is the reader.
    status: READ_VERBS.has(t) && status === 1 ? 2 : status,
    closesAtVerb: subject === 'generic' || subject === 'relative',
  };
}

/**
 * "It is (not) true that ...", "It is false that ...": a truth predicate
 * asserts or rejects its clause. Questions are left out ("Am I wrong that
 * ...?" asks for agreement).
 */
function truthTrigger(s: TokenStream, i: number): FrameStatus | undefined {
  const t = s.tokens[i]!;
  if (s.tokens[i + 1] !== 'that' || s.question[s.sentence[i]!]) return undefined;
  if (!ENDORSE.has(t) && !FALSITY.has(t)) return undefined;
  return stanceNegated(s, i) === ENDORSE.has(t) ? 3 : 1;
}

const FALSITY = new Set(['false', 'untrue', 'wrong', 'nonsense', 'lie', 'myth', 'ridiculous', 'absurd']);
const READ_VERBS = new Set(['read', 'reads', 'reading']);
const DESIRE_VERBS = new Set(['want', 'wants', 'wanted', 'wanting', 'wish', 'wishes', 'wished', 'wishing']);
const SINGULAR_VERBS = new Set([
  'is',
  'was',
  "isn't",
  "wasn't",
  'has',
  'does',
  "doesn't",
  'makes',
  'shows',
  'says',
]);

/** A complement break, or the first unquoted token after a comma, ends the clause. */
function clauseBreakAt(s: TokenStream, i: number): boolean {
  return COMPLEMENT_BREAK.has(s.tokens[i]!) || (i > 0 && s.comma[i - 1] === true && !s.quoted[i]);
}

const singularVerbAt = (s: TokenStream, i: number): boolean =>
  SINGULAR_VERBS.has(s.tokens[i]!) && !s.quoted[i];

/** A trigger inside a rejecting or reporting frame stays at least reported (an assertion becomes a report). */
function nestedStatus(outer: FrameStatus, own: FrameStatus): FrameStatus {
  return outer >= 2 ? (Math.max(outer, own === 1 ? 2 : own) as FrameStatus) : own;
}

/**
 * Per-token frame status, one left-to-right pass: a trigger frames the rest of
 * its clause; a nested trigger inherits a rejecting or reporting outer frame
 * ("I can't believe you said ..."). Quotations outside any frame are reported.
 */
export function frameStatus(s: TokenStream): FrameStatus[] {
  const out: FrameStatus[] = new Array<FrameStatus>(s.tokens.length).fill(0);
  let current: FrameStatus = 0;
  let closesAtVerb = false;
  let sentence = -1;
  for (let i = 0; i < s.tokens.length; i++) {
    if (s.sentence[i] !== sentence) [current, sentence] = [0, s.sentence[i]!];
    if (clauseBreakAt(s, i)) current = 0;
    if (closesAtVerb && singularVerbAt(s, i)) [current, closesAtVerb] = [0, false];
    const own = triggerAt(s, i);
    if (own !== undefined) {
      closesAtVerb = own.closesAtVerb;
      current = nestedStatus(current, own.status);
      continue;
    }
    out[i] = s.quoted[i] && current === 0 ? 2 : current;
  }
  markPerspectives(s, out);
  return out;
}

function isPerspective(s: TokenStream, i: number): boolean {
  const t = s.tokens;
  if (RELATIVE_TO.test(`${t[i]} ${t[i + 1] ?? ''}`))
    return [t[i - 1], t[i - 2], t[i - 3]].some((w) => EVALUATIVE.has(w ?? ''));
  return (
    PERSPECTIVE.test(`${t[i]} ${t[i + 1] ?? ''} ${t[i + 2] ?? ''}`) ||
    PERSPECTIVE.test(`${t[i]} ${t[i + 1] ?? ''}`)
  );
}

/**
 * A clause relativised to someone else's view ("might not be worth anything
 * to you", "in their eyes") states that view, not the writer's: the whole
 * clause is reported and rejected. Clauses end at commas, breaks, sentences.
 */
function markPerspectives(s: TokenStream, out: FrameStatus[]): void {
  const n = s.tokens.length;
  let start = 0;
  let found = false;
  for (let i = 0; i <= n; i++) {
    if (clauseEndsAt(s, i, start)) {
      if (found) markRejected(out, start, i);
      [start, found] = [i, false];
    }
    if (i === n) break;
    if (isPerspective(s, i)) found = true;
    if (s.comma[i]) {
      if (found) markRejected(out, start, i + 1);
      [start, found] = [i + 1, false];
    }
  }
}

/** The end of the tokens, a new sentence or a complement break ends the clause begun at `start`. */
function clauseEndsAt(s: TokenStream, i: number, start: number): boolean {
  return i === s.tokens.length || s.sentence[i] !== s.sentence[start] || COMPLEMENT_BREAK.has(s.tokens[i]!);
}

function markRejected(out: FrameStatus[], from: number, to: number): void {
  for (let j = from; j < to; j++) out[j] = 3;
}
