// The one bounded body reader of every server. Reading stops at the limit
// (CLARIFICATIONS "/claims size limit"): a declared Content-Length over the
// limit is refused before a byte is read, a streamed body is refused as soon
// as it passes the limit, and nothing past the limit is buffered. What the
// client still sends is read and dropped for a bounded time, so it can finish
// sending and read the 413 (closing a socket with unread data resets it and
// the answer is lost).
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.ts';

/** After refusing an oversized body: how long the rest may still arrive (and be dropped) before the socket is cut. */
const LINGER_MS = 5_000;

/** The client closed the connection before its body was complete: nothing to answer. */
export class BodyAbortedError extends Error {
  constructor() {
    super('the client closed the connection before the body was complete');
    this.name = 'BodyAbortedError';
  }
}

/** The 413 of every server; the connection is closed after the answer. */
export function bodyTooLarge(limitBytes: number): HttpError {
  return new HttpError(413, `request body exceeds the limit of ${limitBytes} bytes`, 'body_too_large', {
    connection: 'close',
  });
}

/**
 * Reads and drops what the client still sends after an early answer; a
 * client that keeps sending past LINGER_MS is cut off.
 */
export function discardRest(req: IncomingMessage): void {
  const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

function declaredLength(req: IncomingMessage): number {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) ? declared : 0;
}

/**
 * The body of `req`, at most `limitBytes`. Rejects with the 413 `HttpError`
 * (`body_too_large`) past the limit, with `BodyAbortedError` when the client
 * hangs up first.
 */
export function readBoundedBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  if (declaredLength(req) > limitBytes) {
    discardRest(req);
    return Promise.reject(bodyTooLarge(limitBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void): void => {
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onAbort);
      outcome();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limitBytes) return void chunks.push(chunk);
      chunks.length = 0;
      settle(() => reject(bodyTooLarge(limitBytes)));
      discardRest(req);
    };
    const onEnd = (): void => settle(() => resolve(Buffer.concat(chunks, size)));
    // An aborted upload ends in 'error' (ECONNRESET) or a 'close' before 'end'.
    const onAbort = (): void => settle(() => reject(new BodyAbortedError()));
    req.on('data', onData).once('end', onEnd).once('error', onAbort).once('close', onAbort);
  });
}

export type BodyResult =
  | { ok: true; bytes: Buffer }
  | { ok: false; reason: 'too_large'; maxBytes: number }
  | { ok: false; reason: 'aborted' };

/** `readBoundedBody` as a result, for servers that answer in their own shape. */
export function readBodyResult(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  return readBoundedBody(req, maxBytes).then(
    (bytes): BodyResult => ({ ok: true, bytes }),
    (err: unknown): BodyResult =>
      err instanceof BodyAbortedError
        ? { ok: false, reason: 'aborted' }
        : { ok: false, reason: 'too_large', maxBytes },
  );
}

/**
 * The parser's complaint without the excerpt of the body V8 quotes in it
 * (`Unexpected token 'x', "{"key": x…"... is not valid JSON`): a body may hold a
 * secret, and an error answer or log line must not repeat it.
 */
export function syntaxProblem(err: Error): string {
  const message = err.message.replace(/, (\.\.\.)?".*$/s, '');
  return message.replace(
    /[^\x20-\x7e]/g,
    (c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}
