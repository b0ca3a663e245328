// The MCP gateway's listener (port 8100): `POST /mcp` (JSON-RPC 2.0 over
// Streamable HTTP, stateless, JSON answers), the RFC 9728 metadata, and its
// own /healthz, /readyz (with each server's discovery state) and /metrics.
// A loopback peer is the agent; anyone else needs the OAuth issuer's token.
// Bad input is a JSON-RPC error or a 4xx, never a crash or a hang.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { readBodyResult } from '../../base/body.ts';
import { closeGracefully } from '../../base/close.ts';
import { listenDualStack } from '../../base/listen.ts';
import type { Logger } from '../../base/log.ts';
import { newRegistry } from '../../base/ops-server.ts';
import type { AccessSink, ApprovalGate, EgressAccess, McpServerRef } from '../../contract/egress.ts';
import {
  clientAuthenticator,
  challenge,
  isLoopbackAddress,
  protectedResourceMetadata,
  type ClientAuthOptions,
} from './client-auth.ts';
import type { McpGatewaySettings } from './config.ts';
import { McpDiscovery } from './discovery.ts';
import type { McpCaller } from './call.ts';
import { dispatch, type DispatchDeps } from './dispatch.ts';
import { errorResponse, parseBody, type JsonRpcResponse } from './jsonrpc.ts';
import { gatewayMetrics } from './metrics.ts';
import { svidFiles } from './svid-tls.ts';
import { subagentOf } from '../../contract/subagent.ts';

export interface McpGatewayOptions {
  host?: string;
  port: number;
  /** The MCP servers of the egress bundle (`mcp_servers`), read at each discovery. */
  servers: () => readonly McpServerRef[];
  access: EgressAccess;
  approvals: ApprovalGate;
  sink: AccessSink;
  log: Logger;
  settings: Pick<
    McpGatewaySettings,
    'discoveryInterval' | 'mtlsEnabled' | 'callTimeout' | 'staleAfter' | 'maxBodyBytes' | 'maxBatch'
  > &
    Partial<Pick<McpGatewaySettings, 'svidDir' | 'oauthIssuer' | 'resourceUrl' | 'audience'>>;
  registry?: Registry;
  /** Whether the peer is the agent in its pod (default: a loopback address). */
  isLoopback?: (req: IncomingMessage) => boolean;
  version?: string;
}

export interface McpGateway {
  port: number;
  discovery: McpDiscovery;
  stop(graceMs?: number): Promise<void>;
}

const GRACE_MS = 5_000;
const MAX_CONNECTIONS = 256;

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), ...headers });
  res.end(text);
}

const problem = (detail: string, code: string): Record<string, string> => ({ detail, code });

interface Handler {
  deps: DispatchDeps;
  auth: ReturnType<typeof clientAuthenticator>;
  oauth: ClientAuthOptions;
  o: McpGatewayOptions;
  registry: Registry;
  discovery: McpDiscovery;
  firstDiscovery: { done: boolean };
}

/** The user a call is made for: '' for the agent itself, the token's subject for an external client. */
async function caller(req: IncomingMessage, res: ServerResponse, h: Handler): Promise<string | undefined> {
  const loopback = h.o.isLoopback ? h.o.isLoopback(req) : isLoopbackAddress(req.socket.remoteAddress);
  if (loopback) return '';
  const verdict = await h.auth.verify(req.headers.authorization);
  if ('user' in verdict) return verdict.user;
  const error = verdict.code === 'invalid_token' ? 'invalid_token' : undefined;
  send(res, 401, problem(verdict.detail, verdict.code), { 'www-authenticate': challenge(h.oauth, error) });
  return undefined;
}

/**
 * The user and subagent of a call, or undefined once refused. The subagent's
 * name is the agent's word to the gateway: recorded, never sent to an MCP server.
 */
async function callerOf(
  req: IncomingMessage,
  res: ServerResponse,
  h: Handler,
): Promise<McpCaller | undefined> {
  const user = await caller(req, res, h);
  if (user === undefined) return undefined;
  const named = subagentOf(req.headers);
  if (named.ok) return { user, ...(named.subagent ? { subagent: named.subagent } : {}) };
  send(res, 400, problem(named.problem, 'invalid_subagent'));
  return undefined;
}

async function serveMcp(req: IncomingMessage, res: ServerResponse, h: Handler): Promise<void> {
  if (req.method !== 'POST')
    return send(
      res,
      405,
      problem('only POST is served here (a stateless gateway has no stream)', 'method_not_allowed'),
      { allow: 'POST' },
    );
  const who = await callerOf(req, res, h);
  if (who === undefined) return;
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    return send(res, 415, problem('the body must be application/json', 'unsupported_media_type'));
  const body = await readBodyResult(req, h.o.settings.maxBodyBytes);
  if (!body.ok) {
    if (body.reason === 'aborted') return;
    return send(res, 413, problem(`the body exceeds ${body.maxBytes} bytes`, 'body_too_large'), {
      connection: 'close',
    });
  }
  const parsed = parseBody(body.bytes.toString('utf8'), h.o.settings.maxBatch);
  if ('error' in parsed) return send(res, 400, errorResponse(null, parsed.error));
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  const answers = await Promise.all(parsed.messages.map((m) => dispatch(m, who, h.deps, gone.signal)));
  const replies = answers.filter((a): a is JsonRpcResponse => a !== undefined);
  if (replies.length === 0) return send(res, 202, undefined);
  send(res, 200, parsed.batch ? replies : replies[0]);
}

async function serveOps(path: string, res: ServerResponse, h: Handler): Promise<void> {
  if (path === '/metrics') {
    res.writeHead(200, { 'content-type': h.registry.contentType });
    return void res.end(await h.registry.metrics());
  }
  if (path === '/healthz') return send(res, 200, { status: 'ok', failures: [] });
  const servers = h.discovery.status();
  const failures = h.firstDiscovery.done ? [] : ['mcp discovery: the first discovery has not finished'];
  const degraded = servers.filter((s) => s.error).map((s) => `${s.name}: ${s.error}`);
  send(res, failures.length ? 503 : 200, {
    status: failures.length ? 'fail' : 'ok',
    failures,
    degraded,
    servers: servers.map((s) => ({ name: s.name, tools: s.tools, error: s.error || null })),
  });
}

async function route(req: IncomingMessage, res: ServerResponse, h: Handler): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path === '/mcp') return serveMcp(req, res, h);
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (['/healthz', '/readyz', '/metrics'].includes(path) && read) return serveOps(path, res, h);
  if (path.startsWith('/.well-known/oauth-protected-resource') && read) {
    const doc = protectedResourceMetadata(h.oauth);
    return doc ? send(res, 200, doc) : send(res, 404, problem('no OAuth issuer is configured', 'not_found'));
  }
  send(res, 404, problem('not found', 'not_found'));
}

function handler(o: McpGatewayOptions, registry: Registry): Handler {
  const s = o.settings;
  const metrics = gatewayMetrics(registry);
  const discovery = new McpDiscovery({
    servers: o.servers,
    upstream: {
      mtls: s.mtlsEnabled,
      ...(s.svidDir ? { svid: svidFiles(s.svidDir) } : {}),
      timeoutMs: s.callTimeout,
      maxBytes: s.maxBodyBytes,
    },
    staleAfterMs: s.staleAfter,
    log: o.log,
    onDiscovered: (server, ok) => metrics.discoveries.inc({ server, result: ok ? 'ok' : 'error' }),
  });
  metrics.track(() => discovery.status());
  const oauth: ClientAuthOptions = {
    ...(s.oauthIssuer ? { issuer: s.oauthIssuer } : {}),
    ...(s.resourceUrl ? { resourceUrl: s.resourceUrl } : {}),
    ...(s.audience ? { audience: s.audience } : {}),
  };
  const deps: DispatchDeps = {
    tools: discovery,
    access: o.access,
    approvals: o.approvals,
    sink: o.sink,
    callTimeoutMs: s.callTimeout,
    log: o.log,
    version: o.version ?? '1',
    onAnswered: (method, ok) => metrics.requests.inc({ method, outcome: ok ? 'ok' : 'error' }),
  };
  return {
    deps,
    auth: clientAuthenticator(oauth),
    oauth,
    o,
    registry,
    discovery,
    firstDiscovery: { done: false },
  };
}

/** Starts discovery and listens; `stop` ends both. */
export async function startMcpGateway(o: McpGatewayOptions): Promise<McpGateway> {
  const registry = o.registry ?? newRegistry('mcp-gateway');
  const h = handler(o, registry);
  if (!o.settings.oauthIssuer)
    o.log.warn(
      {},
      'no MCP_GATEWAY_OAUTH_ISSUER: only the agent in its pod (loopback) may use the MCP gateway',
    );
  if (o.settings.mtlsEnabled && !o.settings.svidDir)
    o.log.warn({}, 'MCP_GATEWAY_MTLS_ENABLED without PLATFORM_SVID_DIR: no client certificate is presented');
  const server = createServer((req, res) => {
    route(req, res, h).catch((err: unknown) => {
      o.log.error({ err }, 'mcp gateway request failed');
      send(res, 500, problem('internal error', 'internal'));
    });
  });
  // Held calls keep their connection open while an Owner decides; past this many, new ones are refused.
  server.maxConnections = MAX_CONNECTIONS;
  await listenDualStack(server, o.port, o.host ?? '::');
  const port = (server.address() as { port: number }).port;
  void h.discovery.refresh().finally(() => (h.firstDiscovery.done = true));
  h.discovery.start(o.settings.discoveryInterval);
  o.log.info({ port, mtls: o.settings.mtlsEnabled }, 'mcp gateway listening (POST /mcp)');
  return {
    port,
    discovery: h.discovery,
    stop: async (graceMs = GRACE_MS) => {
      await h.discovery.stop();
      await closeGracefully(server, graceMs);
    },
  };
}
