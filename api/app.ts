// The Koa app: request id → access log → error shaper → the OpenAPI document
// and the routes → 405 with `Allow`. /healthz, /readyz and /metrics are not
// here: the ops server serves them on its own port (api/run.ts). Every route comes from the route table; the
// route executor reads a body only after authenticating its caller.
import { Router } from '@koa/router';
import Koa from 'koa';
import compose from 'koa-compose';
import type { Registry } from 'prom-client';
import type { Logger } from '../base/log.ts';
import type { Authenticator } from './auth/principal.ts';
import { errorShaper } from './http/errors.ts';
import { HttpError } from '../base/http-error.ts';
import type { ApiMetrics } from './http/metrics.ts';
import { accessLog, requestId } from './http/middleware.ts';
import { mcpEndpoint, type McpSettings } from './mcp/endpoint.ts';
import { McpMetrics } from './mcp/metrics.ts';
import { MCP_TOOLS } from './mcp/tools.ts';
import { openApiDocument } from './openapi.ts';
import { routeSteps } from './routes/execute.ts';
import type { UiBundle } from './ui/bundle.ts';
import { uiEndpoint } from './ui/serve.ts';
import { ROUTES } from './routes/index.ts';
import { koaPath, type ApiDeps, type RouteSpec } from './routes/route.ts';

export interface AppOptions {
  deps: ApiDeps;
  authenticators: readonly Authenticator[];
  log: Logger;
  metrics: ApiMetrics;
  registry: Registry;
  bodyLimitBytes: number;
  version?: string;
  /** MCP_* settings; without them no MCP endpoint is served. */
  mcp?: McpSettings;
  /** The management UI at /ui/ (its bundle; undefined when not built: 503 with how to build it). Absent: not served. */
  ui?: { bundle: UiBundle | undefined };
}

function mcp(o: AppOptions, settings: McpSettings): Koa.Middleware {
  return mcpEndpoint({
    settings,
    tools: MCP_TOOLS,
    deps: o.deps,
    authenticators: o.authenticators,
    apiMetrics: o.metrics,
    metrics: new McpMetrics(o.registry),
    log: o.log,
    bodyLimitBytes: o.bodyLimitBytes,
    version: o.version ?? '0.1.0',
  });
}

function docRouter(o: AppOptions): Router {
  const router = new Router();
  const doc = openApiDocument(ROUTES, o.version ?? '0.1.0');
  router.get('/openapi.json', (ctx) => {
    ctx.state.route = 'GET /openapi.json';
    ctx.body = doc;
  });
  return router;
}

interface PathMethods {
  pattern: RegExp;
  /** Literal segments: the more, the more specific. */
  literals: number;
  params: number;
  methods: Set<string>;
}

function pathMethods(routes: readonly RouteSpec[]): PathMethods[] {
  const byPath = new Map<string, PathMethods>();
  for (const r of routes) {
    const segments = r.path.split('/').filter(Boolean);
    const params = segments.filter((x) => x.startsWith('{')).length;
    const entry = byPath.get(r.path) ?? {
      pattern: new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      literals: segments.length - params,
      params,
      methods: new Set<string>(),
    };
    entry.methods.add(r.method);
    if (r.method === 'GET') entry.methods.add('HEAD');
    byPath.set(r.path, entry);
  }
  return [...byPath.values()];
}

/** The path a request is for: the most literal of those it matches, and whether another matched too. */
function bestMatch(table: readonly PathMethods[], path: string): { best?: PathMethods; ambiguous: boolean } {
  const matches = table.filter((t) => t.pattern.test(path)).sort((a, b) => b.literals - a.literals);
  return { best: matches[0], ambiguous: matches.length > 1 };
}

/**
 * A fixed segment wins over a parameter in the same place (`/v1/agents/stale`
 * is not agent `stale`; `…/delegations/pending` is not grant `pending`):
 * another method on it is 405 with the specific path's `Allow`, not a route
 * for a bad id.
 */
function fixedPathMethods(routes: readonly RouteSpec[]): Koa.Middleware {
  const table = pathMethods(routes);
  return async (ctx, next) => {
    const { best, ambiguous } = bestMatch(table, ctx.path);
    if (!best || (best.params > 0 && !ambiguous)) return next();
    if (best.methods.has(ctx.method) && ctx.method !== 'OPTIONS') return next();
    const allow = [...best.methods].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('allow', allow);
      return;
    }
    throw new HttpError(405, `${ctx.method} is not allowed here; allowed: ${allow}`, 'method_not_allowed', {
      allow,
    });
  };
}

export function createApp(o: AppOptions): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true;
  const router = new Router();
  const executor = {
    deps: o.deps,
    authenticators: o.authenticators,
    metrics: o.metrics,
    bodyLimitBytes: o.bodyLimitBytes,
  };
  for (const spec of ROUTES) {
    router.register(koaPath(spec.path), [spec.method], compose(routeSteps(spec, executor)));
  }
  const docs = docRouter(o);
  app.use(requestId);
  app.use(accessLog(o.log, o.metrics));
  app.use(errorShaper(o.log));
  if (o.mcp) app.use(mcp(o, o.mcp));
  if (o.ui) app.use(uiEndpoint(o.ui.bundle));
  app.use(fixedPathMethods(ROUTES));
  app.use(docs.routes());
  app.use(router.routes());
  // Both routers record their path matches on the context, so one pass sees
  // every method of the path: 405 (and 501) with `Allow`, OPTIONS answered.
  app.use(router.allowedMethods());
  return app;
}
