// Presets (spec: Preset): per-auditor tiers Starter, Balanced and Strict and
// the quick-start bundles, each a concrete set of detection overrides and
// response rules. Rules on boolean and score claims are stored as response
// rules; the others (counts, sets) as Cedar text, compiled against the
// registered vocabularies when the preset is applied. Documented with their
// values in docs/presets.md; a test keeps the two in step.
import { compileRule, type RuleSpec } from './cedar-gen.ts';
import type { ClaimInfo } from './cedar-schema.ts';
import type { Detection, ResponseRule } from './types.ts';

export const PRESET_TIERS = ['Starter', 'Balanced', 'Strict'] as const;
export type PresetTier = (typeof PRESET_TIERS)[number];
export const BUNDLES = ['solo_builder', 'production_team', 'regulated_enterprise'] as const;
export type BundleName = (typeof BUNDLES)[number];

export interface Preset {
  detection: Detection;
  responseRules: ResponseRule[];
  /** Rules over counts, lists and durations, compiled to Cedar on apply. */
  cedarRules: RuleSpec[];
}

const deny = (name: string, claim: string, threshold?: number): ResponseRule =>
  threshold === undefined ? { name, claim, decision: 'deny' } : { name, claim, threshold, decision: 'deny' };

const both = (
  claims: string[],
  key: string,
  value: unknown,
  enforcement?: 'exact' | 'ceiling' | 'superset',
): Detection =>
  Object.fromEntries(claims.map((c) => [c, { [key]: enforcement ? { value, enforcement } : { value } }]));

function merge(...parts: Detection[]): Detection {
  const out: Detection = {};
  for (const part of parts)
    for (const [claim, s] of Object.entries(part)) out[claim] = { ...out[claim], ...s };
  return out;
}

const INJ = ['injection_detected', 'injection_score'];
const BAN = ['ignore previous instructions', 'disregard all prior', 'you are now in developer mode'];

export const PRESETS: Record<string, Record<PresetTier, Preset>> = {
  injection: {
    Starter: {
      detection: both(INJ, 'threshold', 0.9),
      responseRules: [deny('injection-block-high', 'injection_score', 0.9)],
      cedarRules: [],
    },
    Balanced: {
      detection: merge(
        both(INJ, 'threshold', 0.8, 'ceiling'),
        both(['injection_detected'], 'invisible_char_check', true),
      ),
      responseRules: [
        deny('injection-block', 'injection_detected'),
        deny('injection-block-invisible', 'injection.invisible_chars_detected'),
      ],
      cedarRules: [],
    },
    Strict: {
      detection: merge(
        both(INJ, 'threshold', 0.6, 'ceiling'),
        both(['injection_detected'], 'invisible_char_check', true, 'exact'),
        both(['injection_detected', 'injection.banned_substrings'], 'ban_substrings', BAN, 'superset'),
      ),
      responseRules: [
        deny('injection-block', 'injection_detected'),
        deny('injection-block-invisible', 'injection.invisible_chars_detected'),
        deny('injection-block-pattern', 'injection.pattern_score', 0.5),
      ],
      cedarRules: [
        {
          name: 'injection-block-banned',
          effect: 'forbid',
          when: [{ claim: 'injection.banned_substrings', op: 'containsAny', value: BAN }],
        },
      ],
    },
  },
  toxicity: {
    Starter: {
      detection: both(['toxicity_detected', 'toxicity_score'], 'threshold', 0.8),
      responseRules: [deny('toxicity-block-high', 'toxicity_score', 0.9)],
      cedarRules: [],
    },
    Balanced: {
      detection: both(['toxicity_detected', 'toxicity_score'], 'threshold', 0.7, 'ceiling'),
      responseRules: [deny('toxicity-block', 'toxicity_detected')],
      cedarRules: [],
    },
    Strict: {
      detection: merge(
        both(['toxicity_detected', 'toxicity_score'], 'threshold', 0.5, 'ceiling'),
        both(['toxicity_detected', 'toxicity.threat'], 'threat_threshold', 0.4, 'ceiling'),
      ),
      responseRules: [
        deny('toxicity-block', 'toxicity_detected'),
        deny('toxicity-block-threat', 'toxicity.threat', 0.4),
      ],
      cedarRules: [],
    },
  },
  'model-context': {
    Starter: { detection: {}, responseRules: [], cedarRules: [] },
    Balanced: {
      detection: both(['context_window_near_limit'], 'near_limit_ratio', 0.9),
      responseRules: [deny('context-block-full', 'context_window_usage', 0.98)],
      cedarRules: [],
    },
    Strict: {
      detection: both(['context_window_near_limit'], 'near_limit_ratio', 0.8, 'ceiling'),
      responseRules: [deny('context-block-near-limit', 'context_window_near_limit')],
      cedarRules: [
        {
          name: 'context-block-large-input',
          effect: 'forbid',
          when: [{ claim: 'input_tokens', op: '>', value: 32000 }],
        },
      ],
    },
  },
  'llm-judge': {
    Starter: {
      detection: {},
      responseRules: [deny('judge-block-high', 'judge_risk_score', 0.9)],
      cedarRules: [],
    },
    Balanced: {
      detection: both(['judge_risk_detected'], 'threshold', 0.7, 'ceiling'),
      responseRules: [deny('judge-block', 'judge_risk_detected')],
      cedarRules: [],
    },
    Strict: {
      detection: both(['judge_risk_detected'], 'threshold', 0.5, 'ceiling'),
      responseRules: [
        deny('judge-block', 'judge_risk_detected'),
        deny('judge-block-score', 'judge_risk_score', 0.5),
      ],
      cedarRules: [],
    },
  },
};

export const BUNDLE_TIERS: Record<BundleName, PresetTier> = {
  solo_builder: 'Starter',
  production_team: 'Balanced',
  regulated_enterprise: 'Strict',
};

export function presetFor(auditor: string, tier: string): Preset | undefined {
  return PRESETS[auditor]?.[tier as PresetTier];
}

/** A bundle: every built-in auditor at the bundle's tier, merged. */
export function bundlePreset(bundle: string): Preset | undefined {
  const tier = BUNDLE_TIERS[bundle as BundleName];
  if (!tier) return undefined;
  const parts = Object.values(PRESETS).map((tiers) => tiers[tier]);
  return {
    detection: merge(...parts.map((p) => p.detection)),
    responseRules: parts.flatMap((p) => p.responseRules),
    cedarRules: parts.flatMap((p) => p.cedarRules),
  };
}

/** The preset's Cedar text, one annotated policy per rule. */
export function presetCedar(preset: Preset, claims: Map<string, ClaimInfo>): string {
  return preset.cedarRules.map((r) => `@id(${JSON.stringify(r.name)})\n${compileRule(r, claims)}`).join('\n');
}
