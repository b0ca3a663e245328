// The HTTP face of an auditor: the contract endpoints (/health, /claims,
// /vocabulary, /batch, /metrics) and the operational ones (/healthz, /readyz)
// on one port. `/claims` and `/batch` always answer HTTP 200 with an envelope.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { readBodyResult } from '../../base/body.ts';
import type { Engine } from './engine.ts';
import { errorEnvelope, invalidInput, type ErrorEnvelope } from './errors.ts';
import type { AuditorMetrics } from './metrics.ts';
import type { ClaimsResponse, Vocabulary } from './types.ts';
import { parseJsonBody } from './validate-request.ts';

export interface ReadyState {
  ready: boolean;
  /** Why loading failed; /healthz then fails so the kubelet restarts the process. */
  loadError?: string;
}

export interface HttpOptions {
  engine: Engine;
  metrics: AuditorMetrics;
  state: ReadyState;
  vocabulary: Vocabulary;
  maxBodyBytes: number;
  maxDepth: number;
  maxBatchItems: number;
}

type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;

function replier(res: ServerResponse): Reply {
  return (status, body, headers = {}) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(text);
  };
}

/** Reads and parses a JSON body; an envelope when it cannot. */
async function readJson(
  req: IncomingMessage,
  options: HttpOptions,
): Promise<{ ok: true; value: unknown } | { ok: false; envelope: ErrorEnvelope }> {
  const body = await readBodyResult(req, options.maxBodyBytes);
  if (!body.ok && body.reason === 'too_large') {
    const envelope = invalidInput(`the body is larger than ${body.maxBytes} bytes`, {
      max_bytes: body.maxBytes,
    });
    return { ok: false, envelope };
  }
  if (!body.ok) return { ok: false, envelope: invalidInput('the request body was cut off') };
  const parsed = parseJsonBody(body.bytes, options.maxDepth);
  if (!parsed.ok) return { ok: false, envelope: invalidInput(parsed.message, parsed.details) };
  return { ok: true, value: parsed.value };
}

function notReady(state: ReadyState): ErrorEnvelope {
  return errorEnvelope(
    'INTERNAL_ERROR',
    state.loadError ? 'the auditor failed to load' : 'the auditor is still loading',
  );
}

async function batchResults(options: HttpOptions, value: unknown): Promise<ClaimsResponse[] | ErrorEnvelope> {
  const items = (value as { items?: unknown } | null)?.items;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Array.isArray(items)) {
    return invalidInput('the body must be {items: [{data, phase, platform_context}, …]}');
  }
  if (items.length > options.maxBatchItems) {
    return invalidInput(`a batch holds at most ${options.maxBatchItems} items (got ${items.length})`, {
      max_items: options.maxBatchItems,
    });
  }
  const results: ClaimsResponse[] = [];
  for (const item of items) {
    const started = performance.now();
    const result = await options.engine.handle(item);
    options.metrics.observe('batch', result, (performance.now() - started) / 1000);
    results.push(result);
  }
  return results;
}

async function postEnvelope(
  req: IncomingMessage,
  reply: Reply,
  options: HttpOptions,
  batch: boolean,
): Promise<void> {
  const endpoint = batch ? 'batch' : 'claims';
  const started = performance.now();
  // Answers never set `Connection: close`: closing with unread body bytes
  // resets the socket and the client would lose the answer; Node drops an
  // unread body after the answer (and `linger` bounds an oversized one).
  const answer = (body: ClaimsResponse | { status: 'success'; results: ClaimsResponse[] }): void => {
    if ('claims' in body) options.metrics.observe(endpoint, body, (performance.now() - started) / 1000);
    reply(200, body);
  };
  if (!options.state.ready) return answer(notReady(options.state));
  const release = options.engine.acquire();
  if (!release) {
    const max = options.engine.options.maxConcurrent;
    return answer(
      errorEnvelope('AUDITOR_OVERLOAD', `more than ${max} requests in progress`, { max_concurrent: max }),
    );
  }
  options.metrics.inflight.inc();
  try {
    const read = await readJson(req, options);
    if (!read.ok) return answer(read.envelope);
    if (!batch) return answer(await options.engine.handle(read.value));
    const results = await batchResults(options, read.value);
    answer(Array.isArray(results) ? { status: 'success', results } : results);
  } finally {
    options.metrics.inflight.dec();
    release();
  }
}

type GetRoute = (options: HttpOptions, reply: Reply) => void | Promise<void>;

const failures = (state: ReadyState): string[] => [state.loadError ? `load: ${state.loadError}` : 'loading'];

const GET_ROUTES: Record<string, GetRoute> = {
  '/health': ({ engine, vocabulary, state }, reply) =>
    reply(200, {
      status: 'healthy',
      auditor_id: engine.options.auditorId,
      version: vocabulary.version,
      ready: state.ready,
    }),
  '/healthz': ({ state }, reply) =>
    state.loadError
      ? reply(503, { status: 'fail', failures: failures(state) })
      : reply(200, { status: 'ok', failures: [] }),
  '/readyz': ({ state }, reply) =>
    state.ready
      ? reply(200, { status: 'ok', failures: [] })
      : reply(503, { status: 'fail', failures: failures(state) }),
  '/vocabulary': ({ vocabulary }, reply) => reply(200, vocabulary),
  '/metrics': async ({ metrics }, reply) =>
    reply(200, await metrics.registry.metrics(), { 'content-type': metrics.registry.contentType }),
};

/** The request target's path, without the query. */
const pathOf = (url: string | undefined): string => (url ?? '/').split('?')[0] ?? '/';

async function route(req: IncomingMessage, res: ServerResponse, options: HttpOptions): Promise<void> {
  const reply = replier(res);
  const path = pathOf(req.url);
  const posting = path === '/claims' || path === '/batch';
  if (req.method === 'POST' && posting) return postEnvelope(req, reply, options, path === '/batch');
  const get = GET_ROUTES[path];
  if ((req.method === 'GET' || req.method === 'HEAD') && get) return get(options, reply);
  if (posting || get) return reply(405, { detail: 'method not allowed' });
  reply(404, { detail: 'not found' });
}

export function createRequestListener(
  options: HttpOptions,
  onError: (err: unknown) => void,
): RequestListener {
  return (req, res) => {
    route(req, res, options).catch((err: unknown) => {
      onError(err);
      if (!res.headersSent)
        replier(res)(200, errorEnvelope('INTERNAL_ERROR', 'the auditor failed to answer'));
      else res.destroy();
    });
  };
}
