// Opening the upstream connection and relaying bytes both ways. The proxy
// never looks inside a tunnel: TLS stays end to end between the agent and the
// destination. Every wait is bounded (connect deadline, idle deadline, abort
// on shutdown) and a failure on either side closes both.
import { connect, type Socket } from 'node:net';
import type { Destination } from './route.ts';

export class UpstreamError extends Error {
  /** A short, secret-free reason for logs and the 502 body: an errno code or `connect timeout`. */
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Connects to the destination (DNS + TCP) within `timeoutMs`; half-close is relayed, not answered. */
export function connectUpstream(d: Destination, timeoutMs: number, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: d.host, port: d.port, allowHalfOpen: true });
    const fail = (reason: string): void => {
      cleanup();
      socket.destroy();
      reject(new UpstreamError(reason));
    };
    const onError = (err: NodeJS.ErrnoException): void => fail(err.code ?? 'connect failed');
    const onAbort = (): void => fail('shutting down');
    const timer = setTimeout(() => fail('connect timeout'), timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      socket.off('error', onError);
      signal.removeEventListener('abort', onAbort);
    };
    socket.once('connect', () => {
      cleanup();
      resolve(socket);
    });
    socket.on('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
  });
}

export type RelayOutcome = 'ok' | 'idle-timeout' | 'upstream-error' | 'client-closed' | 'shutdown';

export interface RelayOptions {
  idleTimeoutMs: number;
  signal: AbortSignal;
  onBytes(direction: 'up' | 'down', n: number): void;
}

/**
 * Pipes client ⇄ upstream until both are closed. Resolves with how it ended;
 * never rejects. A reset by the client is `client-closed`, by the upstream
 * `upstream-error`; either destroys both sockets.
 */
export function relay(client: Socket, upstream: Socket, o: RelayOptions): Promise<RelayOutcome> {
  if (client.destroyed || upstream.destroyed || o.signal.aborted) {
    // A socket destroyed earlier has already emitted 'close'; waiting for it would hang.
    const why = client.destroyed ? 'client-closed' : upstream.destroyed ? 'upstream-error' : 'shutdown';
    client.destroy();
    upstream.destroy();
    return Promise.resolve(why);
  }
  return new Promise((resolve) => {
    let outcome: RelayOutcome = 'ok';
    let open = 2;
    const finish = (why: RelayOutcome): void => {
      if (outcome === 'ok') outcome = why;
      client.destroy();
      upstream.destroy();
    };
    const onClose = (): void => {
      if (--open > 0) return;
      o.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => finish('shutdown');
    for (const [socket, direction, failure] of [
      [client, 'up', 'client-closed'],
      [upstream, 'down', 'upstream-error'],
    ] as const) {
      socket.on('data', (chunk: Buffer) => o.onBytes(direction, chunk.length));
      socket.on('error', () => finish(failure));
      socket.once('close', onClose);
      // Any activity, read or write, restarts the timer, so a one-way stream is not idle.
      socket.setTimeout(o.idleTimeoutMs, () => finish('idle-timeout'));
    }
    o.signal.addEventListener('abort', onAbort, { once: true });
    client.pipe(upstream);
    upstream.pipe(client);
  });
}
