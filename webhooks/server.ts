// The HTTPS shell: POST an AdmissionReview to a route, get one back. Body
// limit, content-type and method checks, 400 with a clear message for a
// malformed review, a deadline on every handler, and a serving certificate
// that can be swapped without a restart (`setSecureContext`). The server may
// start without one: it listens, refuses TLS handshakes, and serves from the
// first `reloadCertificate` on.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../operator/log.ts';
import {
  BadRequestError,
  parseReview,
  reviewBody,
  type AdmissionRequest,
  type AdmissionResponse,
} from './admission/review.ts';
import type { WebhookMetrics } from './metrics.ts';

export type AdmissionHandler = (request: AdmissionRequest) => Promise<AdmissionResponse>;

export interface ServingCertificate {
  certPem: string;
  keyPem: string;
}

export interface WebhookServerOptions {
  host?: string;
  port: number;
  /** Absent: handshakes fail until `reloadCertificate` is called. */
  certificate?: ServingCertificate;
  routes: Record<string, AdmissionHandler>;
  bodyLimitBytes: number;
  /** Answer 500 when a handler takes longer (the apiserver would give up anyway). */
  handlerTimeoutMs: number;
  log: Logger;
  metrics?: WebhookMetrics;
}

export interface WebhookServer {
  server: Server;
  port: number;
  /** Serves new connections with this certificate from now on. */
  reloadCertificate(certificate: ServingCertificate): void;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limitBytes)
    return Promise.reject(
      new HttpError(413, `body of ${declared} bytes exceeds the limit of ${limitBytes} bytes`),
    );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        req.removeAllListeners('data');
        reject(new HttpError(413, `body exceeds the limit of ${limitBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new HttpError(500, `admission handler did not answer within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function send(res: ServerResponse, status: number, body: string, close = false): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) });
  res.end(body);
}

async function answer(req: IncomingMessage, options: WebhookServerOptions): Promise<string> {
  const path = (req.url ?? '/').split('?')[0] as string;
  const handler = options.routes[path];
  if (!handler)
    throw new HttpError(
      404,
      `no admission webhook at ${path}; serving ${Object.keys(options.routes).join(', ')}`,
    );
  if (req.method !== 'POST')
    throw new HttpError(405, `${req.method ?? ''} not allowed; POST an AdmissionReview`);
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type))
    throw new HttpError(415, `content-type ${JSON.stringify(type)}; expected application/json`);
  const request = parseReview(await readBody(req, options.bodyLimitBytes));
  return reviewBody(await withDeadline(handler(request), options.handlerTimeoutMs));
}

function onRequest(options: WebhookServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const path = (req.url ?? '/').split('?')[0] as string;
    const done = (status: number): void => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      options.metrics?.requestSeconds.observe(
        { path: options.routes[path] ? path : 'other', code: String(status) },
        seconds,
      );
    };
    answer(req, options).then(
      (body) => {
        send(res, 200, body);
        done(200);
      },
      (err: unknown) => {
        const status = err instanceof HttpError ? err.status : err instanceof BadRequestError ? 400 : 500;
        if (status === 500) options.log.error({ err: String(err), path }, 'admission request failed');
        else options.log.warn({ status, path, detail: (err as Error).message }, 'admission request refused');
        const detail =
          status === 500 && !(err instanceof HttpError) ? 'internal error' : (err as Error).message;
        send(res, status, JSON.stringify({ detail }), status === 413);
        if (status === 413) res.once('finish', () => req.destroy());
        done(status);
      },
    );
  };
}

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const c = options.certificate;
  const server = createServer(
    { ...(c ? { cert: c.certPem, key: c.keyPem } : {}), minVersion: 'TLSv1.2' },
    onRequest(options),
  );
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 60_000;
  server.on('tlsClientError', (err) => options.log.debug({ err: String(err) }, 'TLS handshake failed'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  options.log.info({ port, routes: Object.keys(options.routes) }, 'admission webhook listening (HTTPS)');
  return {
    server,
    port,
    reloadCertificate: (c) =>
      server.setSecureContext({ cert: c.certPem, key: c.keyPem, minVersion: 'TLSv1.2' }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
