// Features of the toxicity statistical layer: hashed uni/bigrams of the
// canonical token stream (lexicon words replaced by their category, so the
// model learns "<id> are <dehum>" rather than one group's name), the
// original words, and explicit context features with their conjunctions.
import { addFeature, l2normalize, mergeInto, type SparseVector } from '../text/hashing.ts';
import type { ToxicityAnalysis } from './analyse.ts';
import { INSINUATION_KINDS } from './insinuation.ts';

export const TOXICITY_DIMS = 8192;

function ngramFeatures(a: ToxicityAnalysis): SparseVector {
  const vec: SparseVector = new Map();
  const c = a.canonical;
  c.forEach((t, i) => {
    addFeature(vec, `u:${t}`, TOXICITY_DIMS);
    if (i > 0) addFeature(vec, `b:${c[i - 1]}_${t}`, TOXICITY_DIMS);
  });
  for (const t of a.tokens) addFeature(vec, `w:${t}`, TOXICITY_DIMS, 0.5);
  return l2normalize(vec);
}

/** Context of the hostile words: quotation, reported speech and its stance, the writer's own attitude. */
function frameFlags(a: ToxicityAnalysis): Record<string, number> {
  const b = (v: boolean): number => (v ? 1 : 0);
  return {
    quoted: b(a.quoted),
    counter: b(a.counterSpeech),
    reported: b(a.frames.reported),
    rejected: b(a.frames.rejected),
    condemn: b(a.frames.condemn),
    endorse: b(a.frames.endorse),
    emo_first: a.writer.emotion,
    intent: a.writer.intent,
    reclaim: b(a.reclaimedContext),
    homonym: b(a.homonymContext),
    you: b(a.secondPerson),
    he_she: b(a.thirdPersonIndividual),
    denial: b(a.denial),
    excl: a.implicit.exclusion,
    loaded_q: a.implicit.loadedQuestion,
    wish: a.implicit.harmWish,
    impl_reported: a.implicit.reported,
    victim: a.implicit.victim,
    ...insinuationFlags(a),
  };
}

/** One flag per insinuation kind (capped at 1) and their sum as `insinuation` (insinuation.ts). */
function insinuationFlags(a: ToxicityAnalysis): Record<string, number> {
  const flags: Record<string, number> = {};
  let total = 0;
  for (const kind of INSINUATION_KINDS) {
    const n = Math.min(1, a.insinuation[kind] ?? 0);
    flags[`ins_${kind}`] = n;
    total += n;
  }
  flags.insinuation = Math.min(1, total);
  return flags;
}

/** Pairs of flags whose product is a feature of its own. */
const FLAG_CONJUNCTIONS: readonly [string, string][] = [
  ['id', 'dehum'],
  ['id', 'insult'],
  ['id', 'emo'],
  ['id', 'threat'],
  ['id', 'prof'],
  ['id', 'negated_attack'],
  ['slur', 'you'],
  ['slur', 'reclaim'],
  ['slur', 'homonym'],
  ['slur', 'counter'],
  ['slur', 'quoted'],
  ['id', 'counter'],
  ['id', 'quoted'],
  ['counter', 'quoted'],
  ['threat', 'he_she'],
  ['threat', 'you'],
  ['id', 'positive'],
  ['id', 'any_attack'],
  ['negated_attack', 'positive'],
  ['id', 'neg_pos'],
  ['id', 'denial'],
  ['neg_pos', 'counter'],
  ['id', 'reported'],
  ['id', 'rejected'],
  ['reported', 'condemn'],
  ['id', 'emo_first'],
  ['id', 'intent'],
  ['id', 'excl'],
  ['id', 'loaded_q'],
  ['id', 'wish'],
  ['id', 'victim'],
  ['id', 'impl_reported'],
  ['insinuation', 'counter'],
  ['insinuation', 'positive'],
];

/** Flags and category strengths, plus pairwise conjunctions of the most telling ones. */
export function contextFlags(a: ToxicityAnalysis): Record<string, number> {
  const max = (cat: string, negated?: boolean): number =>
    Math.max(
      0,
      ...a.hits
        .filter((h) => h.category === cat && (negated === undefined || h.negated === negated))
        .map((h) => h.severity),
    );
  const hasId = a.hits.some((h) => h.category === 'identity');
  const slur = Math.max(0, ...a.hits.filter((h) => h.category === 'slur').map((h) => h.severity));
  const attack = Math.max(max('dehumanizing', false), max('insult', false), max('negative_emotion', false));
  const flags: Record<string, number> = {
    id: hasId ? 1 : 0,
    slur,
    dehum: max('dehumanizing', false),
    insult: max('insult', false),
    emo: max('negative_emotion', false),
    threat: max('threat', false),
    prof: max('profanity'),
    negated_attack: Math.max(
      max('dehumanizing', true),
      max('insult', true),
      max('negative_emotion', true),
      max('threat', true),
    ),
    ...frameFlags(a),
    positive: Math.min(1, a.positive / 2),
    neg_pos: Math.min(1, a.negatedPositive),
  };
  flags.any_attack = Math.max(attack, flags.threat!, flags.prof!, slur);
  flags.id_no_attack = hasId && flags.any_attack === 0 ? 1 : 0;
  for (const [x, y] of FLAG_CONJUNCTIONS) flags[`${x}&${y}`] = flags[x]! * flags[y]!;
  return flags;
}

/**
 * The writer's own emotion and intent reach the model only together with a
 * protected group: alone they mark threats and rants at anyone, which are
 * not identity attacks.
 */
const SCORE_ONLY = new Set(['emo_first', 'intent']);

export function toxicityFeatures(a: ToxicityAnalysis): SparseVector {
  const vec = ngramFeatures(a);
  const flags: SparseVector = new Map();
  for (const [k, v] of Object.entries(contextFlags(a)))
    if (v !== 0 && !SCORE_ONLY.has(k)) addFeature(flags, `f:${k}`, TOXICITY_DIMS, v);
  return mergeInto(vec, flags);
}
