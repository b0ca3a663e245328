// One client connection, start to end: read the first bytes, decide what the
// connection is and where it goes, ask the egress policy, connect, relay, and
// account for it (one log line, metrics, the access recorder). Logs carry the
// destination, kind, bytes, duration and outcome; never a path, query string
// or header, which may carry secrets.
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { TLSSocket } from 'node:tls';
import type { InterceptCa } from './egress/intercept-ca.ts';
import type { Pipeline } from './egress/http-pipeline.ts';
import type { ConnectionFacts } from './egress/http-facts.ts';
import type { Logger } from '../base/log.ts';
import type { RequestHead } from './http-head.ts';
import type { MetricKind, Outcome, ProxyMetrics } from './metrics.ts';
import { errorResponse, opsResponse, type OpsState } from './ops.ts';
import type { AccessRecorder, ConnectionKind, EgressPolicy } from './policy.ts';
import { kindOf, readPreamble, type Preamble, type PreambleRead } from './preamble.ts';
import { formatDestination, isSelf, routeHead, type Destination, type RouteOptions } from './route.ts';
import { connectUpstream, relay, UpstreamError } from './tunnel.ts';

export interface ConnectionContext {
  log: Logger;
  metrics: ProxyMetrics;
  policy: EgressPolicy;
  recorder: AccessRecorder;
  ops: OpsState;
  route: RouteOptions;
  tlsPort: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  headTimeoutMs: number;
  maxHeadBytes: number;
  /** Aborted when the drain after SIGTERM is over: everything still open is closed. */
  signal: AbortSignal;
  /**
   * The HTTP request path (access, approval, injection, record). Without it
   * plain HTTP is tunnelled by Host and no TLS is intercepted.
   */
  l7?: {
    pipeline: Pipeline;
    ca: InterceptCa;
    /** True when TLS to this host is terminated here (a routing rule names it). */
    intercept(host: string): boolean;
  };
  /** The port the agent really dialled (SO_ORIGINAL_DST), when the kernel says. */
  originalPort?: (client: Socket) => number | undefined;
}

interface Tally {
  kind: MetricKind;
  destination?: Destination;
  bytesUp: number;
  bytesDown: number;
  reason?: string;
  /** Set when the connection went (or was refused) as an opaque tunnel; the HTTP path records its own requests. */
  tunnel?: boolean;
}

const CONNECTED = Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n', 'latin1');

/**
 * Sends a last response (if any) and closes. The socket keeps being read and
 * discarded for a moment so the client sees the response instead of a reset.
 */
function closeWith(client: Socket, lingerMs: number, response?: Buffer): void {
  if (!response) return void client.destroy();
  client.on('end', () => client.destroy());
  client.setTimeout(lingerMs, () => client.destroy());
  client.resume();
  client.end(response);
}

function account(ctx: ConnectionContext, t: Tally, outcome: Outcome, started: number): void {
  const durationMs = Math.round(performance.now() - started);
  ctx.metrics.connections.inc({ kind: t.kind, outcome });
  const entry = {
    kind: t.kind,
    ...(t.destination ? { destination: formatDestination(t.destination) } : {}),
    outcome,
    ...(t.reason ? { reason: t.reason } : {}),
    bytesUp: t.bytesUp,
    bytesDown: t.bytesDown,
    durationMs,
  };
  if (t.kind === 'local') ctx.log.debug(entry, 'ops request');
  else ctx.log.info(entry, 'connection');
  if (t.destination && t.tunnel && t.kind !== 'local' && t.kind !== 'unknown') {
    const access = { kind: t.kind, destination: t.destination, outcome, durationMs };
    ctx.recorder.record({ ...access, bytesUp: t.bytesUp, bytesDown: t.bytesDown });
  }
}

interface TunnelRequest {
  kind: ConnectionKind;
  destination: Destination;
  /** Bytes already read from the client that the destination must see. */
  replay: Buffer;
}

/** Policy, connect, relay. Explicit-proxy clients get HTTP errors; TLS clients just a close. */
async function tunnel(
  client: Socket,
  req: TunnelRequest,
  ctx: ConnectionContext,
  t: Tally,
): Promise<Outcome> {
  const speaksHttp = req.kind !== 'tls';
  t.destination = req.destination;
  t.tunnel = true;
  const decision = await ctx.policy.decide({ kind: req.kind, destination: req.destination });
  if (!decision.allow) {
    t.reason = decision.reason;
    closeWith(client, ctx.headTimeoutMs, speaksHttp ? errorResponse(403, decision.reason) : undefined);
    return 'denied';
  }
  const connecting = performance.now();
  let upstream: Socket;
  try {
    const target = decision.address ? { ...req.destination, host: decision.address } : req.destination;
    upstream = await connectUpstream(target, ctx.connectTimeoutMs, ctx.signal);
  } catch (err) {
    t.reason = err instanceof UpstreamError ? err.reason : 'connect failed';
    closeWith(client, ctx.headTimeoutMs, speaksHttp ? errorResponse(502, t.reason) : undefined);
    return 'upstream-error';
  }
  ctx.metrics.connectSeconds.observe({ kind: req.kind }, (performance.now() - connecting) / 1000);
  if (req.kind === 'connect') client.write(CONNECTED);
  if (req.replay.length > 0) upstream.write(req.replay);
  const onBytes = (direction: 'up' | 'down', n: number): void => {
    ctx.metrics.bytes.inc({ direction }, n);
    if (direction === 'up') t.bytesUp += n;
    else t.bytesDown += n;
  };
  onBytes('up', req.replay.length);
  return relay(client, upstream, { idleTimeoutMs: ctx.idleTimeoutMs, signal: ctx.signal, onBytes });
}

/**
 * Terminates the agent's TLS with a certificate of the pod-local CA for the
 * host and serves the requests inside through the HTTP path. `replay`: the
 * bytes already read (the ClientHello, or what followed a CONNECT).
 */
async function intercept(
  client: Socket,
  { replay, facts }: { replay: Buffer; facts: ConnectionFacts },
  ctx: ConnectionContext,
  t: Tally,
): Promise<Outcome> {
  const l7 = ctx.l7 as NonNullable<ConnectionContext['l7']>;
  if (replay.length > 0) client.unshift(replay);
  const tls = new TLSSocket(client, {
    isServer: true,
    secureContext: l7.ca.contextFor(facts.tlsHost as string),
    ALPNProtocols: ['http/1.1'],
  });
  let failed: string | undefined;
  tls.on('error', (err: NodeJS.ErrnoException) => {
    failed ??= err.code ?? err.message;
    tls.destroy();
  });
  await l7.pipeline.serve(tls, facts);
  if (failed) {
    // Most often the agent does not trust the pod CA (its bundle variables are not set).
    t.reason = `intercepted TLS failed: ${failed}`;
    return 'malformed';
  }
  return 'ok';
}

/** A complete preamble of one kind, with the bytes read so far. */
type ReadOf<K extends Preamble['kind']> = { buf: Buffer; preamble: Extract<Preamble, { kind: K }> };

/** CONNECT to a routed host is intercepted (after the 200); any other is a tunnel. */
function handleConnect(
  client: Socket,
  { destination, replay }: { destination: Destination; replay: Buffer },
  ctx: ConnectionContext,
  t: Tally,
): Promise<Outcome> {
  if (!ctx.l7?.intercept(destination.host))
    return tunnel(client, { kind: 'connect', destination, replay }, ctx, t);
  t.destination = destination;
  client.write(CONNECTED);
  const facts = { scheme: 'https', tlsHost: destination.host, defaultPort: destination.port } as const;
  return intercept(client, { replay, facts }, ctx, t);
}

/** Plain HTTP goes through the HTTP path when there is one, else it is tunnelled by Host. */
async function handleForward(
  client: Socket,
  { destination, replay }: { destination: Destination; replay: Buffer },
  ctx: ConnectionContext,
  t: Tally,
): Promise<Outcome> {
  if (!ctx.l7) return tunnel(client, { kind: 'http', destination, replay }, ctx, t);
  t.destination = destination;
  client.unshift(replay);
  const defaultPort = ctx.originalPort?.(client) ?? ctx.route.plainPort;
  await ctx.l7.pipeline.serve(client, { scheme: 'http', defaultPort });
  return 'ok';
}

async function handleHttp(
  client: Socket,
  { head, buf }: { head: RequestHead; buf: Buffer },
  ctx: ConnectionContext,
  t: Tally,
): Promise<Outcome> {
  const route = routeHead(head, ctx.route);
  switch (route.kind) {
    case 'local':
      t.kind = 'local';
      closeWith(client, ctx.headTimeoutMs, await opsResponse(route.path, head.method, ctx.ops));
      return 'local';
    case 'bad':
      t.reason = route.reason;
      closeWith(client, ctx.headTimeoutMs, errorResponse(400, route.reason));
      return 'bad-request';
    case 'loop':
      t.destination = route.destination;
      closeWith(client, ctx.headTimeoutMs, errorResponse(400, 'destination is the proxy itself'));
      return 'loop';
    case 'connect':
      t.kind = 'connect';
      return handleConnect(
        client,
        { destination: route.destination, replay: buf.subarray(head.length) },
        ctx,
        t,
      );
    case 'forward':
      return handleForward(client, { destination: route.destination, replay: buf }, ctx, t);
  }
}

async function dispatch(
  client: Socket,
  read: PreambleRead,
  ctx: ConnectionContext,
  t: Tally,
): Promise<Outcome> {
  if (!read.ok) {
    const tooLarge = read.end === 'too-large' && t.kind === 'http';
    closeWith(client, ctx.headTimeoutMs, tooLarge ? errorResponse(431, 'request head too large') : undefined);
    return read.end;
  }
  const p = read.preamble;
  if (p.kind === 'http') return dispatchHttp(client, { buf: read.buf, preamble: p }, ctx, t);
  if (p.kind === 'tls') return dispatchTls(client, { buf: read.buf, preamble: p }, ctx, t);
  closeWith(client, 0);
  return 'unsupported';
}

async function dispatchHttp(
  client: Socket,
  read: ReadOf<'http'>,
  ctx: ConnectionContext,
  t: Tally,
): Promise<Outcome> {
  const parsed = read.preamble.head;
  if (parsed.kind === 'head') return handleHttp(client, { head: parsed.head, buf: read.buf }, ctx, t);
  t.reason = parsed.reason;
  closeWith(client, ctx.headTimeoutMs, errorResponse(400, 'malformed request head'));
  return 'malformed';
}

/** A TLS ClientHello goes to its SNI host on the TLS port; without one (or to the proxy itself) it is closed. */
async function dispatchTls(
  client: Socket,
  read: ReadOf<'tls'>,
  ctx: ConnectionContext,
  t: Tally,
): Promise<Outcome> {
  const hello = read.preamble.hello;
  if (hello.kind !== 'sni') {
    if (hello.kind === 'invalid') t.reason = hello.reason;
    closeWith(client, 0);
    return hello.kind === 'no-sni' ? 'no-sni' : 'malformed';
  }
  const destination = { host: hello.host, port: ctx.originalPort?.(client) ?? ctx.tlsPort };
  if (isSelf(destination, ctx.route)) {
    t.destination = destination;
    closeWith(client, 0);
    return 'loop';
  }
  if (ctx.l7?.intercept(destination.host)) {
    t.destination = destination;
    const facts = { scheme: 'https', tlsHost: destination.host, defaultPort: destination.port } as const;
    return intercept(client, { replay: read.buf, facts }, ctx, t);
  }
  return tunnel(client, { kind: 'tls', destination, replay: read.buf }, ctx, t);
}

/** Handles one accepted client socket to the end; never rejects. */
export async function handleConnection(client: Socket, ctx: ConnectionContext): Promise<void> {
  const started = performance.now();
  // Without a listener an 'error' (a reset) would crash the process.
  client.on('error', () => undefined);
  const t: Tally = { kind: 'unknown', bytesUp: 0, bytesDown: 0 };
  let outcome: Outcome;
  try {
    const read = await readPreamble(client, {
      maxBytes: ctx.maxHeadBytes,
      timeoutMs: ctx.headTimeoutMs,
      signal: ctx.signal,
    });
    t.kind = kindOf(read.buf);
    outcome = await dispatch(client, read, ctx, t);
  } catch (err) {
    ctx.log.error({ err }, 'connection handling failed');
    client.destroy();
    outcome = 'error';
  }
  account(ctx, t, outcome, started);
}
