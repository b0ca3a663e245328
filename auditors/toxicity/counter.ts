// Counter-speech: hostile words that are someone else's (reported, quoted,
// or an emotion attributed to another person) met by rejection (a negated or
// questioned verb of saying, "you said ..."), or by condemnation of the
// statement or its author ("bigoted", "I will report it"), with nothing hostile
// asserted by the writer about a group. Endorsement ("... and he's right")
// cancels it; a negated endorsement ("that is not true") condemns, and a
// negated condemnation ("not offensive") endorses.
import { ADVERBS, CONDEMN, COUNTER_ACTIONS, ENDORSE, NEGATED_CONDEMN, OTHER_POSSESSIVE } from './cues.ts';
import type { FrameStatus } from './frames.ts';
import { afterCopula, stanceNegated } from './negation.ts';
import type { TokenStream } from './stream.ts';
import type { LexCategory } from './lexicon.ts';

export interface FramedHit {
  category: LexCategory;
  index: number;
  negated: boolean;
  severity: number;
}

export interface CounterContext {
  /** Some hostile word is reported speech or an emotion attributed to someone else. */
  reported: boolean;
  /** Some hostile word is reported under a negated or questioned verb, or said by "you". */
  rejected: boolean;
  /** The statement or its author is condemned. */
  condemn: boolean;
  /** The statement is endorsed. */
  endorse: boolean;
  /** A hostile word is asserted by the writer in a sentence naming a group (or is a slur). */
  asserted: boolean;
  /** Counter-speech: reported hostility met by rejection or condemnation, nothing asserted. */
  counter: boolean;
}

const ATTRIBUTING_SUBJECT = new Set(['you', 'they', 'he', 'she', 'who']);

/** "despise me", "hate us": the writer is the object, so the emotion is not attributed to someone else. */
const aimedAtWriter = (token: string | undefined): boolean => token === 'me' || token === 'us';

/** "your obvious contempt", "they despise": an emotion whose experiencer is not the writer. */
export function attributedEmotion(s: TokenStream, i: number): boolean {
  const t = s.tokens;
  if (aimedAtWriter(t[i + 1]) || aimedAtWriter(t[i + 2])) return false;
  for (let j = i - 1, seen = 0; j >= Math.max(0, i - 6) && seen < 2; j--) {
    if (s.comma[j] || s.sentence[j] !== s.sentence[i]) return false;
    if (OTHER_POSSESSIVE.has(t[j]!) || ATTRIBUTING_SUBJECT.has(t[j]!)) return true;
    if (!ADVERBS.has(t[j]!)) seen++;
  }
  return false;
}

/** Condemning and endorsing words outside quotations, each flipped by negation. */
function stance(s: TokenStream): { condemn: boolean; endorse: boolean } {
  let condemn = false;
  let endorse = false;
  s.tokens.forEach((t, i) => {
    if (s.quoted[i]) return;
    const endorsing = ENDORSE.has(t) && (t !== 'right' || afterCopula(s, i));
    if (NEGATED_CONDEMN.has(t) && stanceNegated(s, i)) condemn = true;
    if (!endorsing && !CONDEMN.has(t)) return;
    const flipped = stanceNegated(s, i);
    if (endorsing !== flipped) endorse = true;
    else condemn = true;
  });
  return { condemn, endorse };
}

const ANAPHORA = new Set(['they', 'them', 'those', 'these', "they're", 'their']);

/**
 * "... was sprayed on the wall. Absolutely sickening.": an insult or emotion
 * word in a sentence that names no group (not even as "them") judges the
 * reported words, not a group.
 */
function evaluatesReport(
  s: TokenStream,
  status: readonly FrameStatus[],
  hits: readonly FramedHit[],
  groupSentences: ReadonlySet<number | undefined>,
): boolean {
  const anaphoric = new Set(
    s.tokens.flatMap((t, i) => (ANAPHORA.has(t) && status[i]! < 2 ? [s.sentence[i]] : [])),
  );
  return hits.some(
    (h) =>
      (h.category === 'insult' || h.category === 'negative_emotion') &&
      !h.negated &&
      status[h.index]! < 2 &&
      !groupSentences.has(s.sentence[h.index]) &&
      !anaphoric.has(s.sentence[h.index]),
  );
}

export function counterContext(
  s: TokenStream,
  status: readonly FrameStatus[],
  hits: readonly FramedHit[],
): CounterContext {
  const hostile = hits.filter((h) => h.category !== 'identity');
  const isReported = (h: FramedHit): boolean =>
    status[h.index]! >= 2 || (h.category === 'negative_emotion' && attributedEmotion(s, h.index));
  const reportedHits = hostile.filter(isReported);
  const groupSentences = new Set(
    hits.filter((h) => h.category === 'identity' && status[h.index]! < 2).map((h) => s.sentence[h.index]),
  );
  const asserted = hostile.some(
    (h) =>
      !h.negated &&
      h.category !== 'profanity' &&
      !isReported(h) &&
      (h.category === 'slur' || groupSentences.has(s.sentence[h.index])),
  );
  const stanceWords = stance(s);
  const endorse = stanceWords.endorse;
  const condemn =
    stanceWords.condemn ||
    COUNTER_ACTIONS.test(s.tokens.join(' ')) ||
    evaluatesReport(s, status, hits, groupSentences);
  const rejected = reportedHits.some((h) => status[h.index] === 3);
  // Describing someone else's hatred ("their hatred of ...") expresses none of the writer's own.
  const onlyAttributed = hostile.length > 0 && hostile.every((h) => status[h.index]! < 2 && isReported(h));
  const reported = reportedHits.length > 0 && !endorse;
  return {
    reported,
    rejected,
    condemn,
    endorse,
    asserted,
    counter: reported && !asserted && (rejected || condemn || onlyAttributed),
  };
}
