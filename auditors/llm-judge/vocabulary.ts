// What the llm-judge system auditor observes: a judge's risk score for the
// content, whether it reached the threshold, and (response phase) how relevant
// the response is to the prompt. Claims name the judge that produced them.
import { catalogClaims } from '../catalog/build.ts';
import { standardEnvVariables } from '../catalog/standard-env.ts';
import type { AuditorCatalogEntry, Vocabulary, VocabularyEntry } from '../sdk/types.ts';

export const LLM_JUDGE_ID = 'llm-judge';
export const LLM_JUDGE_VERSION = '1.0.0';
export const LOCAL_SCORER = 'local-heuristic-v1';

const SCORE = { type: 'number', minimum: 0, maximum: 1 };

export const LLM_JUDGE_VOCABULARY: VocabularyEntry[] = [
  {
    name: 'judge_risk_score',
    type: 'score_normalized',
    description: 'How likely the content is harmful, manipulative or policy-violating (0 none, 1 certain).',
    value_schema: SCORE,
  },
  {
    name: 'judge_risk_detected',
    type: 'boolean',
    description: 'Whether judge_risk_score reached the threshold setting.',
    value_schema: { type: 'boolean' },
    settings: [{ key: 'threshold', type: 'number', default: 0.7 }],
  },
  {
    name: 'judge_relevance_score',
    type: 'score_normalized',
    description: 'How well the response addresses the prompt (response phase).',
    value_schema: SCORE,
  },
  {
    name: 'judge_model',
    type: 'string',
    description: `The judge model that scored, or "${LOCAL_SCORER}" when no judge model is configured.`,
    value_schema: { type: 'string' },
  },
];

export const LLM_JUDGE_CONFIGURATION: NonNullable<Vocabulary['configuration']> = {
  endpoint: {
    type: 'string',
    default: null,
    description:
      'Base URL of an OpenAI-compatible API (e.g. http://judge:8000/v1); unset uses the local scorer.',
  },
  model: { type: 'string', default: null, description: 'Judge model name sent to the endpoint.' },
};

/** Its catalog entry (spec: Auditor catalog entry): the claims are the vocabulary above. */
export const LLM_JUDGE_CATALOG: AuditorCatalogEntry = {
  id: LLM_JUDGE_ID,
  name: 'LLM judge',
  description:
    'Scores risk and relevance with a judge model on an OpenAI-compatible endpoint, or with a local heuristic scorer when none is configured.',
  category: 'evaluation',
  phase: 'output_policy',
  icon: 'scale',
  color: '#8b5cf6',
  defaultPort: 8095,
  envVariables: [
    ...standardEnvVariables(),
    {
      name: 'LLM_JUDGE_ENDPOINT',
      description: 'OpenAI-compatible base URL, e.g. http://judge:8000/v1; unset uses the local scorer',
    },
    { name: 'LLM_JUDGE_MODEL', description: 'Judge model name' },
    { name: 'LLM_JUDGE_API_KEY', description: 'Bearer token for the judge endpoint (from a Secret)' },
    {
      name: 'LLM_JUDGE_THRESHOLD',
      description: 'Risk score at which judge_risk_detected turns true',
      default: '0.7',
    },
  ],
  policyOptions: [
    {
      key: 'threshold',
      label: 'Risk threshold',
      description: 'Score at which judge_risk_detected turns true',
    },
  ],
  defaultPolicy: { rules: [], enforcementMode: 'observe' },
  claims: catalogClaims(LLM_JUDGE_VOCABULARY, {
    threshold: { label: 'Risk threshold', min: 0, max: 1, step: 0.05 },
  }),
};
