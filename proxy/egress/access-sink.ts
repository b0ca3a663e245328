// The credential proxy's data-access records, batched to the Verifier
// (`POST /v1/agents/{agent_id}/accesses`, Contract D) with the agent's Gateway
// key. The call path only queues: `record` never blocks and never throws. A
// batch goes when 100 records wait or every 2 s; one POST at a time. The
// queue is bounded: beyond it the oldest records go (counted), so a Verifier
// that is down costs memory up to the bound and no more. A batch the
// Verifier refuses (4xx) is dropped, one it could not take (5xx, network) is
// kept for the next try.
import type { Agent as HttpAgent } from 'node:http';
import { Counter, type Registry } from 'prom-client';
import { callJson } from '../../base/http-client.ts';
import type { AccessWire } from '../../accesses/record.ts';
import type { AccessSink, DataAccess } from '../../contract/egress.ts';

export type SinkEvent = 'sent' | 'dropped' | 'failed';

export interface AccessSinkOptions {
  verifierUrl: string;
  agentId: string;
  /** The agent's Gateway key (a function when it can be rotated under the running proxy). */
  apiKey: string | (() => string);
  /** Records per POST, at most 100 (the route's limit). */
  batchSize?: number;
  flushIntervalMs?: number;
  /** Records kept while the Verifier cannot take them; the oldest go beyond. */
  maxQueue?: number;
  timeoutMs?: number;
  agent?: HttpAgent;
  /** Metrics hook: `n` records sent, dropped (queue full or refused) or failed (a POST that did not succeed). */
  onEvent?: (event: SinkEvent, n: number) => void;
  /** Why a POST failed (for the log; never carries the key). */
  onError?: (detail: string) => void;
}

export interface SinkStats {
  sent: number;
  dropped: number;
  failed: number;
  queued: number;
}

const MAX_BATCH = 100;

/** Cuts a string to the route's bound, so one long field does not cost the whole batch a 400. */
const cut = (s: string | undefined, max: number): string | null => (s === undefined ? null : s.slice(0, max));

/** The wire form of a record (snake_case, absent → null); the path loses any query string or fragment. */
export function accessToWire(a: DataAccess): AccessWire {
  return {
    at: a.at,
    kind: a.kind,
    destination: a.destination,
    method: a.method,
    action: a.action,
    path: cut(a.path?.split(/[?#]/, 1)[0], 2048),
    status: a.status ?? null,
    outcome: a.outcome,
    reason: cut(a.reason, 1024),
    user: a.user ? cut(a.user, 256) : null,
    injection_method: a.injectionMethod ?? null,
    service: a.service ? cut(a.service, 253) : null,
    approval_id: a.approvalId ? cut(a.approvalId, 253) : null,
    subagent: a.subagent ?? null,
    bytes_up: Math.max(0, Math.trunc(a.bytesUp)),
    bytes_down: Math.max(0, Math.trunc(a.bytesDown)),
    duration_ms: Math.max(0, Math.trunc(a.durationMs)),
  };
}

export class HttpAccessSink implements AccessSink {
  private queue: AccessWire[] = [];
  private sending: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly counts = { sent: 0, dropped: 0, failed: 0 };
  private readonly url: string;
  private readonly batchSize: number;
  private readonly maxQueue: number;

  constructor(private readonly o: AccessSinkOptions) {
    this.url = `${o.verifierUrl.replace(/\/$/, '')}/v1/agents/${encodeURIComponent(o.agentId)}/accesses`;
    this.batchSize = Math.min(MAX_BATCH, Math.max(1, o.batchSize ?? MAX_BATCH));
    this.maxQueue = Math.max(this.batchSize, o.maxQueue ?? 10_000);
    this.timer = setInterval(() => this.kick(), o.flushIntervalMs ?? 2000);
    this.timer.unref();
  }

  record(access: DataAccess): void {
    try {
      this.enqueue([accessToWire(access)]);
      if (this.queue.length >= this.batchSize) this.kick();
    } catch (err) {
      // A record the proxy built wrong is lost, never the call it describes.
      this.count('dropped', 1);
      this.report(`record not queued: ${(err as Error).message}`);
    }
  }

  get stats(): SinkStats {
    return { ...this.counts, queued: this.queue.length };
  }

  /** Sends everything queued (for shutdown); stops at the first failure. Never rejects. */
  async flush(): Promise<void> {
    while (this.queue.length > 0) {
      if (this.sending) {
        await this.sending;
        continue;
      }
      let ok = true;
      this.sending = this.sendOne()
        .then((sent) => void (ok = sent))
        .finally(() => (this.sending = undefined));
      await this.sending;
      if (!ok) return;
    }
  }

  /** Stops the timer; call `flush` first to send what is queued. */
  stop(): void {
    clearInterval(this.timer);
  }

  private kick(): void {
    if (this.sending || this.queue.length === 0) return;
    this.sending = this.drain().finally(() => (this.sending = undefined));
  }

  /** Sends full batches while they wait, then one partial batch; stops at a failure (the timer retries). */
  private async drain(): Promise<void> {
    do {
      if (!(await this.sendOne())) return;
    } while (this.queue.length >= this.batchSize);
  }

  private enqueue(records: AccessWire[], front = false): void {
    this.queue = front ? [...records, ...this.queue] : [...this.queue, ...records];
    const over = this.queue.length - this.maxQueue;
    if (over > 0) {
      this.queue.splice(0, over);
      this.count('dropped', over);
    }
  }

  /** One POST of the oldest records: true when the Verifier took them (or refused them for good). */
  private async sendOne(): Promise<boolean> {
    const batch = this.queue.splice(0, this.batchSize);
    if (batch.length === 0) return true;
    try {
      const key = typeof this.o.apiKey === 'function' ? this.o.apiKey() : this.o.apiKey;
      const res = await callJson(this.url, {
        method: 'POST',
        body: { records: batch },
        headers: { authorization: `Bearer ${key}` },
        timeoutMs: this.o.timeoutMs ?? 5000,
        maxBytes: 64 * 1024,
        ...(this.o.agent ? { agent: this.o.agent } : {}),
      });
      if (res.status === 202) {
        this.count('sent', batch.length);
        return true;
      }
      this.count('failed', batch.length);
      this.report(`the Verifier answered ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`);
      if (res.status >= 400 && res.status < 500 && res.status !== 429) {
        // Refused for good (malformed, a key that does not serve the agent): retrying cannot help.
        this.count('dropped', batch.length);
        return true;
      }
    } catch (err) {
      this.count('failed', batch.length);
      this.report(`POST failed: ${(err as Error).message}`);
    }
    this.enqueue(batch, true);
    return false;
  }

  private count(event: SinkEvent, n: number): void {
    this.counts[event] += n;
    try {
      this.o.onEvent?.(event, n);
    } catch {
      // A metrics hook that throws must not reach the call path.
    }
  }

  private report(detail: string): void {
    try {
      this.o.onError?.(detail);
    } catch {
      // As above: logging is best effort.
    }
  }
}

/** The sink's counters in a Prometheus registry: pass the result as `onEvent`. */
export function accessSinkMetrics(registry: Registry): (event: SinkEvent, n: number) => void {
  const records = new Counter({
    name: 'platform_proxy_access_records_total',
    help: 'Data-access records by what became of them: sent to the Verifier, dropped, or in a failed POST',
    labelNames: ['result'],
    registers: [registry],
  });
  return (event, n) => records.inc({ result: event }, n);
}
