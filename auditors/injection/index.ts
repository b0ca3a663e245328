// The injection auditor (port 8090): runs the layered detector and reports
// each layer's claims. Observes only; block_on_detection travels in
// provenance for the gateway.
import type { AuditContext, AuditorDefinition, Claim, ClaimsRequest } from '../sdk/types.ts';
import type { LogisticWeights } from '../text/hashing.ts';
import { countTokensUpTo } from '../text/tokens.ts';
import { toxicityScores } from '../toxicity/detect.ts';
import toxicityWeights from '../toxicity/weights.json' with { type: 'json' };
import { analyseInjection } from './detect.ts';
import { INJECTION_CATALOG, INJECTION_VOCABULARY } from './vocabulary.ts';
import weights from './weights.json' with { type: 'json' };

export const INJECTION_MODEL = weights as LogisticWeights;
const TOXICITY_MODEL = toxicityWeights as LogisticWeights;
export const METHOD =
  'layered: normalisation+decoding, invisible chars, banned substrings, weighted patterns, hashed logistic regression';

function requestText(request: ClaimsRequest): string {
  return request.phase === 'response'
    ? (request.data.output ?? request.data.input ?? '')
    : (request.data.input ?? request.data.output ?? '');
}

interface InjectionSettings {
  threshold: number;
  blockOnDetection: boolean;
  banSubstrings: string[];
  invisibleCharCheck: boolean;
  maxTokens: number;
  toxicityThreshold: number;
}

function injectionSettings(context: AuditContext): InjectionSettings {
  const set = <T extends string | number | boolean | string[]>(claim: string, key: string): T =>
    context.setting<T>(claim, key);
  return {
    threshold: set<number>('injection_detected', 'threshold'),
    blockOnDetection: set<boolean>('injection_detected', 'block_on_detection'),
    banSubstrings: set<string[]>('injection.banned_substrings', 'ban_substrings'),
    invisibleCharCheck: set<boolean>('injection.invisible_chars', 'invisible_char_check'),
    maxTokens: set<number>('injection.token_count', 'max_token_limit'),
    toxicityThreshold: set<number>('injection.toxicity_score', 'toxicity_threshold'),
  };
}

const claim = (name: string, type: Claim['type'], value: unknown, extra: Partial<Claim> = {}): Claim => ({
  name,
  type,
  value,
  ...extra,
});

/** The detector's own claims: the verdict, its score, and each layer's findings. */
function detectionClaims(a: ReturnType<typeof analyseInjection>, s: InjectionSettings): Claim[] {
  const { threshold, blockOnDetection, banSubstrings, invisibleCharCheck } = s;
  const provenance = { threshold, block_on_detection: blockOnDetection, method: METHOD };
  return [
    claim('injection_detected', 'boolean', a.detected, {
      confidence: a.detected ? a.score : 1 - a.score,
      provenance,
      metadata: { block_on_detection: blockOnDetection, method: METHOD },
    }),
    claim('injection_score', 'score_normalized', a.score, { provenance }),
    claim('injection.statistical_score', 'score_normalized', a.statisticalScore),
    claim('injection.pattern_score', 'score_normalized', a.patterns.score, {
      detail: { hits: a.patterns.hits },
    }),
    claim(
      'injection.pattern_hits',
      'string_list',
      a.patterns.hits.map((h) => h.id),
    ),
    claim('injection.categories', 'string_list', [
      ...new Set(a.patterns.hits.filter((h) => !h.quoted).map((h) => h.category)),
    ]),
    claim('injection.banned_substrings', 'string_list', a.banned, {
      provenance: { ban_substrings: banSubstrings },
    }),
    claim('injection.invisible_chars', 'count', invisibleCharCheck ? a.invisible.count : 0, {
      provenance: { invisible_char_check: invisibleCharCheck },
      detail: {
        kinds: a.invisible.kinds,
        legitimate: a.invisible.legitimate,
        longest_run: a.invisible.longestRun,
      },
    }),
    claim('injection.invisible_chars_detected', 'boolean', a.invisibleSuspicious, {
      provenance: { invisible_char_check: invisibleCharCheck },
    }),
    claim('injection.decodings', 'string_list', a.decodings),
  ];
}

/** Token-limit and toxicity claims about the same text. */
function limitClaims(text: string, s: InjectionSettings): Claim[] {
  const { maxTokens, toxicityThreshold } = s;
  const tokens = countTokensUpTo(text, maxTokens);
  const toxicity = toxicityScores(text, TOXICITY_MODEL).scores.toxicity;
  return [
    claim('injection.token_count', 'count', tokens.count, {
      provenance: { max_token_limit: maxTokens },
      metadata: { tokenizer: 'gpt-tokenizer o200k_base' },
    }),
    claim('injection.token_limit_exceeded', 'boolean', tokens.exceeded, {
      provenance: { max_token_limit: maxTokens },
    }),
    claim('injection.toxicity_score', 'score_normalized', toxicity, {
      provenance: { toxicity_threshold: toxicityThreshold },
    }),
    claim('injection.toxicity_detected', 'boolean', toxicity >= toxicityThreshold, {
      provenance: { toxicity_threshold: toxicityThreshold },
    }),
  ];
}

export function auditInjection(request: ClaimsRequest, context: AuditContext): Claim[] {
  const text = requestText(request);
  const s = injectionSettings(context);
  const { threshold, banSubstrings, invisibleCharCheck } = s;
  const a = analyseInjection(text, { threshold, banSubstrings, invisibleCharCheck }, INJECTION_MODEL);
  return [
    ...detectionClaims(a, s),
    ...limitClaims(text, s),
    claim('injection.model_available', 'boolean', false, {
      metadata: { note: 'no ONNX model configured; onnxruntime-node is not installed in this build' },
    }),
    claim('injection.language', 'string', a.language, { metadata: { covered: a.languageCovered } }),
  ];
}

export const injectionAuditor: AuditorDefinition = {
  id: 'injection',
  version: '1.0.0',
  defaultPort: 8090,
  phases: ['request', 'response'],
  vocabulary: INJECTION_VOCABULARY,
  catalog: INJECTION_CATALOG,
  load: async () => {},
  audit: auditInjection,
};
