// The one way every server here stops: stop accepting at once, close the
// keep-alive connections that are idle, let requests already in flight finish
// and be answered, and after `graceMs` cut whatever is still open. Resolves
// once the server is closed.
// An HTTP(S) server also stops keeping connections alive: an answer started
// from now on says `connection: close`, and a connection whose answer went
// out while closing is closed a second later (Node's margin over the
// keep-alive timeout) rather than after the keep-alive timeout itself, which
// would hold the stop for seconds, or a minute.
import type { Server as HttpServer, ServerResponse } from 'node:http';
import type { Server } from 'node:net';

/** The grace of a role without its own setting: under the lifecycle's 10 s per stop step. */
export const HTTP_GRACE_MS = 8_000;

/** Anything `closeGracefully` can close: an HTTP(S) server or a bare TCP one. */
export type Closable = Server &
  Partial<Pick<HttpServer, 'closeIdleConnections' | 'closeAllConnections' | 'keepAliveTimeout'>>;

function stopKeepAlive(server: Closable): void {
  server.on('request', (_req: unknown, res: ServerResponse) => {
    res.shouldKeepAlive = false;
  });
  // Node arms this timeout (plus its 1 s margin) on a connection once its answer is finished.
  server.keepAliveTimeout = 1;
  server.closeIdleConnections?.();
}

/**
 * Stops accepting, lets in-flight requests finish for `graceMs`, then runs
 * `cut` (default: close every connection still open). Resolves when closed.
 */
export function closeGracefully(
  server: Closable,
  graceMs: number,
  cut: () => void = () => server.closeAllConnections?.(),
): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(cut, graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    if (server.closeIdleConnections) stopKeepAlive(server);
  });
}
