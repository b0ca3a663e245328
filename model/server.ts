// The local model server's OpenAI-compatible surface:
//   GET  /v1/models, /v1/models/{id}   the configured model ids
//   POST /v1/chat/completions          a deterministic answer, whole or streamed (SSE)
// Every failure is answered in OpenAI's error shape; bad input is a 4xx, never a 500.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, type Registry } from 'prom-client';
import { readBodyResult } from '../base/body.ts';
import { pathOf, sendJson, type Handler } from '../base/http-service.ts';
import { complete, completionBody, sseFrames, streamChunks, type Completion } from './completion.ts';
import { apiError, modelNotFound, parseChatRequest, type ApiError } from './request.ts';

export interface ModelServerOptions {
  modelIds: readonly string[];
  maxBodyBytes: number;
  /** Unix seconds stamped on the models and on every completion: the same request, the same bytes. */
  created: number;
  registry: Registry;
}

const CHAT = '/v1/chat/completions';
const MODELS = '/v1/models';

/** The metrics label of a path (a fixed set, whatever the client asks for). */
export function routeOf(path: string): string {
  if (path === CHAT || path === MODELS) return path;
  if (path.startsWith(`${MODELS}/`)) return `${MODELS}/{id}`;
  return 'other';
}

/** A malformed escape stays as sent: it then names no model, which is a 404, not a 500. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const sendError = (res: ServerResponse, e: ApiError): void => sendJson(res, e.status, e.body);

export function internalError(res: ServerResponse): void {
  const error = {
    message: 'The server failed to answer.',
    type: 'server_error',
    param: null,
    code: null,
  } as const;
  sendError(res, { status: 500, body: { error } });
}

function completionMetrics(registry: Registry): (c: Completion, stream: boolean) => void {
  const completions = new Counter({
    name: 'platform_model_completions_total',
    help: 'Chat completions answered, by model, stream mode and finish reason',
    labelNames: ['model', 'stream', 'finish_reason'],
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'platform_model_tokens_total',
    help: 'Tokens counted in answered chat completions, prompt and completion',
    labelNames: ['kind'],
    registers: [registry],
  });
  return (c, stream) => {
    completions.inc({ model: c.model, stream: String(stream), finish_reason: c.finishReason });
    tokens.inc({ kind: 'prompt' }, c.usage.prompt_tokens);
    tokens.inc({ kind: 'completion' }, c.usage.completion_tokens);
  };
}

function writeStream(res: ServerResponse, c: Completion, includeUsage: boolean): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const frame of sseFrames(streamChunks(c, includeUsage))) res.write(frame);
  res.end();
}

export function modelHandler(o: ModelServerOptions): Handler {
  const served = new Set(o.modelIds);
  const record = completionMetrics(o.registry);
  const modelObject = (id: string): Record<string, unknown> => ({
    id,
    object: 'model',
    created: o.created,
    owned_by: 'agent-platform',
  });

  const chat = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBodyResult(req, o.maxBodyBytes);
    if (!body.ok && body.reason === 'too_large') {
      return sendError(
        res,
        apiError(413, `The request body is larger than ${o.maxBodyBytes} bytes.`, null, 'request_too_large'),
      );
    }
    if (!body.ok) return void res.destroy();
    const parsed = parseChatRequest(body.bytes);
    if ('status' in parsed) return sendError(res, parsed);
    if (!served.has(parsed.model)) return sendError(res, modelNotFound(parsed.model));
    const c = complete(parsed, o.created);
    record(c, parsed.stream);
    if (parsed.stream) return writeStream(res, c, parsed.includeUsage);
    sendJson(res, 200, completionBody(c));
  };

  const models = async (_req: IncomingMessage, res: ServerResponse): Promise<void> =>
    sendJson(res, 200, { object: 'list', data: o.modelIds.map(modelObject) });
  const oneModel = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const id = safeDecode(pathOf(req).slice(MODELS.length + 1));
    return served.has(id) ? sendJson(res, 200, modelObject(id)) : sendError(res, modelNotFound(id));
  };
  const routes: Record<string, { method: 'GET' | 'POST'; answer: Handler }> = {
    [CHAT]: { method: 'POST', answer: chat },
    [MODELS]: { method: 'GET', answer: models },
    [`${MODELS}/{id}`]: { method: 'GET', answer: oneModel },
  };

  return async (req, res) => {
    const path = pathOf(req);
    const route = routes[routeOf(path)];
    // HEAD is a GET without the body; Node's response drops the body by itself.
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (route && method === route.method) return route.answer(req, res);
    const [status, code] = route ? [405, 'method_not_allowed'] : [404, 'unknown_url'];
    sendError(res, apiError(status, `Invalid URL (${req.method ?? 'GET'} ${path})`, null, code));
  };
}
