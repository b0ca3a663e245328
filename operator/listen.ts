// Listening for the in-pod sidecars. They default to `::`, which serves IPv4
// and IPv6 alike (the init container redirects both families to them); on a
// node with IPv6 switched off that address does not exist, so they fall back
// to 0.0.0.0 rather than fail to start.
import type { Server } from 'node:net';

export const DUAL_STACK = '::';

function listenOnce(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Listens on `host`; `::` without IPv6 support becomes 0.0.0.0. */
export async function listenDualStack(server: Server, port: number, host: string): Promise<void> {
  try {
    await listenOnce(server, port, host);
  } catch (err) {
    if (host !== DUAL_STACK || (err as NodeJS.ErrnoException).code !== 'EAFNOSUPPORT') throw err;
    await listenOnce(server, port, '0.0.0.0');
  }
}
