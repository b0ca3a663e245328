// The proxy's one listener (8088 in a pod). Accepts up to `maxConnections`
// clients, hands each to `handleConnection`, and stops in two steps: stop
// accepting at once, then give open tunnels the drain time before closing them.
import { closeGracefully } from '../base/close.ts';
import { listenDualStack } from '../base/listen.ts';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { handleConnection, type ConnectionContext } from './connection.ts';

export interface ProxyServerOptions extends Omit<ConnectionContext, 'signal' | 'ops'> {
  registry: Registry;
  host: string;
  port: number;
  maxConnections: number;
}

export interface ProxyServer {
  server: Server;
  port: number;
  /** True from listening until the stop begins. */
  accepting(): boolean;
  /** Stops accepting, waits up to `drainMs` for open connections, then closes the rest. */
  stop(drainMs: number): Promise<void>;
}

export async function startProxyServer(o: ProxyServerOptions): Promise<ProxyServer> {
  const abort = new AbortController();
  let accepting = false;
  // Ready once listening, not ready once draining (the listener is closed by then anyway).
  const ops = { registry: o.registry, readiness: () => (accepting ? '' : 'not accepting connections') };
  const ctx: ConnectionContext = { ...o, ops, signal: abort.signal };
  const open = new Set<Socket>();
  // Handlers still running: a stop waits for them, so every connection is logged before exit.
  const handling = new Set<Promise<void>>();
  // allowHalfOpen: a client that has sent everything may still be reading the reply.
  const server = createServer({ allowHalfOpen: true, pauseOnConnect: false }, (client) => {
    open.add(client);
    o.metrics.active.inc();
    client.once('close', () => {
      open.delete(client);
      o.metrics.active.dec();
    });
    const handled = handleConnection(client, ctx);
    handling.add(handled);
    void handled.finally(() => handling.delete(handled));
  });
  server.maxConnections = o.maxConnections;
  // Node closes connections over the limit itself; count them.
  server.on('drop', () => o.metrics.connections.inc({ kind: 'unknown', outcome: 'over-limit' }));
  await listenDualStack(server, o.port, o.host);
  // After listening, an error (e.g. EMFILE on accept) is logged, not fatal.
  server.on('error', (err) => o.log.error({ err }, 'proxy listener error'));
  accepting = true;
  const stop = async (drainMs: number): Promise<void> => {
    accepting = false;
    o.log.info({ open: open.size, drainMs }, 'proxy draining');
    // The listener closes once every tunnel has ended; those still open after `drainMs` are cut.
    const cutTunnels = (): void => {
      abort.abort();
      for (const s of open) s.destroy();
    };
    await closeGracefully(server, drainMs, cutTunnels);
    abort.abort();
    await Promise.all(handling);
  };
  return {
    server,
    port: (server.address() as AddressInfo).port,
    accepting: () => accepting,
    stop,
  };
}
