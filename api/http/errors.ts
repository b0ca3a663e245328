// The API's error answers: what a thrown error means to a client
// (`toHttpError`) and the outermost middleware that answers it as
// `{detail, code?}` (`errorBody`). Handlers throw the one HttpError type
// (base/http-error.ts); anything else is a bug or an upstream failure:
// logged, never echoed.
import type { Context, Next } from 'koa';
import { errorBody, HttpError, notFound } from '../../base/http-error.ts';
import { apiMessage, apiStatus } from '../../base/kube.ts';

/** Kubernetes API statuses a client can act on, passed through with the apiserver's message. */
const PASS_THROUGH: Record<number, string> = {
  404: 'not_found',
  409: 'conflict',
  422: 'rejected_by_cluster',
};

/** Errors thrown by Koa itself (ctx.throw, router 405/501) carry `status` and `expose`. */
function koaError(err: unknown): HttpError | undefined {
  const e = err as { status?: unknown; expose?: unknown; message?: unknown } | undefined;
  if (e?.status === 501) return new HttpError(405, 'method not allowed', 'method_not_allowed');
  if (typeof e?.status !== 'number' || e.status < 400 || e.status >= 500 || e.expose !== true)
    return undefined;
  return new HttpError(e.status, String(e.message), e.status === 405 ? 'method_not_allowed' : undefined);
}

export function toHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  const status = apiStatus(err);
  const code = status === undefined ? undefined : PASS_THROUGH[status];
  if (status !== undefined && code) return new HttpError(status, apiMessage(err), code);
  return koaError(err);
}

export interface ErrorLogger {
  error(obj: object, msg: string): void;
}

/**
 * What the router left unanswered: no route (404), or a path whose methods do
 * not include this one (405 with `Allow`; the router says 501 for methods it
 * does not know at all, which is the same thing to a client).
 */
function unrouted(ctx: Context): HttpError | undefined {
  if (ctx.body !== undefined && ctx.body !== null) return undefined;
  const allow = ctx.response.get('allow');
  if ((ctx.status === 405 || ctx.status === 501) && allow !== '') {
    return new HttpError(405, `${ctx.method} is not allowed here; allowed: ${allow}`, 'method_not_allowed', {
      allow,
    });
  }
  if (ctx.status === 404 || ctx.status === 405 || ctx.status === 501)
    return notFound(`no route for ${ctx.method} ${ctx.path}`);
  return undefined;
}

/** An error answered before the body was read: close rather than drain a body nobody asked for. */
export function bodyLeftUnread(ctx: Context): boolean {
  const req = ctx.req as { readableEnded?: boolean; complete?: boolean } | undefined;
  const declared = ctx.get('content-length');
  const pending = declared !== '' ? Number(declared) > 0 : ctx.get('transfer-encoding') !== '';
  return pending && req?.complete !== true && req?.readableEnded !== true;
}

/** Outermost middleware: every thrown error becomes `{detail, code?}`. */
export function errorShaper(log: ErrorLogger) {
  return async function shapeErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      const unanswered = unrouted(ctx);
      if (unanswered) throw unanswered;
    } catch (err) {
      const http = toHttpError(err);
      if (!http) log.error({ err, requestId: ctx.state.requestId }, 'request failed');
      const shaped = http ?? new HttpError(500, 'internal error; see the server log', 'internal');
      ctx.status = shaped.status;
      ctx.set(shaped.headers);
      if (bodyLeftUnread(ctx)) ctx.set('connection', 'close');
      ctx.body = errorBody(shaped);
    }
  };
}
