// Scope of negation over the token stream, and negated stance words
// ("not true", "won't tolerate"). Backward scans are capped so that long runs
// of adverbs cannot make them quadratic.
import { ADVERBS, NEGATORS, RHETORICAL_OPENERS, SCOPE_BREAK } from './cues.ts';
import type { TokenStream } from './stream.ts';

/**
 * Whether a negator governs the token at `index`: within four content words
 * (adverbs such as "really" do not count), in the same sentence, not across a
 * clause break, a comma, or a complement clause ("not obvious that I hate").
 */
export function negatedAt(s: TokenStream, index: number): boolean {
  const from = s.sentenceStart[s.sentence[index] ?? 0] ?? 0;
  let seen = 0;
  // The hard limit of 16 tokens keeps long runs of adverbs from making this quadratic.
  for (let j = index - 1; j >= Math.max(from, index - 16); j--) {
    const step = negationStep(s, j, from, index);
    if (step !== undefined) return step === 'negated';
    if (!ADVERBS.has(s.tokens[j]!)) seen++;
    if (seen === 4) return clauseNegatorBefore(s, j, from);
  }
  return false;
}

/** What the token at `j` does to the scope of a negation reaching `index`. */
function negationStep(
  s: TokenStream,
  j: number,
  from: number,
  index: number,
): 'negated' | 'ended' | undefined {
  const p = s.tokens[j]!;
  if (SCOPE_BREAK.has(p) || s.comma[j]) return 'ended';
  // "Isn't it time we ...?": the opener of a rhetorical question negates nothing.
  if (j === from && s.question[s.sentence[index]!] && RHETORICAL_OPENERS.has(p)) return 'ended';
  if (negatorWord(p)) return 'negated';
  if (complementizer(p) && j < index - 1) return 'ended';
  return undefined;
}

/**
 * Past four content words only a clause-wide negator still reaches: "never",
 * "nobody", "no one", or "no" opening the clause ("No refugee deserves ...").
 */
function clauseNegatorBefore(s: TokenStream, j: number, from: number): boolean {
  for (let k = j - 1; k >= Math.max(from, j - 12); k--) {
    const p = s.tokens[k]!;
    if (SCOPE_BREAK.has(p) || s.comma[k] || complementizer(p)) return false;
    if (subjectNegatorAt(s, k, from)) return true;
  }
  return false;
}

/** "No one", and "no" / "not" opening the clause ("Not a single farmer ...") negate the subject. */
function subjectNegatorAt(s: TokenStream, k: number, from: number): boolean {
  const p = s.tokens[k]!;
  if (CLAUSE_NEGATORS.has(p) || (p === 'no' && s.tokens[k + 1] === 'one')) return true;
  return (p === 'no' || p === 'not') && (k === from || OPENS_CLAUSE.has(s.tokens[k - 1]!));
}

const negatorWord = (p: string): boolean => NEGATORS.has(p) || p.endsWith("n't");
const complementizer = (p: string): boolean => p === 'that' || p === 'whether';

/** Verbs whose complement clause may open with "no" ("I hope no child ever has to ..."). */
const OPENS_CLAUSE = new Set([
  'hope',
  'hopes',
  'wish',
  'pray',
  'think',
  'believe',
  'say',
  'says',
  'that',
  'and',
]);

/** Negative quantifiers and "never" scope over their whole clause ("no one should ever threaten to hurt"). */
const CLAUSE_NEGATORS = new Set(['never', 'nobody', 'noone', 'no-one', 'none', 'neither']);

const COPULA = new Set([
  'is',
  'are',
  'was',
  'were',
  "it's",
  "that's",
  "he's",
  "she's",
  "they're",
  "you're",
  'so',
  'be',
]);

/** "not true", "isn't at all okay": a negator right before a stance word (copula and adverbs aside). */
export function stanceNegated(s: TokenStream, i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 4); j--) {
    const p = s.tokens[j]!;
    if (NEGATORS.has(p) || p.endsWith("n't")) return true;
    if (!COPULA.has(p) && !ADVERBS.has(p) && !STANCE_FILLER.has(p)) return false;
  }
  return false;
}
/** "does not make it true", "isn't that right": words between a negator and a stance word. */
const STANCE_FILLER = new Set(['it', 'this', 'that', 'make', 'makes', 'making', 'any', 'more', 'less']);

/** "is right", "so true": a stance word after a copula. */
export function afterCopula(s: TokenStream, i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
    if (COPULA.has(s.tokens[j]!)) return true;
    if (!ADVERBS.has(s.tokens[j]!)) return false;
  }
  return false;
}
