// The model-context system auditor (always in the chain, cannot be removed):
// model id, real BPE token counts and context-window use.
import { AuditorError } from '../sdk/errors.ts';
import type { AuditContext, AuditorDefinition, Claim, ClaimsRequest } from '../sdk/types.ts';
import { modelInfo, Tokenizers, type ModelInfo } from './tokenizer.ts';
import {
  MODEL_CONTEXT_CATALOG,
  MODEL_CONTEXT_CONFIGURATION,
  MODEL_CONTEXT_ID,
  MODEL_CONTEXT_VERSION,
  MODEL_CONTEXT_VOCABULARY,
} from './vocabulary.ts';

interface Counts {
  input: number;
  output?: number;
  total: number;
}

function windowClaims(model: ModelInfo, counts: Counts, ctx: AuditContext): Claim[] {
  const fallback = ctx.setting<number>('context_window_tokens', 'default_context_window');
  const window = Math.max(1, Math.round(model.contextWindow ?? fallback));
  const usage = Math.min(1, counts.total / window);
  const ratio = ctx.setting<number>('context_window_near_limit', 'near_limit_ratio');
  const source = { context_window_source: model.contextWindow ? 'model' : 'setting' };
  return [
    { name: 'context_window_tokens', type: 'count', value: window, metadata: source },
    { name: 'context_window_usage', type: 'score_normalized', value: usage, metadata: source },
    { name: 'context_window_near_limit', type: 'boolean', value: usage >= ratio, metadata: source },
  ];
}

/** Refuses an unknown model when the deployment requires known ones (`unknown` itself is let through). */
function requireKnownModel(model: ModelInfo, modelId: string, ctx: AuditContext): void {
  if (model.known || modelId === 'unknown' || ctx.config?.<boolean>('require_known_model') !== true) return;
  throw new AuditorError('UNSUPPORTED_MODEL', `model '${modelId}' is not known to the tokenizer`, {
    model_id: modelId,
  });
}

/** Token counts of the input and, in the response phase, the output. */
async function countTokens(
  tokenizers: Tokenizers,
  model: ModelInfo,
  request: ClaimsRequest,
): Promise<Counts> {
  const input = await tokenizers.count(model.encoding, request.data.input ?? '');
  const output =
    request.phase === 'response'
      ? await tokenizers.count(model.encoding, request.data.output ?? '')
      : undefined;
  const counts: Counts = { input, total: input + (output ?? 0) };
  if (output !== undefined) counts.output = output;
  return counts;
}

function tokenClaims(modelId: string, model: ModelInfo, counts: Counts): Claim[] {
  const exactness = {
    confidence: model.exact ? 1 : 0.85,
    metadata: { encoding: model.encoding, exact: model.exact },
  };
  const claims: Claim[] = [
    { name: 'model_id', type: 'string', value: modelId, metadata: { known_model: Boolean(model.known) } },
    { name: 'tokenizer_encoding', type: 'string', value: model.encoding },
    { name: 'input_tokens', type: 'count', value: counts.input, ...exactness },
    { name: 'total_tokens', type: 'count', value: counts.total, ...exactness },
  ];
  if (counts.output !== undefined)
    claims.push({ name: 'output_tokens', type: 'count', value: counts.output, ...exactness });
  return claims;
}

export function createModelContext(): AuditorDefinition {
  const tokenizers = new Tokenizers();
  let defaultModel = 'unknown';

  const audit = async (request: ClaimsRequest, ctx: AuditContext): Promise<Claim[]> => {
    const modelId = request.data.metadata?.model_id ?? defaultModel;
    const model = modelInfo(modelId);
    requireKnownModel(model, modelId, ctx);
    const counts = await countTokens(tokenizers, model, request);
    return [...tokenClaims(modelId, model, counts), ...windowClaims(model, counts, ctx)];
  };

  return {
    id: MODEL_CONTEXT_ID,
    version: MODEL_CONTEXT_VERSION,
    defaultPort: MODEL_CONTEXT_CATALOG.defaultPort,
    phases: ['request', 'response'],
    vocabulary: MODEL_CONTEXT_VOCABULARY,
    configuration: MODEL_CONTEXT_CONFIGURATION,
    catalog: MODEL_CONTEXT_CATALOG,
    load: async (runtime) => {
      defaultModel = (runtime?.env ?? process.env).MODEL_ID?.trim() || 'unknown';
      await tokenizers.preload();
    },
    audit,
  };
}
