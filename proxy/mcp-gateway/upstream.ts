// The gateway as an MCP client of one server (Streamable HTTP): POST a
// JSON-RPC message, read a JSON or an SSE answer (at most `maxBytes`, within
// `timeoutMs`), keep the server's `Mcp-Session-Id`. Over mTLS the agent's
// SVID is presented and only https is spoken (decision 170). Every failure
// is an `UpstreamError` whose message names no credential.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { McpServerRef } from '../../contract/egress.ts';
import type { SvidSource } from './svid-tls.ts';

export const PROTOCOL_VERSION = '2025-06-18';

export interface UpstreamOptions {
  /** Present the SVID and refuse plain http (MCP_GATEWAY_MTLS_ENABLED). */
  mtls: boolean;
  svid?: SvidSource;
  timeoutMs: number;
  maxBytes: number;
}

export class UpstreamError extends Error {
  constructor(
    readonly code: 'not_permitted' | 'unreachable' | 'timeout' | 'bad_answer' | 'rpc_error' | 'session_lost',
    message: string,
    readonly rpc?: { code: number; message: string; data?: unknown },
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** Why the gateway will not speak to this URL; undefined when it will. */
export function serverUrlProblem(url: string, mtls: boolean): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not an absolute URL';
  }
  if (u.username || u.password) return 'carries credentials';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol !== 'http:') return 'is neither http nor https';
  return mtls ? 'is plain http, and MCP_GATEWAY_MTLS_ENABLED requires https with mTLS' : undefined;
}

/** The host and port of a server, as the egress access check sees it. */
export function serverAddress(url: string): { host: string; port: number } {
  const u = new URL(url);
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return { host: u.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port };
}

interface RawAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

function readAnswer(res: IncomingMessage, maxBytes: number): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(new UpstreamError('bad_answer', `the answer exceeds ${maxBytes} bytes`));
      } else chunks.push(chunk);
    });
    res.on('end', () =>
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: Buffer.concat(chunks).toString('utf8'),
      }),
    );
    res.on('error', () => reject(new UpstreamError('unreachable', 'the answer was cut off')));
  });
}

function failure(err: unknown): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e.name === 'AbortError' || e.name === 'TimeoutError')
    return new UpstreamError('timeout', 'the server did not answer in time');
  return new UpstreamError('unreachable', `the server could not be reached (${e.code ?? e.message})`);
}

interface Outgoing {
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

async function post(
  { url, body, headers }: Outgoing,
  o: UpstreamOptions,
  signal: AbortSignal,
): Promise<RawAnswer> {
  const https = url.startsWith('https:');
  const tls = https && o.mtls && o.svid ? await o.svid.tlsOptions() : {};
  const payload = Buffer.from(JSON.stringify(body));
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(o.timeoutMs)]);
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      agent: false,
      signal: deadline,
      ...tls,
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': String(payload.length),
      },
    });
    req.on('response', (res) => readAnswer(res, o.maxBytes).then(resolve, reject));
    req.on('error', (err) => reject(failure(err)));
    req.end(payload);
  }).catch((err: unknown) => {
    throw failure(err);
  });
}

/** The JSON-RPC messages of an answer: its JSON body, or the `data` of each SSE event. */
export function answerMessages(contentType: string, text: string): unknown[] {
  const parse = (t: string): unknown[] => {
    try {
      const v: unknown = JSON.parse(t);
      return Array.isArray(v) ? v : [v];
    } catch {
      return [];
    }
  };
  if (!contentType.startsWith('text/event-stream')) return parse(text);
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .flatMap(parse);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function resultOf(answer: RawAnswer, id: number): unknown {
  if (answer.status < 200 || answer.status > 299)
    throw new UpstreamError('bad_answer', `the server answered HTTP ${answer.status}`);
  const messages = answerMessages(String(answer.headers['content-type'] ?? ''), answer.text);
  const reply = messages.find((m) => isObject(m) && m.id === id);
  if (!isObject(reply)) throw new UpstreamError('bad_answer', 'the server sent no JSON-RPC answer');
  if (isObject(reply.error)) {
    const code = typeof reply.error.code === 'number' ? reply.error.code : -32603;
    const message = String(reply.error.message ?? 'error').slice(0, 500);
    throw new UpstreamError('rpc_error', `the server answered error ${code}: ${message}`, {
      code,
      message,
      ...(reply.error.data === undefined ? {} : { data: reply.error.data }),
    });
  }
  if (!isObject(reply.result)) throw new UpstreamError('bad_answer', 'the server sent no result');
  return reply.result;
}

/** One MCP session with one server: initialized once, then requests. */
export class UpstreamSession {
  private sessionId: string | undefined;
  private version = PROTOCOL_VERSION;
  private nextId = 1;

  constructor(
    readonly server: McpServerRef,
    private readonly o: UpstreamOptions,
  ) {}

  private headers(): Record<string, string> {
    const h: Record<string, string> = { 'mcp-protocol-version': this.version };
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    return h;
  }

  /** `initialize`, then `notifications/initialized`. */
  async open(signal: AbortSignal): Promise<void> {
    const problem = serverUrlProblem(this.server.url, this.o.mtls);
    if (problem) throw new UpstreamError('not_permitted', `the server URL ${problem}`);
    const id = this.nextId++;
    const params = {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'platform-mcp-gateway', version: '1' },
    };
    const answer = await post(
      { url: this.server.url, body: { jsonrpc: '2.0', id, method: 'initialize', params }, headers: {} },
      this.o,
      signal,
    );
    const result = resultOf(answer, id) as { protocolVersion?: unknown };
    const session = answer.headers['mcp-session-id'];
    this.sessionId = typeof session === 'string' ? session : undefined;
    if (typeof result.protocolVersion === 'string') this.version = result.protocolVersion;
    const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const ack = await post({ url: this.server.url, body: note, headers: this.headers() }, this.o, signal);
    if (ack.status < 200 || ack.status > 299)
      throw new UpstreamError(
        'bad_answer',
        `the server refused notifications/initialized (HTTP ${ack.status})`,
      );
  }

  /** A request in this session; a 404 means the server forgot the session (the caller may open a new one). */
  async request(
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const answer = await post(
      { url: this.server.url, body: { jsonrpc: '2.0', id, method, params }, headers: this.headers() },
      this.o,
      signal,
    );
    if (answer.status === 404 && this.sessionId)
      throw new UpstreamError('session_lost', 'the server no longer knows the session (HTTP 404)');
    return resultOf(answer, id) as Record<string, unknown>;
  }
}
