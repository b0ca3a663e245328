// The HTTPS shell: POST an AdmissionReview to a route, get one back. Body
// limit, content-type and method checks, 400 `{detail, code}` for a
// malformed review, a deadline on every handler, a client that hangs up
// counted as `client_closed` (not an error), and a serving certificate
// that can be swapped without a restart (`setSecureContext`). The server may
// start without one: it listens, refuses TLS handshakes, and serves from the
// first `reloadCertificate` on.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyAbortedError, readBoundedBody } from '../base/body.ts';
import { errorBody, HttpError } from '../base/http-error.ts';
import { closeGracefully } from '../base/close.ts';
import { listen } from '../base/listen.ts';
import type { Logger } from '../base/log.ts';
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

/** Loopback unless told otherwise: in a cluster the Deployment passes the pod IP (decision 88). */
export const DEFAULT_HOST = '127.0.0.1';

export interface WebhookServerOptions {
  /** Listen address; default 127.0.0.1. */
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
  /** How long `close()` lets in-flight reviews finish; default 10 s. */
  closeGraceMs?: number;
}

export interface WebhookServer {
  server: Server;
  port: number;
  /** Serves new connections with this certificate from now on. */
  reloadCertificate(certificate: ServingCertificate): void;
  /** Stops accepting; in-flight reviews are answered (cut after the grace period). */
  close(): Promise<void>;
}

/** What the metrics say when the client left before its answer was written. */
export const CLIENT_CLOSED = 'client_closed';
/** How long in-flight reviews may finish after `close()` before their connections are cut. */
const CLOSE_GRACE_MS = 10_000;

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new HttpError(500, `admission handler did not answer within ${ms} ms`, 'handler_timeout')),
      ms,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

async function answer(req: IncomingMessage, options: WebhookServerOptions): Promise<string> {
  const path = (req.url ?? '/').split('?')[0] as string;
  const handler = options.routes[path];
  if (!handler)
    throw new HttpError(
      404,
      `no admission webhook at ${path}; serving ${Object.keys(options.routes).join(', ')}`,
      'not_found',
    );
  if (req.method !== 'POST')
    throw new HttpError(
      405,
      `${req.method ?? ''} not allowed; POST an AdmissionReview`,
      'method_not_allowed',
      {
        allow: 'POST',
      },
    );
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type))
    throw new HttpError(
      415,
      `content-type ${JSON.stringify(type)}; expected application/json`,
      'unsupported_media_type',
    );
  const request = parseReview((await readBoundedBody(req, options.bodyLimitBytes)).toString('utf8'));
  return reviewBody(await withDeadline(handler(request), options.handlerTimeoutMs));
}

/** A failed request as the one HttpError; the detail of an unexpected error is not echoed. */
function refusal(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof BadRequestError) return new HttpError(400, err.message, 'invalid_review');
  return new HttpError(500, 'internal error', 'internal');
}

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  /** True once `close()` was called: answers carry `connection: close`. */
  closing: () => boolean;
}

function send(x: Exchange, status: number, body: string, headers: Record<string, string> = {}): void {
  // A client that hung up (its end of the socket closed) gets nothing: its exchange counts as client_closed.
  if (x.res.headersSent || x.res.destroyed || x.res.socket?.writable !== true) return;
  const close = x.closing() || status === 413;
  x.res.writeHead(status, {
    'content-type': 'application/json',
    ...headers,
    ...(close ? { connection: 'close' } : {}),
  });
  x.res.end(body);
}

function fail(x: Exchange, err: unknown, log: Logger): void {
  if (err instanceof BodyAbortedError) {
    log.debug({ path: x.path }, 'admission request abandoned by the client');
    return;
  }
  const refused = refusal(err);
  const { status, detail } = refused;
  if (status === 500) log.error({ err: String(err), path: x.path }, 'admission request failed');
  else log.warn({ status, path: x.path, detail }, 'admission request refused');
  send(x, status, JSON.stringify(errorBody(refused)), refused.headers);
  if (status === 413) x.res.once('finish', () => x.req.destroy());
}

function onRequest(
  options: WebhookServerOptions,
  closing: () => boolean,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const path = (req.url ?? '/').split('?')[0] as string;
    const x: Exchange = { req, res, path, closing };
    // Counted when the exchange ends: a status once the answer went out, else the client left first.
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const code = res.writableFinished ? String(res.statusCode) : CLIENT_CLOSED;
      if (code === CLIENT_CLOSED)
        options.log.debug({ path }, 'client closed the connection before the answer');
      options.metrics?.requestSeconds.observe({ path: options.routes[path] ? path : 'other', code }, seconds);
    });
    answer(req, options).then(
      (body) => send(x, 200, body),
      (err: unknown) => fail(x, err, options.log),
    );
  };
}

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const c = options.certificate;
  let closing = false;
  const server = createServer(
    { ...(c ? { cert: c.certPem, key: c.keyPem } : {}), minVersion: 'TLSv1.2' },
    onRequest(options, () => closing),
  );
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 60_000;
  server.on('tlsClientError', (err) => options.log.debug({ err: String(err) }, 'TLS handshake failed'));
  const port = await listen(server, options.port, options.host ?? DEFAULT_HOST);
  const host = (server.address() as AddressInfo).address;
  options.log.info(
    { host, port, routes: Object.keys(options.routes) },
    'admission webhook listening (HTTPS)',
  );
  return {
    server,
    port,
    reloadCertificate: (c) =>
      server.setSecureContext({ cert: c.certPem, key: c.keyPem, minVersion: 'TLSv1.2' }),
    close: () => {
      closing = true;
      return closeGracefully(server, options.closeGraceMs ?? CLOSE_GRACE_MS);
    },
  };
}
