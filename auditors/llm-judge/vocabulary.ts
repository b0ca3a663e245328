// What the llm-judge system auditor observes: a judge's risk score for the
// content, whether it reached the threshold, and (response phase) how relevant
// the response is to the prompt. Claims name the judge that produced them.
import type { Vocabulary, VocabularyEntry } from '../sdk/types.ts';

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
