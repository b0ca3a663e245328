// What the model-context system auditor observes: which model a request is
// for, how many tokens it carries (real BPE counts) and how much of the
// model's context window it uses.
import { catalogClaims } from '../catalog/build.ts';
import { standardEnvVariables } from '../catalog/standard-env.ts';
import type { AuditorCatalogEntry, Vocabulary, VocabularyEntry } from '../sdk/types.ts';

export const MODEL_CONTEXT_ID = 'model-context';
export const MODEL_CONTEXT_VERSION = '1.0.0';

const COUNT = { type: 'integer', minimum: 0 };
const DEFAULT_WINDOW = { key: 'default_context_window', type: 'number', default: 128_000 } as const;
const NEAR_LIMIT = { key: 'near_limit_ratio', type: 'number', default: 0.9 } as const;

export const MODEL_CONTEXT_VOCABULARY: VocabularyEntry[] = [
  {
    name: 'model_id',
    type: 'string',
    description: 'The model the request is for: data.metadata.model_id, else MODEL_ID, else "unknown".',
    value_schema: { type: 'string' },
  },
  {
    name: 'tokenizer_encoding',
    type: 'string',
    description: 'The BPE encoding used to count tokens (o200k_base, cl100k_base, …).',
    value_schema: { type: 'string' },
  },
  {
    name: 'input_tokens',
    type: 'count',
    description: 'Tokens in data.input.',
    value_schema: COUNT,
  },
  {
    name: 'output_tokens',
    type: 'count',
    description: 'Tokens in data.output (response phase).',
    value_schema: COUNT,
  },
  {
    name: 'total_tokens',
    type: 'count',
    description: 'Input plus output tokens.',
    value_schema: COUNT,
  },
  {
    name: 'context_window_tokens',
    type: 'count',
    description:
      "The model's context window; the default_context_window setting for models the tokenizer does not know.",
    value_schema: COUNT,
    settings: [DEFAULT_WINDOW],
  },
  {
    name: 'context_window_usage',
    type: 'score_normalized',
    description: 'total_tokens / context_window_tokens, capped at 1.',
    value_schema: { type: 'number', minimum: 0, maximum: 1 },
    settings: [DEFAULT_WINDOW],
  },
  {
    name: 'context_window_near_limit',
    type: 'boolean',
    description: 'Whether context_window_usage reached near_limit_ratio.',
    value_schema: { type: 'boolean' },
    settings: [DEFAULT_WINDOW, NEAR_LIMIT],
  },
];

export const MODEL_CONTEXT_CONFIGURATION: NonNullable<Vocabulary['configuration']> = {
  require_known_model: {
    type: 'boolean',
    default: false,
    description:
      'Answer UNSUPPORTED_MODEL for a model id the tokenizer does not know instead of approximating.',
  },
};

/** Its catalog entry (spec: Auditor catalog entry): the claims are the vocabulary above. */
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
