// Reads a request body up to a byte limit. Reading stops at the limit
// (CLARIFICATIONS "/claims size limit"): a declared Content-Length over the
// limit is refused before a byte is read, and a streamed body is dropped as
// soon as it passes the limit; nothing past the limit is buffered.
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { ok: true; bytes: Buffer }
  | { ok: false; reason: 'too_large'; maxBytes: number }
  | { ok: false; reason: 'aborted' };

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.resolve({ ok: false, reason: 'too_large', maxBytes });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        req.pause();
        return settle({ ok: false, reason: 'too_large', maxBytes });
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle({ ok: true, bytes: Buffer.concat(chunks, size) }));
    req.once('error', () => settle({ ok: false, reason: 'aborted' }));
    req.once('close', () => settle({ ok: false, reason: 'aborted' }));
  });
}
