// The Koa app: request id → access log → error shaper → JSON body → ops
// endpoints and the routes. Every route comes from the route table.
import { Router } from '@koa/router';
import Koa from 'koa';
import type { Registry } from 'prom-client';
import type { Logger } from '../operator/log.ts';
import type { Authenticator } from './auth/principal.ts';
import { errorShaper } from './http/errors.ts';
import type { ApiMetrics } from './http/metrics.ts';
import { accessLog, jsonBody, requestId } from './http/middleware.ts';
import { openApiDocument } from './openapi.ts';
import { routeHandler } from './routes/execute.ts';
import { ROUTES } from './routes/index.ts';
import { koaPath, type ApiDeps } from './routes/route.ts';

export interface AppOptions {
  deps: ApiDeps;
  authenticators: readonly Authenticator[];
  log: Logger;
  metrics: ApiMetrics;
  registry: Registry;
  bodyLimitBytes: number;
  /** '' when ready, else why not. */
  readiness: () => string;
  liveness: () => string;
  version?: string;
}

function opsRouter(o: AppOptions): Router {
  const router = new Router();
  const probe = (check: () => string) => (ctx: Koa.Context) => {
    const failure = check();
    ctx.state.route = `GET ${ctx.path}`;
    ctx.status = failure ? 503 : 200;
    ctx.body = failure ? { status: 'fail', detail: failure } : { status: 'ok' };
  };
  const doc = openApiDocument(ROUTES, o.version ?? '0.1.0');
  router.get('/healthz', probe(o.liveness));
  router.get('/readyz', probe(o.readiness));
  router.get('/metrics', async (ctx) => {
    ctx.state.route = 'GET /metrics';
    ctx.type = o.registry.contentType;
    ctx.body = await o.registry.metrics();
  });
  router.get('/openapi.json', (ctx) => {
    ctx.state.route = 'GET /openapi.json';
    ctx.body = doc;
  });
  return router;
}

export function createApp(o: AppOptions): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true;
  const router = new Router();
  const executor = { deps: o.deps, authenticators: o.authenticators, metrics: o.metrics };
  for (const spec of ROUTES) {
    router.register(koaPath(spec.path), [spec.method], routeHandler(spec, executor));
  }
  const ops = opsRouter(o);
  app.use(requestId);
  app.use(accessLog(o.log, o.metrics));
  app.use(errorShaper(o.log));
  app.use(jsonBody(o.bodyLimitBytes));
  app.use(ops.routes());
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  app.use(ops.allowedMethods({ throw: true }));
  return app;
}
