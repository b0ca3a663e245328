// One outbound HTTP call over plain node:http(s) to the address the caller
// names. The agent never takes a proxy from the environment: in a secured pod
// the connection to the model's own address is what the redirect sends to the
// gateway, and every other connection is redirected to the egress proxy.
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface HttpCall {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Larger answers fail the call with `too_large`. */
  maxBytes: number;
  /** Keep the body (a model answer) or only count it (a tool answer). */
  keepBody: boolean;
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  bytes: number;
}

export class CallFailed extends Error {
  constructor(
    /** `timeout`, `too_large`, or the socket's error code (ECONNREFUSED, …). */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

// Own agents rather than the global ones, which Node 24 can set up from
// HTTP(S)_PROXY (NODE_USE_ENV_PROXY): the call must go where it is addressed.
// No keep-alive: the agent calls rarely, and a reused socket the far end has
// already closed fails the call.
const agents = { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };

export function httpCall(c: HttpCall): Promise<HttpAnswer> {
  const url = new URL(c.url);
  const tls = url.protocol === 'https:';
  const send = tls ? httpsRequest : httpRequest;
  const length = c.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(c.body)) };
  return new Promise((resolve, reject) => {
    // Why the call was cut here (deadline, size), preferred over the socket error that follows.
    let cut: CallFailed | undefined;
    const fail = (err: Error & { code?: string }): void => reject(cut ?? toFailure(err));
    const abort = (reason: CallFailed): void => {
      cut ??= reason;
      req.destroy(reason);
    };
    const options = {
      method: c.method,
      headers: { ...c.headers, ...length },
      agent: tls ? agents.https : agents.http,
    };
    const req = send(url, options, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > c.maxBytes) abort(new CallFailed('too_large', `answer over ${c.maxBytes} bytes`));
        else if (c.keepBody) chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          bytes,
        }),
      );
      res.on('error', fail);
      res.on('close', () => res.complete || fail(new CallFailed('ECONNRESET', 'the answer was cut off')));
    });
    // A deadline for the whole call, not an idle timeout: a slow drip of bytes cannot hold it open.
    const timer = setTimeout(
      () => abort(new CallFailed('timeout', `no answer within ${c.timeoutMs} ms`)),
      c.timeoutMs,
    );
    req.on('close', () => clearTimeout(timer));
    req.on('error', fail);
    req.end(c.body);
  });
}

function toFailure(err: Error & { code?: string }): CallFailed {
  if (err instanceof CallFailed) return err;
  return new CallFailed(err.code ?? 'network', err.message);
}
