// The one way every server here starts listening. `listen` binds host:port and
// resolves with the bound port (port 0 picks a free one); a port in use or one
// the process may not bind becomes an error that says which address and why.
// The in-pod sidecars default to `::`, which serves IPv4 and IPv6 alike (the
// init container redirects both families to them); on a node with IPv6
// switched off that address does not exist, so `listenDualStack` falls back to
// 0.0.0.0 rather than fail to start.
import type { AddressInfo, Server } from 'node:net';

export const DUAL_STACK = '::';

const REASONS: Record<string, string> = {
  EADDRINUSE: 'the port is already in use',
  EACCES: 'permission denied (ports below 1024 need privileges)',
};

/** A server that could not bind; `code` is the system's (EADDRINUSE, EACCES). */
export class ListenError extends Error {
  constructor(
    readonly code: string,
    readonly host: string,
    readonly port: number,
  ) {
    const where = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    super(`cannot listen on ${where}: ${REASONS[code] ?? code} (${code})`);
    this.name = 'ListenError';
  }
}

function bind(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException): void => {
      const code = err.code ?? '';
      reject(code in REASONS ? new ListenError(code, host, port) : err);
    };
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
}

/** Listens on `host:port`; resolves with the bound port. */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await bind(server, port, host);
  return (server.address() as AddressInfo).port;
}

/** Listens on `host`; `::` without IPv6 support becomes 0.0.0.0. */
export async function listenDualStack(server: Server, port: number, host: string): Promise<void> {
  try {
    await bind(server, port, host);
  } catch (err) {
    if (host !== DUAL_STACK || (err as NodeJS.ErrnoException).code !== 'EAFNOSUPPORT') throw err;
    await bind(server, port, '0.0.0.0');
  }
}
