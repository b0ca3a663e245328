// The Gateway's HTTP surface on one port (8099 in a pod):
//   POST /v1/evaluate              {data, phase, platform_context} → signed Evidence
//   POST /v1/auditors/register     self-registration, relayed to the Verifier
//   GET  /healthz /readyz /metrics
//   anything else                  the in-pod request path: evaluate the
//                                  request, forward to the model when
//                                  allowed, evaluate the response
import { BodyAbortedError, readBoundedBody, syntaxProblem } from '../base/body.ts';
import { HttpError } from '../base/http-error.ts';
import { listenDualStack } from '../base/listen.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Counter, Histogram, type Registry } from 'prom-client';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Logger } from '../base/log.ts';
import { isPrintableId } from '../evidence/validate.ts';
import { REQUEST_PHASES, type RequestPhase } from '../auditors/sdk/types.ts';
import type { EvidenceForwarder } from './forwarder.ts';
import { callJson } from '../base/http-client.ts';
import { modelTarget } from './model-url.ts';
import type { EvaluateInput, EvaluateResult, Pipeline } from './pipeline.ts';
import type { AuditorRegistry } from './registry.ts';
import { subagentOf } from '../contract/subagent.ts';

export interface GatewayServerOptions {
  pipeline: Pipeline;
  registry: AuditorRegistry;
  forwarder: EvidenceForwarder;
  metrics: Registry;
  log: Logger;
  apiKey?: string;
  modelUrl?: string;
  maxBodyBytes: number;
  readiness: () => string;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    ...headers,
  });
  res.end(text);
}

/** The prompt text of a model request: chat messages, `prompt` or `input`, else the raw body. */
export function inputOf(raw: Buffer): string {
  try {
    const b = JSON.parse(raw.toString('utf8')) as {
      messages?: { content?: unknown }[];
      prompt?: unknown;
      input?: unknown;
    };
    if (Array.isArray(b.messages))
      return b.messages
        .map((m) => (typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '')))
        .join('\n');
    if (typeof b.prompt === 'string') return b.prompt;
    if (typeof b.input === 'string') return b.input;
  } catch {
    /* not JSON */
  }
  return raw.toString('utf8');
}

/**
 * What the auditors' `data.metadata` says about a model call: the session
 * (`x-session-id`), the model the body names (`model`) and the end user it
 * names (`user`, else `x-user-id`). Values that are not short printable ids
 * are left out rather than passed on.
 */
export function metadataOf(raw: Buffer, headers: IncomingMessage['headers']): Record<string, string> {
  let body: { model?: unknown; user?: unknown } = {};
  try {
    const parsed = JSON.parse(raw.toString('utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null) body = parsed;
  } catch {
    /* not JSON: no model or user named */
  }
  const header = (name: string): unknown => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const candidates: Record<string, unknown> = {
    session_id: header('x-session-id'),
    model_id: body.model,
    user_id: typeof body.user === 'string' ? body.user : header('x-user-id'),
  };
  const out: Record<string, string> = {};
  // The same check the Verifier applies at intake: what passes here is never refused there.
  for (const [k, v] of Object.entries(candidates)) if (isPrintableId(v)) out[k] = v;
  return out;
}

/** The model's answer text: chat choices, completion text or `output`, else the raw body. */
export function outputOf(raw: Buffer): string {
  try {
    const b = JSON.parse(raw.toString('utf8')) as {
      choices?: { message?: { content?: unknown }; text?: unknown }[];
      output?: unknown;
    };
    if (Array.isArray(b.choices))
      return b.choices.map((c) => String(c?.message?.content ?? c?.text ?? '')).join('\n');
    if (typeof b.output === 'string') return b.output;
  } catch {
    /* not JSON */
  }
  return raw.toString('utf8');
}

/** The Gateway's decision metrics, registered on `metrics`. */
function gatewayMetrics(metrics: Registry) {
  return {
    decisions: new Counter({
      name: 'platform_gateway_decisions_total',
      help: 'Decisions by outcome',
      labelNames: ['decision', 'blocked', 'phase'],
      registers: [metrics],
    }),
    auditorErrors: new Counter({
      name: 'platform_gateway_auditor_errors_total',
      help: 'Auditor calls that ended in an error',
      labelNames: ['auditor', 'code'],
      registers: [metrics],
    }),
    added: new Histogram({
      name: 'platform_gateway_added_seconds',
      help: 'Evaluation time beyond the slowest auditor',
      buckets: [0.0005, 0.001, 0.002, 0.003, 0.005, 0.01, 0.05],
      registers: [metrics],
    }),
  };
}

/** Whether a request carries `Bearer <apiKey>` (compared by digest, in constant time); never without a key. */
function bearerCheck(apiKey: string | undefined): (req: IncomingMessage) => boolean {
  const keyDigest = apiKey ? createHash('sha256').update(apiKey).digest() : undefined;
  return (req) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    return Boolean(keyDigest && m && timingSafeEqual(createHash('sha256').update(m[1]!).digest(), keyDigest));
  };
}

/** What the request handlers share: the options, one evaluation (counted and forwarded), the key check. */
interface GatewayContext {
  o: GatewayServerOptions;
  evaluate: (input: EvaluateInput) => Promise<EvaluateResult>;
  authorized: (req: IncomingMessage) => boolean;
}

function evaluator(o: GatewayServerOptions): GatewayContext['evaluate'] {
  const { decisions, auditorErrors, added } = gatewayMetrics(o.metrics);
  return async (input) => {
    await o.registry.refreshVocabularies();
    const r = await o.pipeline.evaluate(input);
    decisions.inc({ decision: r.evidence.decision, blocked: String(r.blocked), phase: input.phase });
    for (const a of r.evidence.auditors)
      if (a.error) auditorErrors.inc({ auditor: a.auditor_id, code: a.error.code });
    added.observe(Math.max(0, r.timings.totalMs - r.timings.slowestAuditorMs) / 1000);
    o.forwarder.submit(r.evidence);
    return r;
  };
}

const isEvaluateInput = (body: Partial<EvaluateInput>): body is EvaluateInput =>
  REQUEST_PHASES.includes(body.phase as RequestPhase) && typeof body.data === 'object' && body.data !== null;

/**
 * The subagent a call names (`x-platform-subagent`), or undefined after
 * answering 400 `invalid_subagent` for a malformed one. The header is the
 * agent's to the Gateway: never forwarded to the model.
 */
function subagentOrRefuse(req: IncomingMessage, res: ServerResponse): { subagent?: string } | undefined {
  const named = subagentOf(req.headers);
  if (!named.ok) {
    send(res, 400, { detail: named.problem, code: 'invalid_subagent' });
    return undefined;
  }
  return named.subagent ? { subagent: named.subagent } : {};
}

async function handleEvaluate(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const attribution = subagentOrRefuse(req, res);
  if (!attribution) return;
  const body = JSON.parse(
    (await readBoundedBody(req, ctx.o.maxBodyBytes)).toString('utf8') || '{}',
  ) as Partial<EvaluateInput>;
  if (!isEvaluateInput(body)) {
    return send(res, 400, {
      detail: `send {data, phase} with phase one of ${REQUEST_PHASES.join(', ')}`,
      code: 'invalid_request',
    });
  }
  // Only the header names a subagent: one in the body is not the agent runtime's word.
  const { subagent: _fromBody, ...input } = body;
  const r = await ctx.evaluate({ ...input, ...attribution });
  send(res, 200, r.evidence, {
    'x-platform-decision': r.evidence.decision,
    'x-platform-evidence-id': r.evidence.evidence_id,
  });
}

function blocked(res: ServerResponse, r: EvaluateResult): void {
  send(res, 403, {
    detail: 'blocked by policy',
    code: 'blocked_by_policy',
    evidence_id: r.evidence.evidence_id,
    decision_reasons: r.evidence.decision_reasons,
  });
}

async function handleModelPath(
  ctx: GatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { o, evaluate } = ctx;
  const attribution = subagentOrRefuse(req, res);
  if (!attribution) return;
  const raw = await readBoundedBody(req, o.maxBodyBytes);
  const meta = metadataOf(raw, req.headers);
  const before = await evaluate({
    data: { input: inputOf(raw), metadata: meta },
    phase: 'request',
    ...attribution,
  });
  if (before.blocked) return blocked(res, before);
  if (!o.modelUrl) return send(res, 502, { detail: 'PLATFORM_MODEL_URL is not set', code: 'no_model' });
  const answer = await callJson(modelTarget(o.modelUrl, req.url ?? '/'), {
    method: req.method === 'GET' ? 'GET' : 'POST',
    ...(req.method === 'GET' ? {} : { body: JSON.parse(raw.toString('utf8') || 'null') as unknown }),
    timeoutMs: 120_000,
    headers: req.headers.authorization ? { authorization: req.headers.authorization } : {},
  });
  const after = await evaluate({
    data: { input: inputOf(raw), output: outputOf(answer.body), metadata: meta },
    phase: 'response',
    ...attribution,
  });
  if (after.blocked) return blocked(res, after);
  res.writeHead(answer.status, {
    'content-type': 'application/json',
    'x-platform-evidence-id': after.evidence.evidence_id,
  });
  res.end(answer.body);
}

async function handleRegister(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = JSON.parse((await readBoundedBody(req, 64 * 1024)).toString('utf8') || '{}') as object;
  const [status, answer] = await ctx.o.registry.register(body, ctx.authorized(req));
  send(res, status, answer);
}

type Handler = (ctx: GatewayContext, req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** `METHOD path` → handler; anything else is the in-pod model path. */
const ROUTES: Record<string, Handler> = {
  'GET /healthz': (_ctx, _req, res) => send(res, 200, { status: 'ok' }),
  'GET /readyz': ({ o }, _req, res) => {
    const why = o.readiness();
    send(res, why ? 503 : 200, why ? { status: 'fail', detail: why } : { status: 'ok' });
  },
  'GET /metrics': async ({ o }, _req, res) =>
    send(res, 200, await o.metrics.metrics(), { 'content-type': o.metrics.contentType }),
  'POST /v1/evaluate': handleEvaluate,
  'POST /v1/auditors/register': handleRegister,
};

async function route(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  const handler = Object.hasOwn(ROUTES, `${req.method} ${path}`)
    ? ROUTES[`${req.method} ${path}`]!
    : handleModelPath;
  return handler(ctx, req, res);
}

/** The answer to a request whose handling threw: the client's fault is a 4xx, anything else a logged 500. */
function answerFailure(res: ServerResponse, err: unknown, log: Logger): void {
  if (res.headersSent || err instanceof BodyAbortedError) return void res.destroy();
  if (err instanceof HttpError)
    return send(res, err.status, { detail: err.detail, code: 'payload_too_large' }, err.headers);
  if (err instanceof SyntaxError)
    return send(res, 400, { detail: `malformed JSON: ${syntaxProblem(err)}`, code: 'malformed_json' });
  log.error({ err }, 'gateway request failed');
  send(res, 500, { detail: 'internal error', code: 'internal' });
}

export function startGatewayServer(o: GatewayServerOptions, port: number, host: string): Promise<Server> {
  const ctx: GatewayContext = { o, evaluate: evaluator(o), authorized: bearerCheck(o.apiKey) };
  const server = createServer((req, res) => {
    route(ctx, req, res).catch((err: unknown) => answerFailure(res, err, o.log));
  });
  return listenDualStack(server, port, host).then(() => server);
}
