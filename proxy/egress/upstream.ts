// Sending one request on to its target: plain HTTP, or TLS originated here
// (the agent's TLS ended at the proxy), verified against the system roots plus
// any extra CA the operator configures. The address the guard checked is used
// for the connection (no second DNS answer), the name for SNI and Host. Keep-
// alive pools per scheme. A target that does not answer within the response
// deadline is cut off (504).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { Destination } from '../route.ts';

export interface UpstreamOptions {
  /** Extra trusted roots (PEM) besides the system's, e.g. a private CA. */
  extraRoots: readonly string[];
  /** From the request sent (connect included) to the response head. */
  responseTimeoutMs: number;
}

export interface UpstreamRequest {
  scheme: 'http' | 'https';
  destination: Destination;
  /** The address the guard resolved and checked (undefined: connect by name). */
  address?: string;
  method: string;
  pathAndQuery: string;
  /** Raw [name, value, ...] header pairs. */
  headers: string[];
  /** A buffered body, or a stream to pipe. */
  body: Buffer | NodeJS.ReadableStream | undefined;
  signal: AbortSignal;
}

export class UpstreamFailure extends Error {
  constructor(
    readonly status: 502 | 504,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function pinned(address: string): LookupFunction {
  const family = isIP(address) === 6 ? 6 : 4;
  return ((_host: string, options: { all?: boolean }, cb: (...a: unknown[]) => void) => {
    if (options?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  }) as unknown as LookupFunction;
}

export class Upstream {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  private readonly https: HttpsAgent;

  constructor(private readonly o: UpstreamOptions) {
    this.https = new HttpsAgent({
      keepAlive: true,
      maxSockets: 256,
      ca: [...rootCertificates, ...o.extraRoots],
    });
  }

  send(r: UpstreamRequest): Promise<IncomingMessage> {
    const tls = r.scheme === 'https';
    const send = tls ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send({
        host: r.destination.host,
        port: r.destination.port,
        method: r.method,
        path: r.pathAndQuery,
        headers: r.headers as unknown as Record<string, string>,
        agent: tls ? this.https : this.http,
        ...(r.address && r.address !== r.destination.host ? { lookup: pinned(r.address) } : {}),
        ...(tls && isIP(r.destination.host) === 0 ? { servername: r.destination.host } : {}),
        signal: r.signal,
        setHost: !r.headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host'),
      });
      const deadline = setTimeout(() => {
        req.destroy(new UpstreamFailure(504, 'the target did not answer in time'));
      }, this.o.responseTimeoutMs);
      req.once('response', (res) => {
        clearTimeout(deadline);
        resolve(res);
      });
      req.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(deadline);
        if (err instanceof UpstreamFailure) reject(err);
        else reject(new UpstreamFailure(502, failureReason(err)));
      });
      if (r.body === undefined) req.end();
      else if (Buffer.isBuffer(r.body)) req.end(r.body);
      else r.body.pipe(req);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/** A short, secret-free reason: an errno or TLS code. */
function failureReason(err: NodeJS.ErrnoException): string {
  if (err.name === 'AbortError') return 'the call was abandoned';
  const code = err.code ?? 'upstream error';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(code))
    return `the target's TLS certificate was refused (${code})`;
  return code;
}
