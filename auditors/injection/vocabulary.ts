// The injection auditor's vocabulary (claims and their settings, with the
// spec's defaults) and its catalog entry.
import { vocabularyClaims } from '../catalog/build.ts';
import { standardEnvVariables } from '../catalog/standard-env.ts';
import type { AuditorCatalogEntry, SettingDeclaration, VocabularyEntry } from '../sdk/types.ts';
import { CLAIM_VALUES, vocabularyEntry as entry } from '../sdk/vocabulary.ts';
import { DEFAULT_BAN_SUBSTRINGS } from './detect.ts';

const { score, bool, list, count, text } = CLAIM_VALUES;

export const INJECTION_SETTINGS = {
  threshold: { key: 'threshold', type: 'number', default: 0.8 },
  block_on_detection: { key: 'block_on_detection', type: 'boolean', default: true },
  ban_substrings: { key: 'ban_substrings', type: 'string[]', default: DEFAULT_BAN_SUBSTRINGS },
  max_token_limit: { key: 'max_token_limit', type: 'number', default: 4096 },
  invisible_char_check: { key: 'invisible_char_check', type: 'boolean', default: true },
  toxicity_threshold: { key: 'toxicity_threshold', type: 'number', default: 0.7 },
} satisfies Record<string, SettingDeclaration>;

const S = INJECTION_SETTINGS;
const DETECTION_SETTINGS = [S.threshold, S.block_on_detection, S.ban_substrings, S.invisible_char_check];

export const INJECTION_VOCABULARY: VocabularyEntry[] = [
  entry(
    'injection_detected',
    bool,
    'Combined injection score is at or above the threshold (or an unquoted banned substring or suspicious invisible characters were found).',
    DETECTION_SETTINGS,
  ),
  entry('injection_score', score, 'Combined, calibrated injection score (0 benign … 1 injection).', [
    S.threshold,
  ]),
  entry(
    'injection.statistical_score',
    score,
    'Calibrated probability from the hashed logistic-regression layer.',
  ),
  entry(
    'injection.pattern_score',
    score,
    'Noisy-OR of the weighted multilingual pattern rules (quoted hits discounted).',
  ),
  entry('injection.pattern_hits', list, 'Ids of the pattern rules that matched.'),
  entry('injection.categories', list, 'Attack categories named by the matched rules.'),
  entry(
    'injection.banned_substrings',
    list,
    'Configured banned substrings found in the input (after normalisation).',
    [S.ban_substrings],
  ),
  entry(
    'injection.invisible_chars',
    count,
    'Invisible or formatting characters outside legitimate emoji / joining-script use.',
    [S.invisible_char_check],
  ),
  entry(
    'injection.invisible_chars_detected',
    bool,
    'Tag characters, bidi controls, private-use characters or invisible runs were found.',
    [S.invisible_char_check],
  ),
  entry(
    'injection.decodings',
    list,
    'Encodings undone before matching (base64, percent, html, rot13, despaced, tags).',
  ),
  entry('injection.token_count', count, 'BPE tokens (o200k_base, offline); capped at limit + 1.', [
    S.max_token_limit,
  ]),
  entry('injection.token_limit_exceeded', bool, 'The input has more tokens than the limit.', [
    S.max_token_limit,
  ]),
  entry('injection.toxicity_score', score, "Overall toxicity of the input (the toxicity auditor's model).", [
    S.toxicity_threshold,
  ]),
  entry('injection.toxicity_detected', bool, 'Overall toxicity at or above the toxicity threshold.', [
    S.toxicity_threshold,
  ]),
  entry(
    'injection.model_available',
    bool,
    'Whether the optional transformer (ONNX) layer is loaded; false in this build.',
  ),
  entry('injection.language', text, 'Detected language of the decoded text (ISO 639-1, or und).'),
];

const ENV_DOC: Record<string, string> = {
  threshold:
    'Score at or above which injection_detected is true (0.0–1.0; higher is stricter about what counts).',
  block_on_detection: 'Passed to the gateway in claim provenance; the auditor itself never blocks.',
  ban_substrings: 'Comma-separated phrases; an unquoted match raises the score to 0.9.',
  max_token_limit: 'Token limit for injection.token_limit_exceeded (offline BPE tokenizer).',
  invisible_char_check: 'Report and score suspicious invisible characters.',
  toxicity_threshold: 'Threshold for injection.toxicity_detected.',
};

export const INJECTION_CATALOG: AuditorCatalogEntry = {
  id: 'injection',
  name: 'Prompt injection',
  description:
    'Layered prompt-injection detection: normalisation and decoding, invisible characters, banned substrings, weighted multilingual patterns and a trained statistical model.',
  category: 'security',
  phase: 'input_guarding',
  icon: 'shield-alert',
  color: '#d9480f',
  defaultPort: 8090,
  envVariables: [
    ...standardEnvVariables(),
    ...Object.values(S).map((s) => ({
      name: `INJECTION_${s.key.toUpperCase()}`,
      description: ENV_DOC[s.key]!,
      default: Array.isArray(s.default) ? s.default.join(',') : String(s.default),
    })),
  ],
  policyOptions: [
    {
      key: 'block_on_injection',
      label: 'Block detected injections',
      description: 'Deny requests whose injection_detected claim is true.',
    },
    {
      key: 'block_on_invisible',
      label: 'Block invisible-character smuggling',
      description: 'Deny requests with injection.invisible_chars_detected.',
    },
  ],
  defaultPolicy: {
    rules: [{ claim: 'injection_detected', equals: true, effect: 'forbid' }],
    enforcementMode: 'enforce',
  },
  claims: vocabularyClaims(INJECTION_VOCABULARY, {
    max_token_limit: { min: 1, max: 131072, step: 1, unit: 'tokens' },
  }),
};
