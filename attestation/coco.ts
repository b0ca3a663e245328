// Client for the Confidential Containers attestation-agent's REST API
// (api-server-rest, 127.0.0.1:8006): `GET /aa/evidence?runtime_data=…`
// answers the TEE evidence (a quote with runtime_data in its report data);
// `GET /aa/token?token_type=…` answers an attestation token. Failures are
// `NetworkError` (unreachable, timeout, non-200) with the cause.
import { request } from 'node:http';
import { AttestationError } from './errors.ts';

export interface CocoClientOptions {
  /** Default `http://127.0.0.1:8006`. */
  baseUrl?: string;
  timeoutMs?: number;
  /** Largest evidence accepted (quotes with certificate chains run to ~10 KiB). */
  maxBytes?: number;
}

export class CocoClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(options: CocoClientOptions) {
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:8006').replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.maxBytes = options.maxBytes ?? 1 << 20;
  }

  /** TEE evidence binding `runtimeData` (at most 64 bytes). */
  evidence(runtimeData: string): Promise<Buffer> {
    if (Buffer.byteLength(runtimeData) > 64) throw new RangeError('runtime_data is limited to 64 bytes');
    return this.get(`/aa/evidence?runtime_data=${encodeURIComponent(runtimeData)}`);
  }

  async token(tokenType = 'kbs'): Promise<string> {
    return (await this.get(`/aa/token?token_type=${encodeURIComponent(tokenType)}`)).toString('utf8');
  }

  private get(path: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const fail = (message: string, cause?: unknown): void =>
        reject(
          new AttestationError('NetworkError', `attestation-agent ${path.split('?')[0]}: ${message}`, cause),
        );
      const req = request(`${this.baseUrl}${path}`, { method: 'GET', timeout: this.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > this.maxBytes) req.destroy(new Error(`answer over ${this.maxBytes} bytes`));
          else chunks.push(c);
        });
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          if (res.statusCode === 200 && body.length > 0) resolve(body);
          else fail(`HTTP ${res.statusCode ?? 0}: ${body.toString('utf8').slice(0, 200)}`);
        });
        res.on('error', (err) => fail(err.message, err));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', (err) => fail(err.message, err));
      req.end();
    });
  }
}
