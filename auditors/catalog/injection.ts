// Catalog entry of the built-in injection auditor (port 8090; settings and
// defaults from the spec's environment table). The auditor's own definition
// may carry a richer `catalog`; `builtinCatalog()` prefers that one.
import type { AuditorCatalogEntry, VocabularyEntry } from '../sdk/types.ts';
import { catalogClaims } from './build.ts';
import { standardEnvVariables } from './standard-env.ts';

const SCORE = { type: 'number', minimum: 0, maximum: 1 };

export const INJECTION_CLAIMS: VocabularyEntry[] = [
  {
    name: 'injection_detected',
    type: 'boolean',
    description:
      'Whether a prompt injection was detected (score at or above threshold, a banned substring, or hidden characters).',
    value_schema: { type: 'boolean' },
    settings: [
      { key: 'threshold', type: 'number', default: 0.8 },
      { key: 'block_on_detection', type: 'boolean', default: true },
      { key: 'ban_substrings', type: 'string[]', default: ['ignore previous instructions'] },
      { key: 'max_token_limit', type: 'number', default: 4096 },
      { key: 'invisible_char_check', type: 'boolean', default: true },
      { key: 'toxicity_threshold', type: 'number', default: 0.7 },
    ],
  },
  {
    name: 'injection_score',
    type: 'score_normalized',
    description: 'Prompt-injection likelihood.',
    value_schema: SCORE,
  },
];

export const INJECTION_CATALOG: AuditorCatalogEntry = {
  id: 'injection',
  name: 'Prompt injection',
  description:
    'Detects prompt-injection and jailbreak attempts, banned substrings and invisible characters in requests.',
  category: 'security',
  phase: 'input_guarding',
  icon: 'shield-alert',
  color: '#ef4444',
  defaultPort: 8090,
  envVariables: [
    ...standardEnvVariables(),
    {
      name: 'INJECTION_THRESHOLD',
      description: 'Detection threshold, 0.0–1.0 (higher is stricter)',
      default: '0.8',
    },
    {
      name: 'INJECTION_BLOCK_ON_DETECTION',
      description: 'Recorded in provenance for the policy',
      default: 'true',
    },
    {
      name: 'INJECTION_BAN_SUBSTRINGS',
      description: 'Comma-separated banned phrases',
      default: 'ignore previous instructions',
    },
    { name: 'INJECTION_MAX_TOKEN_LIMIT', description: 'Longest input scanned, in tokens', default: '4096' },
    {
      name: 'INJECTION_INVISIBLE_CHAR_CHECK',
      description: 'Check for invisible characters',
      default: 'true',
    },
    {
      name: 'INJECTION_TOXICITY_THRESHOLD',
      description: 'Toxicity threshold used by the injection scan',
      default: '0.7',
    },
  ],
  policyOptions: [
    { key: 'threshold', label: 'Threshold', description: 'Score at which injection_detected turns true' },
    {
      key: 'ban_substrings',
      label: 'Banned substrings',
      description: 'Phrases always reported as injection',
    },
  ],
  defaultPolicy: { rules: [], enforcementMode: 'enforce' },
  claims: catalogClaims(INJECTION_CLAIMS, {
    threshold: { label: 'Threshold', min: 0, max: 1, step: 0.05 },
    toxicity_threshold: { label: 'Toxicity threshold', min: 0, max: 1, step: 0.05 },
    max_token_limit: {
      label: 'Max token limit',
      min: 256,
      max: 32768,
      step: 256,
      unit: 'tokens',
      control: 'number',
    },
    ban_substrings: {
      label: 'Banned substrings',
      options: ['ignore previous instructions', 'disregard all prior', 'you are now'],
    },
  }),
};
