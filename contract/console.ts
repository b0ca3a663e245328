// The seams of the live console (issue 20), shared by the API's stream, its
// event sources, the shared event log and the subagent tree. One console event
// is what `GET /v1/agents/{agent_id}/console/stream` sends as one SSE message
// (its `data:` is the event's JSON, its `id:` the event's `id`).

/** Spec Events: the five types; `log` is a line of the agent container's own log (decision 178). */
export const CONSOLE_EVENT_TYPES = [
  'tool_call',
  'model_call',
  'chain_decision',
  'error',
  'approval_requested',
  'log',
] as const;
export type ConsoleEventType = (typeof CONSOLE_EVENT_TYPES)[number];

/** CLARIFICATIONS: severities, lowest first (a `severity` filter keeps that level and above). */
export const SEVERITIES = ['debug', 'info', 'warning', 'error', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A subagent's name (spec.abilities.subagents[].name), as events and filters carry it. */
export const SUBAGENT_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 ._:/-]{0,252}$';
/** The header an agent runtime sets on its model and tool calls to say which subagent makes them. */
export const SUBAGENT_HEADER = 'x-platform-subagent';

/** An event as a source publishes it; the log gives it its `id`. */
export interface ConsoleEventInput {
  /** When it happened (ISO 8601). */
  timestamp: string;
  /** The source agent, `<namespace>.<name>`. */
  agent_id: string;
  /** The subagent that acted, null for the agent itself. */
  subagent: string | null;
  type: ConsoleEventType;
  severity: Severity;
  /** The auditor the event is about (the one that decided, failed or is the only one), else null. */
  auditor: string | null;
  /** Every auditor involved (a chain decision's whole chain); the `auditor` filter matches any of them. */
  auditors: string[];
  /** Type-specific, never a secret: see api/console/sources.ts. */
  payload: Record<string, unknown>;
  /**
   * Identifies the event across replicas: every replica sees the same informer
   * add or log line, and the log stores one event per key. Never sent.
   */
  key: string;
}

/** An event as stored and sent: `id` is its place in the log (a decimal `seq`). */
export interface ConsoleEvent extends Omit<ConsoleEventInput, 'key'> {
  id: string;
}

export interface AgentEvents {
  /** Oldest first. */
  events: ConsoleEvent[];
  /** True when the log no longer holds some of the agent's events after `after` (pruned): the reader missed them. */
  missed: boolean;
}

/**
 * The shared console event log: bounded (old events are pruned), shared by
 * every API replica (PostgreSQL) or one process's memory (the default). Ids
 * grow across the whole log, so a client may resume at any replica.
 */
export interface ConsoleLog {
  readonly kind: 'memory' | 'postgres';
  /** Stores the events in order, skipping those whose key is already stored; returns those stored. */
  append(events: readonly ConsoleEventInput[]): Promise<ConsoleEvent[]>;
  /** Every agent's events with a larger seq than `after`, oldest first, at most `limit` (the fan-out's tail). */
  readAfter(after: number, limit: number): Promise<ConsoleEvent[]>;
  /** One agent's events with a larger seq than `after`, oldest first, at most `limit` (a resume). */
  readAgent(agentId: string, after: number, limit: number): Promise<AgentEvents>;
  /** The largest seq stored so far (0 when empty). */
  head(): Promise<number>;
  /** Calls `listener` when events may have been appended, by this process or (PostgreSQL) another. */
  onAppend(listener: () => void): () => void;
  close(): Promise<void>;
}

export const seqOf = (e: Pick<ConsoleEvent, 'id'>): number => Number(e.id);
