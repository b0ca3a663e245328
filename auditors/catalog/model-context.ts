// Catalog entry of the model-context system auditor.
import { MODEL_CONTEXT_ID, MODEL_CONTEXT_VOCABULARY } from '../model-context/vocabulary.ts';
import type { AuditorCatalogEntry } from '../sdk/types.ts';
import { catalogClaims } from './build.ts';
import { standardEnvVariables } from './standard-env.ts';

export const MODEL_CONTEXT_CATALOG: AuditorCatalogEntry = {
  id: MODEL_CONTEXT_ID,
  name: 'Model context',
  description:
    'Records the model, real BPE token counts and context-window use of every request and response.',
  category: 'observability',
  phase: 'input_guarding',
  icon: 'gauge',
  color: '#0ea5e9',
  defaultPort: 8094,
  envVariables: [
    ...standardEnvVariables(),
    {
      name: 'MODEL_CONTEXT_DEFAULT_CONTEXT_WINDOW',
      description: 'Context window for models the tokenizer does not know',
      default: '128000',
    },
    {
      name: 'MODEL_CONTEXT_NEAR_LIMIT_RATIO',
      description: 'Usage ratio at which context_window_near_limit turns true',
      default: '0.9',
    },
    {
      name: 'MODEL_CONTEXT_REQUIRE_KNOWN_MODEL',
      description: 'Answer UNSUPPORTED_MODEL for unknown models',
      default: 'false',
    },
  ],
  policyOptions: [
    {
      key: 'near_limit_ratio',
      label: 'Near-limit ratio',
      description: 'When a request counts as close to the context window',
    },
  ],
  defaultPolicy: { rules: [], enforcementMode: 'observe' },
  claims: catalogClaims(MODEL_CONTEXT_VOCABULARY, {
    default_context_window: {
      label: 'Default context window',
      min: 1024,
      max: 2_000_000,
      step: 1024,
      unit: 'tokens',
      control: 'number',
    },
    near_limit_ratio: { label: 'Near-limit ratio', min: 0.5, max: 1, step: 0.01, unit: 'ratio' },
  }),
};
