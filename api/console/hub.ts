// The console's fan-out in one API replica. It tails the shared event log
// (woken by the log's append notifications, and by a slow poll in case one is
// lost) and hands each event to the streams open for its agent. A stream is a
// Readable of SSE text; a client that stops reading lets its queue grow, and
// past `maxQueuedBytes` it is dropped, so a slow client never holds up the
// tail or anyone else's stream. The limit holds after a grace, so a burst
// (a resume's backlog) that a healthy client is still taking is not a drop.
import { Readable } from 'node:stream';
import { seqOf, type ConsoleEvent, type ConsoleEventInput, type ConsoleLog } from '../../contract/console.ts';
import type { Logger } from '../../base/log.ts';
import { matches, SSE_HEARTBEAT, sseMessage, sseMissed, sseReady, type ConsoleFilter } from './events.ts';
import type { ConsoleMetrics } from './metrics.ts';

export interface HubOptions {
  log: Logger;
  metrics?: ConsoleMetrics;
  /** Bytes a client may leave unread for `slowGraceMs` before it is dropped (16 times that at once). */
  maxQueuedBytes?: number;
  /** How long a queue may stay over `maxQueuedBytes` (a burst, a replay) before its client is dropped. */
  slowGraceMs?: number;
  /** A comment line this often keeps idle streams open through proxies. */
  heartbeatMs?: number;
  /** Reads the log this often even without a notification. */
  pollMs?: number;
  /** The reconnection delay an EventSource is told (`retry:`). */
  retryMs?: number;
  /** Called when an agent gets its first stream here; the function it returns, when its last one closes. */
  onWatch?: (agentId: string) => () => void;
}

const PAGE = 500;

interface QueueLimits {
  maxQueuedBytes: number;
  slowGraceMs: number;
}

/** The event's SSE message as bytes, made on first use and shared by every stream it goes to. */
function frameOf(event: ConsoleEvent): () => Buffer {
  let bytes: Buffer | undefined;
  return () => (bytes ??= Buffer.from(sseMessage(event)));
}

class Subscriber {
  readonly stream = new Readable({ read: () => undefined });
  lastSent = 0;
  /** Live events that came while the backlog was being sent. */
  pending: ConsoleEvent[] | undefined;
  private slowCheck: NodeJS.Timeout | undefined;

  constructor(
    readonly agentId: string,
    private readonly filter: ConsoleFilter,
    private readonly limits: QueueLimits,
    private readonly onSlow: (s: Subscriber) => void,
  ) {
    this.stream.once('close', () => clearTimeout(this.slowCheck));
  }

  /** `framed` gives the event's SSE bytes, made once per event for all its streams. */
  deliver(event: ConsoleEvent, framed: () => Buffer = frameOf(event)): void {
    const seq = seqOf(event);
    if (seq <= this.lastSent) return;
    this.lastSent = seq;
    if (matches(this.filter, event)) this.write(framed());
  }

  write(text: string | Buffer): void {
    if (this.stream.destroyed) return;
    this.stream.push(text);
    const queued = this.stream.readableLength;
    const { maxQueuedBytes, slowGraceMs } = this.limits;
    if (queued > 16 * maxQueuedBytes) this.onSlow(this);
    else if (queued > maxQueuedBytes) this.slowCheck ??= setTimeout(() => this.checkSlow(), slowGraceMs);
  }

  /** Still over the limit after the grace: the client does not keep up. */
  private checkSlow(): void {
    this.slowCheck = undefined;
    if (!this.stream.destroyed && this.stream.readableLength > this.limits.maxQueuedBytes) this.onSlow(this);
  }
}

export interface Subscription {
  /** SSE text; ends when the hub stops. Destroy it to unsubscribe. */
  stream: Readable;
  /** Called once if the client is dropped for not reading (destroy the connection there). */
  onDropped(callback: () => void): void;
}

export class ConsoleHub {
  private cursor = 0;
  private starting: Promise<void> | undefined;
  private pumping = false;
  private again = false;
  private readonly byAgent = new Map<string, Set<Subscriber>>();
  private readonly dropHandlers = new WeakMap<Subscriber, () => void>();
  private readonly unwatch = new Map<string, () => void>();
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => void) | undefined;
  private readonly limits: QueueLimits;

  constructor(
    private readonly log: ConsoleLog,
    private readonly o: HubOptions,
  ) {
    this.limits = { maxQueuedBytes: o.maxQueuedBytes ?? 1024 * 1024, slowGraceMs: o.slowGraceMs ?? 2000 };
  }

  /** Starts tailing at the log's head (idempotent). */
  start(): Promise<void> {
    this.starting ??= (async () => {
      this.cursor = await this.log.head();
      this.unlisten = this.log.onAppend(() => void this.pump());
      const every = (ms: number, fn: () => void): void => {
        const t = setInterval(fn, ms);
        t.unref();
        this.timers.push(t);
      };
      every(this.o.heartbeatMs ?? 15_000, () => this.heartbeat());
      every(this.o.pollMs ?? 2_000, () => void this.pump());
    })();
    return this.starting;
  }

  /** How many streams are open (all agents). */
  get clients(): number {
    let n = 0;
    for (const set of this.byAgent.values()) n += set.size;
    return n;
  }

  /**
   * A stream of the agent's events that pass `filter`: live ones, after the
   * events since `after` (a resume) that the log still holds.
   */
  async subscribe(agentId: string, filter: ConsoleFilter, after?: number): Promise<Subscription> {
    await this.start();
    const sub = new Subscriber(agentId, filter, this.limits, (s) => this.drop(s));
    // `ready` says the stream is live (and where the log stands): a client may act on it at once.
    sub.write(`retry: ${this.o.retryMs ?? 3000}\n${sseReady(this.cursor)}`);
    this.add(sub);
    sub.stream.once('close', () => this.remove(sub));
    if (after === undefined) sub.lastSent = this.cursor;
    else await this.replay(sub, after);
    return { stream: sub.stream, onDropped: (cb) => this.dropHandlers.set(sub, cb) };
  }

  /**
   * Stores events in the shared log (every replica's hub hears them from
   * there). Never throws: a source's own answer does not depend on the
   * console; a failure is counted and logged.
   */
  async publish(events: readonly ConsoleEventInput[]): Promise<void> {
    if (events.length === 0) return;
    try {
      const stored = await this.log.append(events);
      for (const e of stored) this.o.metrics?.published.inc({ type: e.type });
    } catch (err) {
      this.o.metrics?.publishFailures.inc(events.length);
      this.o.log.warn({ err, events: events.length }, 'console: could not store events');
    }
  }

  /** Ends every stream (the API is shutting down). */
  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.unlisten?.();
    for (const set of this.byAgent.values()) for (const sub of set) sub.stream.push(null);
    for (const stop of this.unwatch.values()) stop();
    this.unwatch.clear();
  }

  private async replay(sub: Subscriber, after: number): Promise<void> {
    sub.pending = [];
    sub.lastSent = after;
    try {
      let from = after;
      for (let first = true; ; first = false) {
        const { events, missed } = await this.log.readAgent(sub.agentId, from, PAGE);
        if (first && missed) sub.write(sseMissed(after));
        for (const e of events) sub.deliver(e);
        if (events.length < PAGE) break;
        from = seqOf(events.at(-1) as ConsoleEvent);
      }
    } finally {
      const live = sub.pending;
      sub.pending = undefined;
      for (const e of live) sub.deliver(e);
    }
  }

  private add(sub: Subscriber): void {
    let set = this.byAgent.get(sub.agentId);
    if (!set) {
      this.byAgent.set(sub.agentId, (set = new Set()));
      if (this.o.onWatch) this.unwatch.set(sub.agentId, this.o.onWatch(sub.agentId));
    }
    set.add(sub);
    this.o.metrics?.clients.inc();
  }

  private remove(sub: Subscriber): void {
    const set = this.byAgent.get(sub.agentId);
    if (!set?.delete(sub)) return;
    if (set.size === 0) {
      this.byAgent.delete(sub.agentId);
      this.unwatch.get(sub.agentId)?.();
      this.unwatch.delete(sub.agentId);
    }
    this.o.metrics?.clients.dec();
  }

  private drop(sub: Subscriber): void {
    this.o.metrics?.dropped.inc({ reason: 'slow_client' });
    this.o.log.warn(
      { agent: sub.agentId, queued: sub.stream.readableLength },
      'console: dropped a client that stopped reading',
    );
    this.remove(sub);
    this.dropHandlers.get(sub)?.();
    sub.stream.destroy();
  }

  private heartbeat(): void {
    for (const set of this.byAgent.values()) for (const sub of set) sub.write(SSE_HEARTBEAT);
  }

  /** Reads the log from the cursor until caught up; one read loop at a time, again if woken meanwhile. */
  private async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        await this.drain();
      } while (this.again);
    } catch (err) {
      this.o.log.warn({ err }, 'console: reading the event log failed; retrying on the next wake');
    } finally {
      this.pumping = false;
    }
  }

  private async drain(): Promise<void> {
    for (;;) {
      const batch = await this.log.readAfter(this.cursor, PAGE);
      for (const e of batch) {
        this.cursor = Math.max(this.cursor, seqOf(e));
        this.dispatch(e);
      }
      if (batch.length < PAGE) return;
    }
  }

  private dispatch(event: ConsoleEvent): void {
    const set = this.byAgent.get(event.agent_id);
    if (!set) return;
    this.o.metrics?.delivered.inc(set.size);
    const framed = frameOf(event);
    for (const sub of set) {
      if (sub.pending) sub.pending.push(event);
      else sub.deliver(event, framed);
    }
  }
}
