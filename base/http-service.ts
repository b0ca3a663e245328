// One HTTP port for a role that serves its own API beside the ops endpoints
// (the model server, the reference agent): /healthz, /readyz and /metrics are
// answered here, every other request goes to the role's handler, and every
// answer is counted by route and status with its latency.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Histogram, type Registry } from 'prom-client';
import { closeGracefully } from './close.ts';
import { listenDualStack } from './listen.ts';
import type { Logger } from './log.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface HttpServiceOptions {
  host: string;
  port: number;
  registry: Registry;
  log: Logger;
  handle: Handler;
  /** The metrics label of a path: a fixed route name, never the raw path, so series stay bounded. */
  routeOf: (path: string) => string;
  /** '' when ready, otherwise why not. */
  readiness: () => string;
  /** Writes the role's own answer for a request its handler failed on (already logged). */
  internalError: (res: ServerResponse) => void;
}

export interface HttpService {
  server: Server;
  port: number;
  /** Stops accepting, lets open requests finish for `graceMs`, then closes what is left. */
  close(graceMs: number): Promise<void>;
}

const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0] || '/';
}

async function answerOps(
  path: string,
  res: ServerResponse,
  o: HttpServiceOptions,
  why: string,
): Promise<void> {
  if (path === '/metrics') {
    res.writeHead(200, { 'content-type': o.registry.contentType });
    res.end(await o.registry.metrics());
    return;
  }
  const failures = path === '/readyz' && why ? [why] : [];
  sendJson(res, failures.length ? 503 : 200, { status: failures.length ? 'fail' : 'ok', failures });
}

function requestMetrics(registry: Registry): (route: string, method: string, res: ServerResponse) => void {
  const requests = new Counter({
    name: 'platform_http_requests_total',
    help: 'HTTP requests answered, by route, method and status (aborted when the client left first)',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'platform_http_request_duration_seconds',
    help: 'Time from request to the end of the answer, by route and status',
    labelNames: ['route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return (route, method, res) => {
    const started = performance.now();
    res.once('close', () => {
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      // Methods are the client's choice: anything unusual shares one label value.
      const m = ['GET', 'HEAD', 'POST'].includes(method) ? method : 'other';
      requests.inc({ route, method: m, status });
      seconds.observe({ route, status }, (performance.now() - started) / 1000);
    });
  };
}

export async function startHttpService(o: HttpServiceOptions): Promise<HttpService> {
  let closing = false;
  const measure = requestMetrics(o.registry);
  const server = createServer((req, res) => {
    const path = pathOf(req);
    const ops = OPS_PATHS.has(path) && (req.method === 'GET' || req.method === 'HEAD');
    measure(ops ? path : o.routeOf(path), req.method ?? 'GET', res);
    const why = closing ? 'shutting down' : o.readiness();
    const work = ops ? answerOps(path, res, o, why) : o.handle(req, res);
    work.catch((err: unknown) => {
      o.log.error({ err, route: o.routeOf(path) }, 'request failed');
      if (res.headersSent) res.destroy();
      else o.internalError(res);
    });
  });
  await listenDualStack(server, o.port, o.host);
  const port = (server.address() as AddressInfo).port;
  const close = async (graceMs: number): Promise<void> => {
    closing = true;
    await closeGracefully(server, graceMs);
  };
  return { server, port, close };
}
