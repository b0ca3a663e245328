// Serves the management UI from its bundle: `/` and `/ui` redirect to
// `/ui/`; `/ui/<file>` answers the file with its type, cache policy, ETag and
// the UI's security headers (CSP, no sniffing, no framing, no referrer).
// Other paths pass through untouched, so the API's routes are unaffected.
import type Koa from 'koa';
import { HttpError, notFound } from '../../base/http-error.ts';
import { bundlePathOf, UI_CSP, UI_PREFIX, type UiBundle } from './bundle.ts';

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': UI_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

function redirect(ctx: Koa.Context, to: string): void {
  ctx.state.route = `GET ${ctx.path}`;
  ctx.status = 302;
  ctx.redirect(to);
}

function answerFile(ctx: Koa.Context, bundle: UiBundle | undefined, name: string): void {
  ctx.state.route = 'GET /ui/';
  ctx.set(SECURITY_HEADERS);
  if (!bundle) {
    ctx.status = 503;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('cache-control', 'no-store');
    ctx.body = 'The management UI is not built: run `npm run build:ui` and restart the api role.\n';
    return;
  }
  const file = bundle.files.get(name);
  if (!file) throw notFound(`no UI file ${name.slice(0, 200)}`);
  ctx.set('cache-control', file.cacheControl);
  ctx.set('etag', file.etag);
  ctx.type = file.type;
  if (ctx.get('if-none-match') === file.etag) {
    ctx.status = 304;
    return;
  }
  ctx.body = file.body;
}

/** The UI's middleware; `bundle` undefined answers 503 with how to build it. */
export function uiEndpoint(bundle: UiBundle | undefined): Koa.Middleware {
  return async (ctx, next) => {
    const isUi = ctx.path === '/' || ctx.path === '/ui' || ctx.path.startsWith(UI_PREFIX);
    if (!isUi) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new HttpError(
        405,
        `${ctx.method} is not allowed here; allowed: GET, HEAD`,
        'method_not_allowed',
        {
          allow: 'GET, HEAD',
        },
      );
    }
    if (ctx.path === '/' || ctx.path === '/ui') return redirect(ctx, UI_PREFIX);
    const name = bundlePathOf(ctx.path);
    if (name === undefined) throw notFound(`no UI file at ${ctx.path.slice(0, 200)}`);
    answerFile(ctx, bundle, name);
  };
}
