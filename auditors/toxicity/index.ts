// The toxicity auditor (port 8093): per-category scores with the method
// named in metadata. Observes only; block_on_detection and the replacement
// message travel in metadata/provenance for the gateway.
import type { AuditContext, AuditorDefinition, Claim, ClaimsRequest } from '../sdk/types.ts';
import type { LogisticWeights } from '../text/hashing.ts';
import type { ToxicityAnalysis } from './analyse.ts';
import { detectToxicity, type ToxicityResult, type ToxicityThresholds } from './detect.ts';
import { TOXICITY_CATALOG, TOXICITY_VOCABULARY } from './vocabulary.ts';
import weights from './weights.json' with { type: 'json' };

export const TOXICITY_MODEL = weights as LogisticWeights;
export const METHOD =
  'graded lexicons + context frames (negation, reported speech, counter-speech) + hashed logistic regression trained on HateCheck train families and own augmentation (identity attack) + offensive-language logistic regression over word/char n-grams trained on davidson tweets and HateCheck (toxicity)';

function requestText(request: ClaimsRequest): string {
  return request.phase === 'response'
    ? (request.data.output ?? request.data.input ?? '')
    : (request.data.input ?? request.data.output ?? '');
}

function thresholds(context: AuditContext): ToxicityThresholds {
  const n = (claim: string, key: string): number => context.setting<number>(claim, key);
  return {
    toxicity: n('toxicity_score', 'threshold'),
    severe_toxicity: n('toxicity.severe_toxicity', 'severe_threshold'),
    threat: n('toxicity.threat', 'threat_threshold'),
    insult: n('toxicity.insult', 'insult_threshold'),
    identity_attack: n('toxicity.identity_attack', 'identity_attack_threshold'),
  };
}

/** The context that discounted terms, named as in the `toxicity.context` claim. */
function discountingContext(a: ToxicityAnalysis): string[] {
  return [
    ...(a.hits.some((h) => h.negated) ? ['negation'] : []),
    ...(a.counterSpeech ? ['counter_speech'] : []),
    ...(a.quoted ? ['quotation'] : []),
    ...(a.reclaimedContext && a.hits.some((h) => h.reclaimable) ? ['reclaimed'] : []),
    ...(a.homonymContext && a.hits.some((h) => h.homonym) ? ['homonym'] : []),
  ];
}

/** One score claim per category, with the threshold it is judged against. */
function categoryClaims(s: ToxicityResult['scores'], t: ToxicityThresholds): Claim[] {
  return [
    {
      name: 'toxicity.severe_toxicity',
      type: 'score_normalized',
      value: s.severe_toxicity,
      provenance: { severe_threshold: t.severe_toxicity },
    },
    {
      name: 'toxicity.threat',
      type: 'score_normalized',
      value: s.threat,
      provenance: { threat_threshold: t.threat },
    },
    {
      name: 'toxicity.insult',
      type: 'score_normalized',
      value: s.insult,
      provenance: { insult_threshold: t.insult },
    },
    {
      name: 'toxicity.identity_attack',
      type: 'score_normalized',
      value: s.identity_attack,
      provenance: { identity_attack_threshold: t.identity_attack },
    },
  ];
}

/** The hate and offensive readings apart (decision 160): HateCheck's consumer reads `toxicity.hate_detected`. */
function readingClaims(r: ToxicityResult['readings'], t: ToxicityThresholds): Claim[] {
  return [
    {
      name: 'toxicity.hate_detected',
      type: 'boolean',
      value: r.hate.detected,
      provenance: { identity_attack_threshold: t.identity_attack, severe_threshold: t.severe_toxicity },
    },
    {
      name: 'toxicity.hate',
      type: 'score_normalized',
      value: r.hate.score,
      provenance: { identity_attack_threshold: t.identity_attack, severe_threshold: t.severe_toxicity },
    },
    {
      name: 'toxicity.offensive',
      type: 'score_normalized',
      value: r.offensive.score,
      provenance: { threshold: t.toxicity },
    },
  ];
}

export function auditToxicity(request: ClaimsRequest, context: AuditContext): Claim[] {
  const t = thresholds(context);
  const multilingual = context.setting<boolean>('toxicity.language', 'multilingual');
  const blockOnDetection = context.setting<boolean>('toxicity_detected', 'block_on_detection');
  const replacement = context.setting<string>('toxicity_detected', 'replacement_message');
  const model = context.setting<string>('toxicity_detected', 'model');
  const r = detectToxicity(requestText(request), TOXICITY_MODEL, t, multilingual);
  const contextList = discountingContext(r.analysis);
  const metadata = {
    model,
    method: METHOD,
    block_on_detection: blockOnDetection,
    replacement_message: replacement,
  };
  const s = r.scores;
  return [
    {
      name: 'toxicity_detected',
      type: 'boolean',
      value: r.detected,
      metadata,
      provenance: { ...t, multilingual, block_on_detection: blockOnDetection, model },
    },
    {
      name: 'toxicity_score',
      type: 'score_normalized',
      value: s.toxicity,
      provenance: { threshold: t.toxicity },
      metadata: { model },
    },
    ...categoryClaims(s, t),
    ...readingClaims(r.readings, t),
    { name: 'toxicity.categories', type: 'string_list', value: r.flagged },
    { name: 'toxicity.terms', type: 'string_list', value: r.terms },
    { name: 'toxicity.context', type: 'string_list', value: contextList },
    {
      name: 'toxicity.language',
      type: 'string',
      value: r.language,
      provenance: { multilingual },
      metadata: { covered: r.languageCovered },
    },
  ];
}

export const toxicityAuditor: AuditorDefinition = {
  id: 'toxicity',
  version: '1.0.0',
  defaultPort: 8093,
  phases: ['request', 'response'],
  vocabulary: TOXICITY_VOCABULARY,
  catalog: TOXICITY_CATALOG,
  load: async () => {},
  audit: auditToxicity,
};
