// Outbound JSON over node:http(s) with keep-alive agents, a deadline and a
// response size cap, for the pod's sidecars calling the Verifier and the
// auditors. mTLS auditors get an https agent with the gateway's client
// certificate; API-key auditors a bearer header.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { request as httpsRequest } from 'node:https';

export interface CallOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs: number;
  agent?: HttpAgent | HttpsAgent;
  maxBytes?: number;
}

export interface CallResult {
  status: number;
  body: Buffer;
}

export class CallError extends Error {
  constructor(
    readonly code: 'timeout' | 'network' | 'too_large' | 'tls',
    message: string,
  ) {
    super(message);
  }
}

export const plainAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 });

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/;

export function callJson(url: string, o: CallOptions): Promise<CallResult> {
  const u = new URL(url);
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  const payload = o.body === undefined ? undefined : Buffer.from(JSON.stringify(o.body));
  const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
  if (payload)
    Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(payload.length) });
  return new Promise((resolve, reject) => {
    const req = send(
      u,
      {
        method: o.method ?? (payload ? 'POST' : 'GET'),
        headers,
        agent: o.agent ?? (u.protocol === 'https:' ? undefined : plainAgent),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > (o.maxBytes ?? 4 << 20)) req.destroy(new CallError('too_large', 'answer too large'));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', (err) => reject(err));
      },
    );
    const timer = setTimeout(
      () => req.destroy(new CallError('timeout', `no answer within ${o.timeoutMs} ms`)),
      o.timeoutMs,
    );
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err: Error & { code?: string }) => {
      if (err instanceof CallError) return reject(err);
      const tls = TLS_CODES.test(err.code ?? '');
      reject(new CallError(tls ? 'tls' : 'network', `${err.code ?? ''} ${err.message}`.trim()));
    });
    req.end(payload);
  });
}
