// The bodies of the agent's trigger endpoints, checked: `POST /v1/ask` and
// `POST /v1/tool`. A problem is one sentence for a 422 `{detail}`.
import { isPrintableId } from '../evidence/validate.ts';

export interface AskInput {
  prompt: string;
  stream: boolean;
  model?: string;
}

export interface ToolInput {
  url: string;
  method: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; detail: string };

const TOOL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function jsonObject(raw: Buffer): Checked<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, detail: 'the body is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, detail: 'the body must be a JSON object' };
  return { ok: true, value: value as Record<string, unknown> };
}

export function parseAsk(raw: Buffer): Checked<AskInput> {
  const body = jsonObject(raw);
  if (!body.ok) return body;
  const { prompt, stream, model } = body.value;
  if (typeof prompt !== 'string' || prompt.trim() === '')
    return { ok: false, detail: 'prompt: a non-empty string is required' };
  if (stream !== undefined && typeof stream !== 'boolean') return { ok: false, detail: 'stream: a boolean' };
  if (model !== undefined && !isPrintableId(model))
    return { ok: false, detail: 'model: 1-253 printable characters' };
  return { ok: true, value: { prompt, stream: stream === true, ...(model ? { model } : {}) } };
}

export function parseTool(raw: Buffer): Checked<ToolInput> {
  const body = jsonObject(raw);
  if (!body.ok) return body;
  const { url, method = 'GET' } = body.value;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol))
    return { ok: false, detail: 'url: an absolute http(s) URL is required' };
  const verb = typeof method === 'string' ? method.toUpperCase() : '';
  if (!TOOL_METHODS.includes(verb)) return { ok: false, detail: `method: one of ${TOOL_METHODS.join(', ')}` };
  return { ok: true, value: { url: parsed.href, method: verb } };
}

/** A URL as logged: scheme, host and path only; user info, query and fragment may carry secrets. */
export function loggedUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '[unparsable url]';
  }
}
