// Small middleware, one job each: request ids and access logs with metrics;
// and the JSON body reader the route executor calls once the caller is known
// (content type → 415, size → 413, syntax → 400).
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../../base/log.ts';
import type { ApiMetrics } from './metrics.ts';
import { readBoundedBody, syntaxProblem } from '../../base/body.ts';
import { HttpError, badRequest } from '../../base/http-error.ts';
import { FORM_TYPE, parseForm } from './form.ts';

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

/** Uses a well-formed incoming `x-request-id` or mints one; echoes it on the response. */
export async function requestId(ctx: Context, next: Next): Promise<void> {
  const incoming = ctx.get('x-request-id');
  const id = REQUEST_ID_RE.test(incoming) ? incoming : randomUUID();
  ctx.state.requestId = id;
  ctx.set('x-request-id', id);
  await next();
}

/** One JSON line per request and the request metrics, after the error shaper ran. */
export function accessLog(log: Logger, metrics: ApiMetrics) {
  return async function logAccess(ctx: Context, next: Next): Promise<void> {
    const startedNs = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - startedNs) / 1e6;
      const route = (ctx.state.route as string | undefined) ?? 'unmatched';
      metrics.observe(ctx.method, route, ctx.status, ms);
      log.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          route,
          status: ctx.status,
          ms: Math.round(ms * 100) / 100,
          subject: (ctx.state.principal as { subject?: string } | undefined)?.subject,
        },
        'request',
      );
    }
  };
}

const mediaType = (ctx: Context): string =>
  (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether the request carries a body the API would have to read. */
export function hasBody(ctx: Context): boolean {
  if (!BODY_METHODS.has(ctx.method)) return false;
  const length = ctx.get('content-length');
  if (length !== '') return Number(length) > 0;
  return ctx.get('transfer-encoding') !== '';
}

export interface JsonBody {
  /** undefined when the request has none. */
  body: unknown;
  bytes: number;
}

/**
 * Reads a JSON body of at most `limitBytes`: content type → 415, size → 413,
 * syntax → 400. Called by the route executor only after the caller is
 * authenticated, so an anonymous client cannot make the API read anything.
 */
export async function readJsonBody(ctx: Context, limitBytes: number): Promise<JsonBody> {
  if (!hasBody(ctx)) return { body: undefined, bytes: 0 };
  const type = mediaType(ctx);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new HttpError(415, 'send the body as application/json', 'unsupported_media_type');
  }
  const raw = await readBoundedBody(ctx.req, limitBytes);
  if (raw.length === 0) return { body: undefined, bytes: 0 };
  try {
    return { body: JSON.parse(raw.toString('utf8')) as unknown, bytes: raw.length };
  } catch (err) {
    throw badRequest(`malformed JSON body: ${syntaxProblem(err as Error)}`, 'malformed_json');
  }
}

/** Text documents a route with `textBody` reads as `{text}` (a definition file). */
const TEXT_TYPES = new Set([
  'text/yaml',
  'application/yaml',
  'application/x-yaml',
  'text/x-yaml',
  'text/plain',
]);

/**
 * A text document (`text/yaml`, `text/plain`…) as `{text}`, or a JSON body
 * as `readJsonBody` reads it: another type → 415, size → 413, bytes that are
 * not UTF-8 → 422 (a YAML file is text).
 */
export async function readTextOrJsonBody(ctx: Context, limitBytes: number): Promise<JsonBody> {
  if (!hasBody(ctx) || !TEXT_TYPES.has(mediaType(ctx))) {
    if (!hasBody(ctx) || mediaType(ctx) === 'application/json' || mediaType(ctx).endsWith('+json'))
      return readJsonBody(ctx, limitBytes);
    throw new HttpError(
      415,
      'send the body as text/yaml, or as application/json {text}',
      'unsupported_media_type',
    );
  }
  const raw = await readBoundedBody(ctx.req, limitBytes);
  try {
    return { body: { text: new TextDecoder('utf-8', { fatal: true }).decode(raw) }, bytes: raw.length };
  } catch {
    throw new HttpError(422, 'the body is not UTF-8 text: a definition file is YAML text', 'not_text');
  }
}

/**
 * Reads an `application/x-www-form-urlencoded` body (OAuth endpoints) under
 * the same limit: another type → 415, size → 413, bad encoding or a repeated
 * parameter → 400. The parameters come back as an object of strings.
 */
export async function readFormBody(ctx: Context, limitBytes: number): Promise<JsonBody> {
  if (!hasBody(ctx)) return { body: undefined, bytes: 0 };
  if (mediaType(ctx) !== FORM_TYPE) {
    throw new HttpError(415, `send the body as ${FORM_TYPE}`, 'unsupported_media_type');
  }
  const raw = await readBoundedBody(ctx.req, limitBytes);
  if (raw.length === 0) return { body: undefined, bytes: 0 };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw badRequest('malformed form body: not UTF-8', 'malformed_form');
  }
  return { body: parseForm(text), bytes: raw.length };
}
