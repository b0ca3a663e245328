// Catalog entry of the llm-judge system auditor.
import { LLM_JUDGE_ID, LLM_JUDGE_VOCABULARY } from '../llm-judge/vocabulary.ts';
import type { AuditorCatalogEntry } from '../sdk/types.ts';
import { catalogClaims } from './build.ts';
import { standardEnvVariables } from './standard-env.ts';

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
