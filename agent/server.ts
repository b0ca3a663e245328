// The reference agent's trigger endpoints, so a test can make it act inside
// its pod from outside:
//   POST /v1/ask  {prompt, stream?, model?} → one model call now
//   POST /v1/tool {url, method?}            → one HTTP call now
// Both answer 200 with what the call came to, 502 when no answer came, 422
// for a bad body and 413 for an oversized one. Reaching any URL on request is
// the point here: this is a test agent inside a sandboxed pod, not a service.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBodyResult } from '../base/body.ts';
import { pathOf, sendJson, type Handler } from '../base/http-service.ts';
import type { AgentClient } from './calls.ts';
import { parseAsk, parseTool, type Checked } from './input.ts';

const ROUTES = new Set(['/v1/ask', '/v1/tool']);

export function routeOf(path: string): string {
  return ROUTES.has(path) ? path : 'other';
}

export function internalError(res: ServerResponse): void {
  sendJson(res, 500, { detail: 'internal error' });
}

/** The checked body, or undefined when an error answer has been sent. */
async function readChecked<T>(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
  parse: (raw: Buffer) => Checked<T>,
): Promise<T | undefined> {
  const body = await readBodyResult(req, maxBytes);
  if (!body.ok && body.reason === 'too_large') {
    sendJson(res, 413, { detail: `the body is larger than ${maxBytes} bytes` });
    return undefined;
  }
  if (!body.ok) {
    res.destroy();
    return undefined;
  }
  const checked = parse(body.bytes);
  if (!checked.ok) {
    sendJson(res, 422, { detail: checked.detail });
    return undefined;
  }
  return checked.value;
}

export function agentHandler(client: AgentClient, maxBodyBytes: number): Handler {
  const ask = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const input = await readChecked(req, res, maxBodyBytes, parseAsk);
    if (!input) return;
    const call = await client.model({ ...input, trigger: 'ask' });
    if (!call.ok) return sendJson(res, 502, { detail: `model call failed: ${call.detail}`, code: call.code });
    const { ok: _ok, ...outcome } = call;
    sendJson(res, 200, { ...outcome, evidence_id: outcome.evidence_id ?? null });
  };

  const tool = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const input = await readChecked(req, res, maxBodyBytes, parseTool);
    if (!input) return;
    const call = await client.tool(input.url, input.method, 'tool');
    if (!call.ok) return sendJson(res, 502, { detail: `tool call failed: ${call.detail}`, code: call.code });
    sendJson(res, 200, { status: call.status, bytes: call.bytes });
  };

  return async (req, res) => {
    const path = pathOf(req);
    if (!ROUTES.has(path)) return sendJson(res, 404, { detail: 'not found' });
    if (req.method !== 'POST') return sendJson(res, 405, { detail: 'method not allowed' }, { allow: 'POST' });
    return path === '/v1/ask' ? ask(req, res) : tool(req, res);
  };
}
