// Catalog entry of the built-in toxicity auditor (port 8093; settings and
// defaults from the spec's environment table). The auditor's own definition
// may carry a richer `catalog`; `builtinCatalog()` prefers that one.
import type { AuditorCatalogEntry, VocabularyEntry } from '../sdk/types.ts';
import { catalogClaims } from './build.ts';
import { standardEnvVariables } from './standard-env.ts';

const SCORE = { type: 'number', minimum: 0, maximum: 1 };

function category(name: string, key: string, dflt: number, what: string): VocabularyEntry {
  return {
    name: `toxicity.${name}`,
    type: 'score_normalized',
    description: `${what} score.`,
    value_schema: SCORE,
    settings: [{ key, type: 'number', default: dflt }],
  };
}

export const TOXICITY_CLAIMS: VocabularyEntry[] = [
  {
    name: 'toxicity_detected',
    type: 'boolean',
    description:
      'Whether toxic content was detected (score at or above threshold, or a category above its threshold).',
    value_schema: { type: 'boolean' },
    settings: [
      { key: 'threshold', type: 'number', default: 0.7 },
      { key: 'block_on_detection', type: 'boolean', default: true },
      { key: 'replacement_message', type: 'string', default: 'Content filtered for safety' },
      { key: 'multilingual', type: 'boolean', default: true },
      { key: 'model', type: 'string', default: 'Xenova/toxic-bert' },
    ],
  },
  {
    name: 'toxicity_score',
    type: 'score_normalized',
    description: 'Overall toxicity score.',
    value_schema: SCORE,
  },
  category('severe_toxicity', 'severe_threshold', 0.5, 'Severe toxicity'),
  category('threat', 'threat_threshold', 0.6, 'Threat'),
  category('insult', 'insult_threshold', 0.7, 'Insult'),
  category('identity_attack', 'identity_attack_threshold', 0.5, 'Identity attack'),
];

const THRESHOLD = { min: 0, max: 1, step: 0.05 };

export const TOXICITY_CATALOG: AuditorCatalogEntry = {
  id: 'toxicity',
  name: 'Toxicity',
  description:
    'Scores toxicity, severe toxicity, threats, insults and identity attacks in prompts and responses.',
  category: 'security',
  phase: 'output_policy',
  icon: 'message-square-warning',
  color: '#f59e0b',
  defaultPort: 8093,
  envVariables: [
    ...standardEnvVariables(),
    { name: 'TOXICITY_THRESHOLD', description: 'Overall threshold', default: '0.7' },
    { name: 'TOXICITY_SEVERE_THRESHOLD', description: 'Severe toxicity threshold', default: '0.5' },
    { name: 'TOXICITY_THREAT_THRESHOLD', description: 'Threat threshold', default: '0.6' },
    { name: 'TOXICITY_INSULT_THRESHOLD', description: 'Insult threshold', default: '0.7' },
    { name: 'TOXICITY_IDENTITY_ATTACK_THRESHOLD', description: 'Identity attack threshold', default: '0.5' },
    {
      name: 'TOXICITY_BLOCK_ON_DETECTION',
      description: 'Recorded in provenance for the policy',
      default: 'true',
    },
    {
      name: 'TOXICITY_REPLACEMENT_MESSAGE',
      description: 'Message shown in place of filtered content',
      default: 'Content filtered for safety',
    },
    { name: 'TOXICITY_MULTILINGUAL', description: 'Score non-English text', default: 'true' },
    { name: 'TOXICITY_MODEL', description: 'Toxicity classification model', default: 'Xenova/toxic-bert' },
  ],
  policyOptions: [
    { key: 'threshold', label: 'Threshold', description: 'Score at which toxicity_detected turns true' },
  ],
  defaultPolicy: { rules: [], enforcementMode: 'enforce' },
  claims: catalogClaims(TOXICITY_CLAIMS, {
    threshold: { label: 'Threshold', ...THRESHOLD },
    severe_threshold: { label: 'Severe toxicity threshold', ...THRESHOLD },
    threat_threshold: { label: 'Threat threshold', ...THRESHOLD },
    insult_threshold: { label: 'Insult threshold', ...THRESHOLD },
    identity_attack_threshold: { label: 'Identity attack threshold', ...THRESHOLD },
    model: { label: 'Model', options: ['Xenova/toxic-bert', 'Xenova/multilingual-toxic-xlm-roberta'] },
  }),
};
