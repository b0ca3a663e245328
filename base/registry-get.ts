// One GET to a registered auditor's or model's endpoint over node:http(s),
// carrying what `endpointRequest` built (decision 129): a deadline, a size
// cap, no redirects followed (a 3xx is just an answer). Failures carry an
// error code, never the request's headers.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { EndpointRequest } from './registry-auth.ts';

export interface RegistryAnswer {
  status: number;
  body: string;
}

export class RegistryGetError extends Error {
  constructor(
    readonly reason: 'timeout' | 'too_large' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

export interface GetLimits {
  timeoutMs: number;
  maxBytes: number;
}

export function registryGet(url: string, req: EndpointRequest, limits: GetLimits): Promise<RegistryAnswer> {
  const u = new URL(url);
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const r = send(u, { method: 'GET', headers: req.headers, agent: false, ...(req.tls ?? {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limits.maxBytes)
          r.destroy(new RegistryGetError('too_large', `larger than ${limits.maxBytes} bytes`));
        else chunks.push(c);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', (err) => reject(err));
    });
    const timer = setTimeout(
      () => r.destroy(new RegistryGetError('timeout', `no answer within ${limits.timeoutMs} ms`)),
      limits.timeoutMs,
    );
    r.on('close', () => clearTimeout(timer));
    r.on('error', (err: Error & { code?: string }) => {
      if (err instanceof RegistryGetError) return reject(err);
      // Only the code: messages may repeat the URL.
      reject(new RegistryGetError('failed', err.code ?? 'the request failed'));
    });
    r.end();
  });
}
