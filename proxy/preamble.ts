// The first bytes of a client connection, read until they say what the
// connection is: a TLS ClientHello, an HTTP/1.x request head, or neither.
// `inspectPreamble` is pure; `readPreamble` feeds it from a socket within a
// byte limit and a deadline, so a silent or endless client never holds a slot.
import type { Socket } from 'node:net';
import { looksLikeHttp, parseHead, type HeadResult } from './http-head.ts';
import { looksLikeTls, parseClientHello, type HelloResult } from './sni.ts';

export type Preamble =
  | { kind: 'need-more'; until?: number }
  | { kind: 'tls'; hello: Exclude<HelloResult, { kind: 'need-more' }> }
  | { kind: 'http'; head: Exclude<HeadResult, { kind: 'need-more' }> }
  | { kind: 'unsupported' };

/** What the first bytes look like, before they are complete. */
export function kindOf(buf: Buffer): 'tls' | 'http' | 'unknown' {
  if (looksLikeTls(buf)) return 'tls';
  return looksLikeHttp(buf) ? 'http' : 'unknown';
}

/**
 * Classifies the bytes received so far. `scanned` is how many of them an
 * earlier call already saw (lets the HTTP parser search only the new tail).
 */
export function inspectPreamble(buf: Buffer, scanned = 0): Preamble {
  if (buf.length === 0) return { kind: 'need-more' };
  const kind = kindOf(buf);
  if (kind === 'tls') {
    const hello = parseClientHello(buf);
    return hello.kind === 'need-more' ? hello : { kind: 'tls', hello };
  }
  if (kind === 'http') {
    const head = parseHead(buf, scanned);
    return head.kind === 'need-more' ? { kind: 'need-more' } : { kind: 'http', head };
  }
  return { kind: 'unsupported' };
}

export type PreambleRead =
  | { ok: true; buf: Buffer; preamble: Exclude<Preamble, { kind: 'need-more' }> }
  | { ok: false; buf: Buffer; end: 'timeout' | 'too-large' | 'client-closed' | 'shutdown' };

export interface PreambleOptions {
  maxBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * Reads from `socket` until `inspectPreamble` decides, the byte limit or the
 * deadline is reached, the client goes away or the proxy shuts down. Leaves
 * the socket paused with no data listener, so the caller can pipe it.
 */
export function readPreamble(socket: Socket, o: PreambleOptions): Promise<PreambleRead> {
  return new Promise((resolve) => {
    // One buffer that grows by doubling: tiny chunks cost linear copying, not quadratic.
    let store = Buffer.alloc(Math.min(4096, o.maxBytes));
    let length = 0;
    let until = 0;
    const done = (result: PreambleRead): void => {
      clearTimeout(timer);
      socket.off('data', onData).off('end', onEnd).off('close', onEnd);
      o.signal.removeEventListener('abort', onAbort);
      socket.pause();
      resolve(result);
    };
    const append = (chunk: Buffer): void => {
      if (length + chunk.length > store.length) {
        const grown = Buffer.alloc(Math.max(store.length * 2, length + chunk.length));
        store.copy(grown, 0, 0, length);
        store = grown;
      }
      chunk.copy(store, length);
      length += chunk.length;
    };
    const onData = (chunk: Buffer): void => {
      const scanned = length;
      append(chunk);
      const buf = store.subarray(0, length);
      if (length < until && length < o.maxBytes) return;
      const p = inspectPreamble(buf.subarray(0, o.maxBytes), scanned);
      if (p.kind !== 'need-more') return done({ ok: true, buf, preamble: p });
      if (length >= o.maxBytes) return done({ ok: false, buf, end: 'too-large' });
      until = p.until ?? 0;
    };
    const onEnd = (): void => done({ ok: false, buf: store.subarray(0, length), end: 'client-closed' });
    const onAbort = (): void => done({ ok: false, buf: store.subarray(0, length), end: 'shutdown' });
    const timer = setTimeout(
      () => done({ ok: false, buf: store.subarray(0, length), end: 'timeout' }),
      o.timeoutMs,
    );
    socket.on('data', onData).on('end', onEnd).on('close', onEnd);
    o.signal.addEventListener('abort', onAbort, { once: true });
    if (o.signal.aborted) onAbort();
  });
}
