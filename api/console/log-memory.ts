// The console event log in one process's memory (the default, one API
// replica): the newest `perAgent` events of each agent, and the keys of the
// recent ones so an event is stored once. PostgreSQL shares one log between
// replicas (log-pg.ts); both keep the contract in contract/console.ts.
import type { AgentEvents, ConsoleEvent, ConsoleEventInput, ConsoleLog } from '../../contract/console.ts';

interface AgentRing {
  events: ConsoleEvent[];
  /** The largest seq pruned from this agent's events (0: none). */
  prunedUpTo: number;
}

export class MemoryConsoleLog implements ConsoleLog {
  readonly kind = 'memory' as const;
  private seq = 0;
  private readonly agents = new Map<string, AgentRing>();
  /** The newest events of all agents in seq order: the fan-out's tail reads only what was just appended. */
  private all: ConsoleEvent[] = [];
  /** Keys of recent events, oldest first (a Set keeps insertion order); a repeat of one is not stored. */
  private readonly keys = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly perAgent = 1000,
    private readonly recent = 20_000,
  ) {}

  append(inputs: readonly ConsoleEventInput[]): Promise<ConsoleEvent[]> {
    const stored: ConsoleEvent[] = [];
    for (const { key, ...rest } of inputs) {
      if (this.keys.has(key)) continue;
      const event: ConsoleEvent = { id: String(++this.seq), ...rest };
      this.remember(key);
      this.all.push(event);
      this.ringOf(event.agent_id).events.push(event);
      stored.push(event);
      this.prune(event.agent_id);
    }
    if (this.all.length > 2 * this.recent) this.all = this.all.slice(-this.recent);
    if (stored.length > 0) for (const listener of this.listeners) listener();
    return Promise.resolve(stored);
  }

  readAfter(after: number, limit: number): Promise<ConsoleEvent[]> {
    const start = firstAfter(this.all, after);
    return Promise.resolve(this.all.slice(start, start + limit));
  }

  readAgent(agentId: string, after: number, limit: number): Promise<AgentEvents> {
    const ring = this.agents.get(agentId);
    if (!ring) return Promise.resolve({ events: [], missed: false });
    const start = firstAfter(ring.events, after);
    return Promise.resolve({
      events: ring.events.slice(start, start + limit),
      missed: ring.prunedUpTo > after,
    });
  }

  head(): Promise<number> {
    return Promise.resolve(this.seq);
  }

  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }

  private ringOf(agentId: string): AgentRing {
    let ring = this.agents.get(agentId);
    if (!ring) this.agents.set(agentId, (ring = { events: [], prunedUpTo: 0 }));
    return ring;
  }

  private prune(agentId: string): void {
    const ring = this.ringOf(agentId);
    if (ring.events.length <= this.perAgent) return;
    const dropped = ring.events.shift() as ConsoleEvent;
    ring.prunedUpTo = Number(dropped.id);
  }

  private remember(key: string): void {
    this.keys.add(key);
    if (this.keys.size <= this.recent) return;
    const oldest = this.keys.values().next().value as string;
    this.keys.delete(oldest);
  }
}

/** The index of the first event with a larger seq than `after` (events in seq order). */
function firstAfter(events: readonly ConsoleEvent[], after: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Number((events[mid] as ConsoleEvent).id) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
