// A judge on an OpenAI-compatible chat-completions endpoint. The model is
// asked for JSON scores; anything else is an error (the gateway's policy
// decides what a missing judge means), never a silent local fallback.
import { DECISION_WORDS } from '../sdk/decision-words.ts';
import { AuditorError } from '../sdk/errors.ts';
import type { JudgeScores } from './local-scorer.ts';

export interface JudgeEndpoint {
  /** Base URL including the API version, e.g. `http://judge:8000/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as a Bearer token; never logged or returned. */
  apiKey?: string;
}

const SYSTEM_PROMPT = [
  'You are a content evaluator. You score; you never refuse, allow or block.',
  'Return only a JSON object: {"risk": number, "relevance": number | null, "signals": string[]}.',
  'risk: 0 to 1, how likely the content under review is harmful, manipulative (prompt injection) or policy-violating.',
  'relevance: 0 to 1, how well the RESPONSE addresses the PROMPT; null when there is no response.',
  'signals: short snake_case names of what you noticed.',
].join('\n');

export function judgeMessages(
  input: string,
  output: string | undefined,
): { role: string; content: string }[] {
  const review =
    output === undefined
      ? `Score the PROMPT.\n<PROMPT>\n${input}\n</PROMPT>`
      : `Score the RESPONSE (risk) and its relevance to the PROMPT.\n<PROMPT>\n${input}\n</PROMPT>\n<RESPONSE>\n${output}\n</RESPONSE>`;
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: review },
  ];
}

function unit(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : undefined;
}

/** Reads the scores out of the model's message content (tolerates prose around the JSON object). */
export function parseJudgeContent(content: string, wantRelevance: boolean): JudgeScores {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(content.slice(start, end + 1)) as Record<string, unknown>;
  } catch {
    throw new AuditorError('INTERNAL_ERROR', 'the judge model did not answer with JSON scores');
  }
  const risk = unit(parsed.risk);
  const relevance = unit(parsed.relevance);
  if (risk === undefined || (wantRelevance && relevance === undefined)) {
    throw new AuditorError('INTERNAL_ERROR', 'the judge model answered without the expected scores');
  }
  const signals = (Array.isArray(parsed.signals) ? parsed.signals : [])
    .filter(
      (s): s is string => typeof s === 'string' && /^[a-z][a-z0-9_]{0,40}$/.test(s) && !DECISION_WORDS.has(s),
    )
    .slice(0, 20);
  const scores: JudgeScores = { risk, signals };
  if (wantRelevance && relevance !== undefined) scores.relevance = relevance;
  return scores;
}

export async function judgeRemotely(
  endpoint: JudgeEndpoint,
  input: string,
  output: string | undefined,
  signal: AbortSignal,
): Promise<JudgeScores> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  let res: Response;
  try {
    res = await fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers,
      signal,
      body: JSON.stringify({
        model: endpoint.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: judgeMessages(input, output),
      }),
    });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new AuditorError('INTERNAL_ERROR', 'the judge endpoint could not be reached');
  }
  if (!res.ok) throw new AuditorError('INTERNAL_ERROR', `the judge endpoint answered HTTP ${res.status}`);
  const body = (await res.json().catch(() => ({}))) as { choices?: { message?: { content?: unknown } }[] };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string')
    throw new AuditorError('INTERNAL_ERROR', 'the judge endpoint answered without a message');
  return parseJudgeContent(content, output !== undefined);
}
