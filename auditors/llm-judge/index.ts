// The llm-judge system auditor (always in the chain, cannot be removed): a
// judge's risk and relevance scores from an OpenAI-compatible endpoint when
// one is configured (LLM_JUDGE_ENDPOINT, LLM_JUDGE_MODEL, LLM_JUDGE_API_KEY),
// otherwise from a local heuristic scorer whose claims say that no judge
// model was used.
import { resolveConfiguration } from '../sdk/settings.ts';
import type {
  AuditContext,
  AuditorDefinition,
  AuditorRuntime,
  Claim,
  ClaimsRequest,
  SettingValue,
} from '../sdk/types.ts';
import { localScores, type JudgeScores } from './local-scorer.ts';
import { judgeRemotely, type JudgeEndpoint } from './openai-judge.ts';
import {
  LLM_JUDGE_CATALOG,
  LLM_JUDGE_CONFIGURATION,
  LLM_JUDGE_ID,
  LLM_JUDGE_VERSION,
  LLM_JUDGE_VOCABULARY,
  LOCAL_SCORER,
} from './vocabulary.ts';

function endpointFrom(runtime: Pick<AuditorRuntime, 'env' | 'config'>): JudgeEndpoint | undefined {
  const baseUrl = runtime.config<string | null>('endpoint');
  if (!baseUrl) return undefined;
  const url = new URL(baseUrl); // a malformed URL fails loading, visibly
  if (!/^https?:$/.test(url.protocol)) throw new Error('LLM_JUDGE_ENDPOINT must be an http(s) URL');
  const endpoint: JudgeEndpoint = { baseUrl, model: runtime.config<string | null>('model') ?? 'judge' };
  const apiKey = runtime.env.LLM_JUDGE_API_KEY;
  if (apiKey) endpoint.apiKey = apiKey;
  return endpoint;
}

function claimsOf(scores: JudgeScores, judge: string, usedModel: boolean, ctx: AuditContext): Claim[] {
  const metadata: Record<string, unknown> = usedModel
    ? { judge_model_used: true, scorer: 'openai-compatible', judge_model: judge }
    : {
        judge_model_used: false,
        scorer: LOCAL_SCORER,
        note: 'no judge model configured; scored by the local heuristic scorer',
      };
  const confidence = usedModel ? 0.8 : 0.5;
  const detail = { signals: scores.signals };
  const threshold = ctx.setting<number>('judge_risk_detected', 'threshold');
  const claims: Claim[] = [
    { name: 'judge_risk_score', type: 'score_normalized', value: scores.risk, confidence, metadata, detail },
    { name: 'judge_risk_detected', type: 'boolean', value: scores.risk >= threshold, confidence, metadata },
    { name: 'judge_model', type: 'string', value: judge, metadata },
  ];
  if (scores.relevance !== undefined) {
    claims.push({
      name: 'judge_relevance_score',
      type: 'score_normalized',
      value: scores.relevance,
      confidence,
      metadata,
    });
  }
  return claims;
}

/** Configuration straight from process.env, for a harness that calls `load()` without the SDK. */
function standalone(): Pick<AuditorRuntime, 'env' | 'config'> {
  const { values } = resolveConfiguration(
    { id: LLM_JUDGE_ID, configuration: LLM_JUDGE_CONFIGURATION },
    process.env,
  );
  return { env: process.env, config: <T extends SettingValue>(key: string) => values[key] as T };
}

export function createLlmJudge(): AuditorDefinition {
  let endpoint: JudgeEndpoint | undefined;

  const audit = async (request: ClaimsRequest, ctx: AuditContext): Promise<Claim[]> => {
    const input = request.data.input ?? '';
    const output = request.phase === 'response' ? (request.data.output ?? '') : undefined;
    if (!endpoint) return claimsOf(localScores(input, output), LOCAL_SCORER, false, ctx);
    const scores = await judgeRemotely(endpoint, input, output, ctx.signal);
    return claimsOf(scores, endpoint.model, true, ctx);
  };

  return {
    id: LLM_JUDGE_ID,
    version: LLM_JUDGE_VERSION,
    defaultPort: LLM_JUDGE_CATALOG.defaultPort,
    phases: ['request', 'response'],
    vocabulary: LLM_JUDGE_VOCABULARY,
    configuration: LLM_JUDGE_CONFIGURATION,
    catalog: LLM_JUDGE_CATALOG,
    load: async (runtime) => {
      endpoint = endpointFrom(runtime ?? standalone());
      runtime?.log.info(
        endpoint ? { judge: 'openai-compatible', model: endpoint.model } : { judge: LOCAL_SCORER },
        endpoint ? 'judge model configured' : 'no judge model configured; using the local scorer',
      );
    },
    audit,
  };
}
