// The agent's two kinds of outbound call, each logged as one JSON line and
// counted: a chat completion to its model, and a plain HTTP call to a tool.
// The API key goes only into the Authorization header; no log line holds
// it, a header, a prompt or a query string.
import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../base/log.ts';
import { CallFailed, httpCall, type HttpCall } from './http-call.ts';
import { loggedUrl } from './input.ts';
import { classifyModelAnswer, type ModelOutcome } from './outcome.ts';

export interface ClientOptions {
  modelBase: string;
  modelId: string;
  apiKey?: string;
  timeoutMs: number;
  log: Logger;
  registry: Registry;
}

export type Failure = { ok: false; code: string; detail: string };
export type ModelCall = ({ ok: true } & ModelOutcome) | Failure;
export type ToolCall = { ok: true; status: number; bytes: number } | Failure;

export interface ModelRequest {
  prompt: string;
  stream?: boolean;
  model?: string;
  /** What made the call, for the log: `startup` or `ask`. */
  trigger: string;
}

export interface AgentClient {
  model(request: ModelRequest): Promise<ModelCall>;
  tool(url: string, method: string, trigger: string): Promise<ToolCall>;
}

const MAX_MODEL_ANSWER_BYTES = 8 * 1024 * 1024;
const MAX_TOOL_ANSWER_BYTES = 64 * 1024 * 1024;

const failure = (err: unknown): Failure =>
  err instanceof CallFailed
    ? { ok: false, code: err.code, detail: err.message }
    : { ok: false, code: 'error', detail: (err as Error).message };

function callCounters(registry: Registry): { model: Counter<string>; tool: Counter<string> } {
  return {
    model: new Counter({
      name: 'platform_agent_model_calls_total',
      help: 'Model calls made, by decision (allow, deny, error when no answer came) and HTTP status',
      labelNames: ['decision', 'status'],
      registers: [registry],
    }),
    tool: new Counter({
      name: 'platform_agent_tool_calls_total',
      help: 'Tool calls made, by HTTP status (error when no answer came)',
      labelNames: ['status'],
      registers: [registry],
    }),
  };
}

/** The chat-completions call for one prompt; the API key, when set, only as a Bearer token. */
export function chatCall(o: Omit<ClientOptions, 'log' | 'registry'>, r: ModelRequest): HttpCall {
  const stream = r.stream === true;
  return {
    method: 'POST',
    url: `${o.modelBase}/chat/completions`,
    headers: {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}),
    },
    body: JSON.stringify({
      model: r.model ?? o.modelId,
      messages: [{ role: 'user', content: r.prompt }],
      stream,
    }),
    timeoutMs: o.timeoutMs,
    maxBytes: MAX_MODEL_ANSWER_BYTES,
    keepBody: true,
  };
}

/** The log line of an answered model call: what it came to and how long the answer was, never its text. */
export function modelCallFields(r: ModelRequest, outcome: ModelOutcome): Record<string, unknown> {
  return {
    trigger: r.trigger,
    status: outcome.status,
    decision: outcome.decision,
    evidence_id: outcome.evidence_id ?? null,
    answer_chars: outcome.answer.length,
    stream: r.stream === true,
    ...(outcome.decision_reasons ? { decision_reasons: outcome.decision_reasons } : {}),
  };
}

export function createAgentClient(o: ClientOptions): AgentClient {
  const counters = callCounters(o.registry);

  const model = async (r: ModelRequest): Promise<ModelCall> => {
    const call = chatCall(o, r);
    try {
      const answer = await httpCall(call);
      const outcome = classifyModelAnswer(answer.status, answer.headers, answer.body);
      counters.model.inc({ decision: outcome.decision, status: String(outcome.status) });
      o.log.info(modelCallFields(r, outcome), 'model call');
      return { ok: true, ...outcome };
    } catch (err) {
      const f = failure(err);
      counters.model.inc({ decision: 'error', status: 'error' });
      const fields = {
        trigger: r.trigger,
        status: 0,
        error: f.code,
        detail: f.detail,
        url: loggedUrl(call.url),
      };
      o.log.warn(fields, 'model call');
      return f;
    }
  };

  const tool = async (url: string, method: string, trigger: string): Promise<ToolCall> => {
    const fields = { trigger, url: loggedUrl(url), method };
    try {
      const call = { method, url, timeoutMs: o.timeoutMs, maxBytes: MAX_TOOL_ANSWER_BYTES, keepBody: false };
      const answer = await httpCall(call);
      counters.tool.inc({ status: String(answer.status) });
      o.log.info({ ...fields, status: answer.status, bytes: answer.bytes }, 'tool call');
      return { ok: true, status: answer.status, bytes: answer.bytes };
    } catch (err) {
      const f = failure(err);
      counters.tool.inc({ status: 'error' });
      o.log.warn({ ...fields, status: 0, error: f.code, detail: f.detail }, 'tool call');
      return f;
    }
  };

  return { model, tool };
}
