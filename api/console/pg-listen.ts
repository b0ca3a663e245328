// A LISTEN on one PostgreSQL channel that outlives its connection: the
// listening client is dedicated (a pooled one would be handed to queries and
// its LISTEN lost), a dropped connection is logged and opened again with
// backoff, and `onNotify` runs once after each reconnect because
// notifications sent while it was down are gone.
import pg from 'pg';
import type { Logger } from '../../base/log.ts';

export interface ListenOptions {
  url: string;
  /** A plain identifier (letters, digits, `_`): it is written into `LISTEN` as is. */
  channel: string;
  log: Logger;
  onNotify: () => void;
  /** First wait before reconnecting; doubles after each failure up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

const CHANNEL_RE = /^[a-z_][a-z0-9_]*$/;

export class PgListener {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private backoffMs: number;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;

  private constructor(private readonly o: ListenOptions) {
    if (!CHANNEL_RE.test(o.channel)) throw new Error(`LISTEN channel ${o.channel}: not a plain identifier`);
    this.minBackoffMs = o.minBackoffMs ?? 100;
    this.maxBackoffMs = o.maxBackoffMs ?? 5000;
    this.backoffMs = this.minBackoffMs;
  }

  /** Listens once before resolving, so a wrong URL fails the start instead of retrying quietly. */
  static async start(o: ListenOptions): Promise<PgListener> {
    const listener = new PgListener(o);
    listener.client = await listener.open();
    return listener;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.o.url });
    let up = false;
    const lost = (err?: Error): void => {
      if (!up) return; // a failure while connecting is the caller's to handle
      up = false;
      this.lost(client, err);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (m) => {
      if (m.channel === this.o.channel) this.o.onNotify();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.o.channel}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    up = true;
    return client;
  }

  private lost(client: pg.Client, err: Error | undefined): void {
    if (this.client === client) this.client = undefined;
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.o.log.warn({ err, channel: this.o.channel }, 'LISTEN connection lost; reconnecting');
    this.schedule();
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.reconnect(), this.backoffMs);
    this.timer.unref();
  }

  private async reconnect(): Promise<void> {
    try {
      const client = await this.open();
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.backoffMs = this.minBackoffMs;
      this.o.log.info({ channel: this.o.channel }, 'LISTEN connection restored');
      this.o.onNotify();
    } catch (err) {
      if (this.closed) return;
      this.backoffMs = Math.min(this.backoffMs * 2, this.maxBackoffMs);
      this.o.log.warn({ err, channel: this.o.channel, retryInMs: this.backoffMs }, 'LISTEN reconnect failed');
      this.schedule();
    }
  }
}
