// The MCP endpoint on the API's Koa app (SPEC "MCP exposure of services"):
// Streamable HTTP at MCP_TOOLS_PATH, stateless (one server and transport per
// POST, JSON answers), discovery metadata at MCP_METADATA_PATH. The caller
// authenticates as for REST before anything is read; MCP_MAX_CONCURRENT_CALLS
// requests may be in flight, one more is 429; the body limit and the
// control-character check are the REST ones. Both paths are 404 when
// MCP_ENABLED is false.
import type { Context, Middleware } from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { HttpError } from '../../base/http-error.ts';
import { assertClean, bodyProblem } from '../../base/hygiene.ts';
import type { Logger } from '../../base/log.ts';
import type { Authenticator } from '../auth/principal.ts';
import type { ApiMetrics } from '../http/metrics.ts';
import { readJsonBody } from '../http/middleware.ts';
import { authenticatedCaller } from '../routes/execute.ts';
import type { ApiDeps } from '../routes/route.ts';
import { CallLimiter } from './limiter.ts';
import type { McpMetrics } from './metrics.ts';
import type { McpTool } from './tool.ts';
import { toolServer } from './tool-calls.ts';

export interface McpSettings {
  enabled: boolean;
  toolsPath: string;
  metadataPath: string;
  maxConcurrentCalls: number;
}

export interface McpEndpointOptions {
  settings: McpSettings;
  tools: readonly McpTool[];
  deps: ApiDeps;
  authenticators: readonly Authenticator[];
  apiMetrics: ApiMetrics;
  metrics: McpMetrics;
  log: Logger;
  bodyLimitBytes: number;
  version: string;
}

/** What a client needs to find and call the tools (decision 121). */
export function mcpMetadata(
  o: Pick<McpEndpointOptions, 'settings' | 'tools' | 'version'>,
): Record<string, unknown> {
  return {
    name: 'platform-verifier',
    version: o.version,
    protocol: 'mcp',
    transport: 'streamable-http',
    endpoint: o.settings.toolsPath,
    authentication: { type: 'bearer', schemes: ['api_key', 'service_account_token', 'oidc'] },
    max_concurrent_calls: o.settings.maxConcurrentCalls,
    tools: o.tools.map((t) => ({ name: t.name, description: t.description })),
  };
}

/** Frees the slot once the response is over, however it ends. */
function releaseWhenDone(ctx: Context, release: () => void): void {
  if (ctx.res.writableFinished || ctx.res.destroyed) release();
  else ctx.res.once('close', release);
}

async function serveCall(ctx: Context, o: McpEndpointOptions, release: () => void): Promise<void> {
  const principal = ctx.state.principal as Awaited<ReturnType<typeof authenticatedCaller>>;
  const { body } = await readJsonBody(ctx, o.bodyLimitBytes);
  if (body === undefined) throw new HttpError(400, 'a JSON-RPC message is required', 'body_required');
  assertClean(bodyProblem(body));
  const who = { principal, deps: o.deps, requestId: String(ctx.state.requestId) };
  const server = toolServer(who, { tools: o.tools, metrics: o.metrics, log: o.log, version: o.version });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  ctx.respond = false;
  releaseWhenDone(ctx, () => {
    release();
    void server.close();
  });
  await transport.handleRequest(ctx.req, ctx.res, body);
}

const methodNotAllowed = (method: string): HttpError =>
  new HttpError(405, `${method} is not allowed here; allowed: POST`, 'method_not_allowed', { allow: 'POST' });

function toolsEndpoint(o: McpEndpointOptions, limiter: CallLimiter): Middleware {
  return async (ctx) => {
    ctx.state.route = `${ctx.method} ${o.settings.toolsPath}`;
    // Stateless: no session to resume (GET) or end (DELETE).
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx.method);
    ctx.state.principal = await authenticatedCaller(ctx, {
      authenticators: o.authenticators,
      metrics: o.apiMetrics,
    });
    const release = limiter.tryAcquire();
    if (!release) {
      o.metrics.overCap.inc();
      throw new HttpError(
        429,
        `more than ${limiter.max} MCP calls in flight; retry later`,
        'too_many_calls',
        {
          'retry-after': '1',
        },
      );
    }
    try {
      await serveCall(ctx, o, release);
    } catch (err) {
      release();
      throw err;
    }
  };
}

/** The MCP endpoint and its metadata as one middleware; passes everything else on. */
export function mcpEndpoint(o: McpEndpointOptions): Middleware {
  const limiter = new CallLimiter(o.settings.maxConcurrentCalls);
  const tools = toolsEndpoint(o, limiter);
  const metadata = mcpMetadata(o);
  return async (ctx, next) => {
    if (!o.settings.enabled) return next();
    if (ctx.path === o.settings.toolsPath) return tools(ctx, next);
    if (ctx.path !== o.settings.metadataPath) return next();
    ctx.state.route = `GET ${o.settings.metadataPath}`;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new HttpError(405, `${ctx.method} is not allowed here; allowed: GET`, 'method_not_allowed', {
        allow: 'GET',
      });
    }
    ctx.body = metadata;
  };
}
