// The operational endpoints every long-running role serves: /healthz (the
// process is alive), /readyz (it can do its job: every readiness check passes)
// and Prometheus /metrics.
import { createServer, type Server } from 'node:http';
import { closeGracefully } from './close.ts';
import { listen } from './listen.ts';
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from './log.ts';

/** Returns '' when ready, otherwise the reason it is not. */
export type ReadinessCheck = () => string | Promise<string>;

export interface OpsServerOptions {
  host?: string;
  port: number;
  registry: Registry;
  log: Logger;
  readiness?: Record<string, ReadinessCheck>;
  liveness?: Record<string, ReadinessCheck>;
}

export interface OpsServer {
  server: Server;
  port: number;
  addReadiness(name: string, check: ReadinessCheck): void;
  /** Stops accepting; probes and scrapes in flight are answered (cut after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

/** A probe or a scrape takes milliseconds; one still running at a stop gets this long. */
const OPS_GRACE_MS = 2_000;

export function newRegistry(role: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry });
  return registry;
}

async function runChecks(checks: Record<string, ReadinessCheck>): Promise<string[]> {
  const failures: string[] = [];
  for (const [name, check] of Object.entries(checks)) {
    try {
      const reason = await check();
      if (reason) failures.push(`${name}: ${reason}`);
    } catch (err) {
      failures.push(`${name}: ${(err as Error).message}`);
    }
  }
  return failures;
}

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const readiness: Record<string, ReadinessCheck> = { ...options.readiness };
  const liveness: Record<string, ReadinessCheck> = { ...options.liveness };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: string, type = 'application/json', extra = {}): void => {
      res.writeHead(status, { 'content-type': type, ...extra });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const detail = '{"detail":"method not allowed; allowed: GET, HEAD","code":"method_not_allowed"}';
      return reply(405, detail, 'application/json', { allow: 'GET, HEAD' });
    }
    const answer = async (): Promise<void> => {
      if (path === '/healthz' || path === '/readyz') {
        const failures = await runChecks(path === '/healthz' ? liveness : readiness);
        return reply(
          failures.length ? 503 : 200,
          JSON.stringify({ status: failures.length ? 'fail' : 'ok', failures }),
        );
      }
      if (path === '/metrics')
        return reply(200, await options.registry.metrics(), options.registry.contentType);
      reply(404, '{"detail":"not found"}');
    };
    answer().catch((err: unknown) => {
      options.log.error({ err }, 'ops endpoint failed');
      if (!res.headersSent) reply(500, '{"detail":"internal error"}');
    });
  });
  const port = await listen(server, options.port, options.host ?? '0.0.0.0');
  options.log.info({ port }, 'ops endpoints listening (/healthz, /readyz, /metrics)');
  return {
    server,
    port,
    addReadiness: (name, check) => {
      readiness[name] = check;
    },
    close: (graceMs = OPS_GRACE_MS) => closeGracefully(server, graceMs),
  };
}
