// A small HTTP client for the conformance suite, on node:http so it can send
// raw bytes (invalid UTF-8), stream a body without Content-Length, and accept
// an answer that arrives before the whole body was sent (a server that stops
// reading at its size limit).
import { request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

export interface SendOptions {
  method?: string;
  body?: Buffer | string;
  /** Stream this many bytes of filler (chunked, no Content-Length) instead of `body`. */
  streamBytes?: number;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Waits for 'drain' or 'close', removing the other listener so none pile up across waits. */
function drainedOrClosed(req: ReturnType<typeof request>): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      req.off('drain', done).off('close', done);
      resolve();
    };
    req.on('drain', done).on('close', done);
  });
}

async function streamFiller(
  req: ReturnType<typeof request>,
  total: number,
  answered: () => boolean,
): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  req.write('{"data":{"input":"');
  for (let sent = 0; sent < total && !answered() && !req.destroyed; sent += chunk.length) {
    if (!req.write(chunk)) await drainedOrClosed(req);
  }
  if (!answered() && !req.destroyed) req.end('"},"phase":"request"}');
}

export function send(url: string, options: SendOptions = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = request(url, {
      method: options.method ?? 'GET',
      headers,
      timeout: options.timeoutMs ?? 30_000,
    });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parse(text) });
        req.destroy();
      });
      res.on('error', reject);
    });
    req.on('timeout', () =>
      req.destroy(new Error(`no answer from ${url} within ${options.timeoutMs ?? 30_000} ms`)),
    );
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (options.streamBytes !== undefined) {
      streamFiller(req, options.streamBytes, () => answered).catch(() => undefined);
    } else req.end(options.body);
  });
}

export function postJson(url: string, body: unknown, timeoutMs?: number): Promise<HttpAnswer> {
  return send(url, { method: 'POST', body: JSON.stringify(body), ...(timeoutMs ? { timeoutMs } : {}) });
}
