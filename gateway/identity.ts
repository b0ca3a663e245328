// The gateway's workload identity: the JWT-SVID the operator signs into the
// pod's SVID Secret (mounted only into the platform sidecars), presented to
// the platform's authorization server as a `jwt-spiffe` client assertion for
// a `client_credentials` token, which is cached and renewed at 80 % of its
// life (sooner after a failure, with backoff). Neither the SVID nor the token
// is ever logged; their expiry times are metrics.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '../base/log.ts';
import { clientCredentialsWithSvid, jwtExpiry } from '../base/identity/token-client.ts';
import { SVID_FILE } from '../contract/kube.ts';

export { jwtExpiry };

const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 60_000;

/** When to renew a token that lives `expiresInSeconds`: at 80 % of its life, at least 1 s. */
export const renewalDelayMs = (expiresInSeconds: number): number =>
  Math.max(1_000, Math.floor(expiresInSeconds * 800));

/** The delay after the `failures`-th failure in a row: doubling from 2 s, at most 60 s. */
export const retryDelayMs = (failures: number): number =>
  Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));

export interface WorkloadIdentityOptions {
  svidDir: string;
  tokenUrl: string;
  log: Logger;
  metrics: Registry;
  timeoutMs?: number;
}

export class WorkloadIdentity {
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private token: { value: string; expiresAt: number } | undefined;
  private readonly svidExpiry: Gauge;
  private readonly tokenExpiry: Gauge;

  constructor(private readonly o: WorkloadIdentityOptions) {
    this.svidExpiry = new Gauge({
      name: 'platform_gateway_identity_svid_expiry_seconds',
      help: 'Expiry (unix seconds) of the JWT-SVID this gateway holds',
      registers: [o.metrics],
    });
    this.tokenExpiry = new Gauge({
      name: 'platform_gateway_identity_token_expiry_seconds',
      help: 'Expiry (unix seconds) of the client_credentials token this gateway holds',
      registers: [o.metrics],
    });
  }

  start(): void {
    void this.renew();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The current access token, when one is held and unexpired. */
  accessToken(): string | undefined {
    return this.token && this.token.expiresAt > Date.now() ? this.token.value : undefined;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.renew(), ms);
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    try {
      const svid = (await readFile(join(this.o.svidDir, SVID_FILE.jwt), 'utf8')).trim();
      this.svidExpiry.set(jwtExpiry(svid) ?? 0);
      const expiresIn = await this.requestToken(svid);
      if (this.failures > 0) this.o.log.info({ afterFailures: this.failures }, 'workload identity recovered');
      this.failures = 0;
      this.schedule(renewalDelayMs(expiresIn));
    } catch (err) {
      this.failures++;
      if (this.failures === 1 || this.failures % 10 === 0)
        this.o.log.warn(
          { err: (err as Error).message, failures: this.failures },
          'no client_credentials token yet',
        );
      this.schedule(retryDelayMs(this.failures));
    }
  }

  /** One token request; the token's lifetime in seconds. */
  private async requestToken(svid: string): Promise<number> {
    const outcome = await clientCredentialsWithSvid(this.o.tokenUrl, svid, this.o.timeoutMs ?? 10_000);
    if (!outcome.ok) {
      const why = outcome.error ? `${outcome.error}: ${outcome.description ?? ''}` : '';
      throw new Error(`token endpoint answered ${outcome.status} ${why}`.trim());
    }
    const expiresAt = Date.now() + outcome.expiresIn * 1000;
    this.token = { value: outcome.accessToken, expiresAt };
    this.tokenExpiry.set(Math.floor(expiresAt / 1000));
    this.o.log.info({ expiresIn: outcome.expiresIn }, 'client_credentials token obtained');
    return outcome.expiresIn;
  }
}
