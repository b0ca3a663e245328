// Sends signed Evidence to the Verifier's `POST /v1/evidence` off the request
// path: a bounded queue, a few senders, retries with backoff on network
// errors and 5xx. 409 means it is already there. Drained on shutdown.
import type { Logger } from '../base/log.ts';
import type { Evidence } from '../evidence/types.ts';
import { callJson } from '../base/http-client.ts';

export interface ForwarderStats {
  sent: number;
  failed: number;
  dropped: number;
  queued: number;
}

export class EvidenceForwarder {
  private readonly queue: { evidence: Evidence; tries: number }[] = [];
  private active = 0;
  readonly stats: ForwarderStats = { sent: 0, failed: 0, dropped: 0, queued: 0 };
  private idle: (() => void)[] = [];

  constructor(
    private readonly verifierUrl: string | undefined,
    private readonly apiKey: string | undefined,
    private readonly log: Logger,
    private readonly options = { concurrency: 4, maxQueue: 10_000, maxTries: 4, baseDelayMs: 200 },
  ) {}

  submit(evidence: Evidence): void {
    if (!this.verifierUrl) return;
    if (this.queue.length >= this.options.maxQueue) {
      this.stats.dropped++;
      this.log.error({ evidence_id: evidence.evidence_id }, 'evidence queue full; Evidence dropped');
      return;
    }
    this.queue.push({ evidence, tries: 0 });
    this.pump();
  }

  private pump(): void {
    this.stats.queued = this.queue.length;
    while (this.active < this.options.concurrency && this.queue.length > 0) {
      const item = this.queue.shift()!;
      this.active++;
      void this.send(item).finally(() => {
        this.active--;
        this.pump();
        if (this.active === 0 && this.queue.length === 0) this.idle.splice(0).forEach((f) => f());
      });
    }
  }

  private async send(item: { evidence: Evidence; tries: number }): Promise<void> {
    item.tries++;
    let retry = false;
    try {
      const res = await callJson(`${this.verifierUrl}/v1/evidence`, {
        body: item.evidence,
        timeoutMs: 10_000,
        headers: this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {},
      });
      if (res.status === 201 || res.status === 409) this.stats.sent++;
      else if (res.status >= 500 || res.status === 429) retry = true;
      else {
        this.stats.failed++;
        this.log.error(
          {
            evidence_id: item.evidence.evidence_id,
            status: res.status,
            body: res.body.toString('utf8').slice(0, 300),
          },
          'Verifier refused Evidence',
        );
      }
    } catch (err) {
      retry = true;
      this.log.warn({ err, evidence_id: item.evidence.evidence_id }, 'evidence delivery failed');
    }
    if (!retry) return;
    if (item.tries >= this.options.maxTries) {
      this.stats.failed++;
      this.log.error({ evidence_id: item.evidence.evidence_id }, 'evidence delivery gave up');
      return;
    }
    await new Promise((r) => setTimeout(r, this.options.baseDelayMs * 2 ** item.tries));
    this.queue.push(item);
  }

  /** Resolves when nothing is queued or in flight (or after `timeoutMs`). */
  drain(timeoutMs = 5000): Promise<void> {
    if (this.active === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
