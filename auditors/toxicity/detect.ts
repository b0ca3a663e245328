// Per-category toxicity scores from the lexical analysis and the trained
// model. The model's probability that the text attacks a protected group is
// the identity-attack score; threat and insult scores come from the graded
// lexicons, discounted by context (negation, counter-speech, quotation) and
// weighted by the model so that a bare word is not an attack.
import { predict, type LogisticWeights } from '../text/hashing.ts';
import { languageCoverage, uncoveredScore } from '../text/language.ts';
import { analyseToxicity, type ToxicityAnalysis } from './analyse.ts';
import { contextFlags, toxicityFeatures } from './features.ts';
import { offensiveFeatures } from './offensive.ts';
import { readingsOf, type ToxicityReadings } from './readings.ts';
import offensiveWeights from './weights-offensive.json' with { type: 'json' };

/** The offensive-language model (offensive.ts, trained on labelled tweets and HateCheck). */
export const OFFENSIVE_MODEL = offensiveWeights as LogisticWeights;

export const TOXICITY_CATEGORIES = [
  'toxicity',
  'severe_toxicity',
  'threat',
  'insult',
  'identity_attack',
] as const;
export type ToxicityCategory = (typeof TOXICITY_CATEGORIES)[number];

export interface ToxicityThresholds {
  toxicity: number;
  severe_toxicity: number;
  threat: number;
  insult: number;
  identity_attack: number;
}

export const DEFAULT_THRESHOLDS: ToxicityThresholds = {
  toxicity: 0.7,
  severe_toxicity: 0.5,
  threat: 0.6,
  insult: 0.7,
  identity_attack: 0.5,
};

export interface ToxicityResult {
  scores: Record<ToxicityCategory, number>;
  /** Categories at or above their threshold. */
  flagged: ToxicityCategory[];
  detected: boolean;
  language: string;
  /** English, the language of the training data and the full lexicons; elsewhere low scores are floored. */
  languageCovered: boolean;
  terms: string[];
  analysis: ToxicityAnalysis;
  /** The two label sets' readings, reported apart (readings.ts, decision 160). */
  readings: ToxicityReadings;
}

const clamp = (v: number): number => Math.min(1, Math.max(0, v));

/** Context discount shared by the lexical categories. */
function discount(flags: Record<string, number>): number {
  let d = 1;
  if (flags.counter) d *= 0.4;
  if (flags.quoted) d *= 0.6;
  return d;
}

/** Without a hostile word or a negated positive one, the model's probability is discounted. */
export const NO_EVIDENCE_FACTOR = 0.75;

/** Discount of the model's probability when the text is counter-speech (see counter.ts). */
export const COUNTER_FACTOR = 0.5;
/** Discount of the model's probability when the only hostile word is a slur in homonym / in-group context. */
export const SOFT_SLUR_FACTOR = 0.6;

/** The model's identity-attack probability, discounted by the context the model cannot weigh alone. */
function identityAttack(a: ToxicityAnalysis, f: Record<string, number>, pModel: number): number {
  // A slur that is the only hostile word, in a homonym or in-group context
  // ("smoking fags", "a garden hoe"), is weak evidence of an attack.
  const hostile = a.hits.filter((h) => h.category !== 'identity');
  const softSlurOnly =
    (f.homonym! > 0 || f.reclaim! > 0) && hostile.length > 0 && hostile.every((h) => h.category === 'slur');
  // Implicit constructions (implicit.ts) and insinuation (insinuation.ts) are
  // evidence in their own right: they carry no hostile word.
  const implicit = f.excl! + f.loaded_q! + f.wish! + f.insinuation! > 0;
  const evidence = f.any_attack! > 0 || a.negatedPositive > 0 || implicit ? 1 : NO_EVIDENCE_FACTOR;
  // Counter-speech quotes or names the attack it rejects: the model sees the
  // attack's words, so its probability is discounted by the frame.
  return pModel * evidence * (softSlurOnly ? SOFT_SLUR_FACTOR : 1) * (a.counterSpeech ? COUNTER_FACTOR : 1);
}

/**
 * The offensive-language probability, discounted for counter-speech, which
 * quotes the abuse it rejects (the n-gram model sees that frame only as a weak
 * feature). Reclaimed and homonym context are features of the model itself:
 * in real tweets "my bitches" is still offensive, so no fixed discount.
 */
export function offensiveScore(a: ToxicityAnalysis, pOffensive: number): number {
  const evidence = a.hits.some((h) => h.category !== 'identity' && !h.negated) ? 1 : NO_EVIDENCE_FACTOR;
  return pOffensive * evidence * (a.counterSpeech ? COUNTER_FACTOR : 1);
}

/** Unmitigated slurs, and threats against a named group, weighted by the identity-attack probability. */
function severeScore(f: Record<string, number>, d: number, pHate: number): number {
  const slur = f.slur! >= 0.9 && !f.homonym && !f.reclaim ? f.slur! * d : 0;
  return clamp(Math.max(slur, f.id ? f.threat! * d : 0) * pHate);
}

export function categoryScores(
  a: ToxicityAnalysis,
  pModel: number,
  pOffensive = 0,
): Record<ToxicityCategory, number> {
  const f = contextFlags(a);
  const pHate = identityAttack(a, f, pModel);
  const d = discount(f);
  const gate = 0.5 + 0.5 * pHate;
  const targeted = f.id || f.you || f.he_she ? 1 : 0.6;
  // The writer's own intent to harm a named group is a threat whatever the model says; a
  // wish for harm to come to it ("someone should deal with them") is one when the model agrees.
  const threat = clamp(Math.max(f.threat! * targeted * d * gate, f.intent! * f.id! * d, f.wish! * d * gate));
  // A slur names its target, so it is not gated by the model; homonym and
  // reclaimed-use context still discount it.
  const slurInsult = f.slur! * (f.homonym || f.reclaim ? 0.4 : 1) * d;
  const insult = clamp(Math.max(Math.max(f.insult!, f.dehum!) * targeted * d * gate, slurInsult));
  const severe = severeScore(f, d, pHate);
  const toxicity = clamp(
    Math.max(pHate, 0.85 * insult, 0.85 * threat, 0.6 * f.prof!, offensiveScore(a, pOffensive)),
  );
  return { toxicity, severe_toxicity: severe, threat, insult, identity_attack: pHate };
}

/** The models are trained on English; FR/ES/DE have small lexicons only. */
export const TOXICITY_LANGUAGES: ReadonlySet<string> = new Set(['en']);

function floorAll(scores: Record<ToxicityCategory, number>): Record<ToxicityCategory, number> {
  return Object.fromEntries(TOXICITY_CATEGORIES.map((c) => [c, uncoveredScore(scores[c])])) as Record<
    ToxicityCategory,
    number
  >;
}

/** Per-category scores without language detection (the injection auditor needs only these). */
export function toxicityScores(
  input: string,
  model: LogisticWeights,
  multilingual = true,
): { scores: Record<ToxicityCategory, number>; analysis: ToxicityAnalysis; offensive: number } {
  const analysis = analyseToxicity(input, multilingual);
  if (analysis.tokens.length === 0) return { scores: categoryScores(analysis, 0), analysis, offensive: 0 };
  const pHate = predict(model, toxicityFeatures(analysis));
  const pOffensive = predict(OFFENSIVE_MODEL, offensiveFeatures(input, analysis));
  return {
    scores: categoryScores(analysis, pHate, pOffensive),
    analysis,
    offensive: offensiveScore(analysis, pOffensive),
  };
}

export function detectToxicity(
  input: string,
  model: LogisticWeights,
  thresholds: ToxicityThresholds,
  multilingual = true,
): ToxicityResult {
  const { scores: raw, analysis, offensive: rawOffensive } = toxicityScores(input, model, multilingual);
  const lang = languageCoverage(input.slice(0, 4000), TOXICITY_LANGUAGES);
  const floored = !lang.covered && analysis.tokens.length > 0;
  const scores = floored ? floorAll(raw) : raw;
  const offensive = floored ? uncoveredScore(rawOffensive) : rawOffensive;
  const flagged = TOXICITY_CATEGORIES.filter((c) => scores[c] >= thresholds[c]);
  return {
    scores,
    flagged,
    detected: flagged.length > 0,
    language: lang.language,
    languageCovered: lang.covered,
    terms: [...new Set(analysis.hits.filter((h) => h.category !== 'identity').map((h) => h.word))],
    analysis,
    readings: readingsOf(scores, offensive, thresholds),
  };
}
