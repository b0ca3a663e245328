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

// TLS failures an operator must act on, said in words (the code stays, for searching).
const CLIENT_CERT_REFUSED = 'the endpoint refused the client certificate or requires one';
const NOT_TRUSTED = 'the endpoint’s certificate is not the registered one nor issued by it';
const TLS_REASONS: Record<string, string> = {
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    'the endpoint requires a client certificate and none was presented',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: CLIENT_CERT_REFUSED,
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: CLIENT_CERT_REFUSED,
  ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE: CLIENT_CERT_REFUSED,
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'the endpoint does not trust the client certificate’s issuer',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: NOT_TRUSTED,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: NOT_TRUSTED,
  SELF_SIGNED_CERT_IN_CHAIN: NOT_TRUSTED,
  DEPTH_ZERO_SELF_SIGNED_CERT: NOT_TRUSTED,
  CERT_HAS_EXPIRED: 'the endpoint’s certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the endpoint’s certificate does not name its host',
};

/** One line for a failed request: its error code, in words when it is a TLS refusal. */
export function failureReason(code: string | undefined): string {
  if (!code) return 'the request failed';
  const words = TLS_REASONS[code];
  return words ? `${words} (${code})` : code;
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
      reject(new RegistryGetError('failed', failureReason(err.code)));
    });
    r.end();
  });
}
