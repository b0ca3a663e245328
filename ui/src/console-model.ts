// The console's log panel as pure state: the filters (all server-side: the
// stream and the event list take severity, auditor and subagent as query
// parameters), the events shown (bounded), Pause (keeps receiving, holds new
// events back and counts them) and Follow (scroll to the newest; off when the
// person scrolls up). Events are told apart by their id (a decimal place in
// the agent's event log): one already seen is never shown twice. Pure.

export const SEVERITIES = ['debug', 'info', 'warning', 'error', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface ConsoleEvent {
  id: string;
  timestamp: string;
  agent_id: string;
  subagent: string | null;
  type: string;
  severity: Severity;
  auditor: string | null;
  auditors: string[];
  payload: Record<string, unknown>;
}

export interface Filters {
  /** The lowest severity kept ('' for all). */
  severity: Severity | '';
  auditor: string;
  subagent: string;
}

export const NO_FILTERS: Filters = { severity: '', auditor: '', subagent: '' };

/** The query string of the stream and the event list for `filters` ('' when none). */
export function filterQuery(filters: Filters): string {
  const q = new URLSearchParams();
  if (filters.severity) q.set('severity', filters.severity);
  if (filters.auditor.trim()) q.set('auditor', filters.auditor.trim());
  if (filters.subagent) q.set('subagent', filters.subagent);
  return q.toString();
}

const AUDITOR_RE = /^[a-z0-9]([-_a-z0-9]{0,61}[a-z0-9])?$/;

/** Why an auditor filter cannot be sent, in words ('' when it can). */
export function auditorProblem(auditor: string): string {
  const a = auditor.trim();
  if (a === '' || AUDITOR_RE.test(a)) return '';
  return 'An auditor id is lower-case letters, digits, dashes and underscores, such as injection.';
}

/** Whether event id `a` comes after `b` (decimal strings of any length; '' is before everything). */
export function isAfter(a: string, b: string): boolean {
  if (b === '') return a !== '';
  if (a.length !== b.length) return a.length > b.length;
  return a > b;
}

export interface LogState {
  /** What is shown, oldest first, at most `cap`. */
  shown: ConsoleEvent[];
  /** Received while paused, not yet shown (also at most `cap`). */
  held: ConsoleEvent[];
  /** New events received while paused (held ones dropped by the cap included). */
  newCount: number;
  paused: boolean;
  follow: boolean;
  /** The newest id received: where a reconnect resumes, and what tells a repeat apart. */
  lastId: string;
  cap: number;
}

export const DEFAULT_CAP = 500;

export function emptyLog(cap = DEFAULT_CAP, lastId = ''): LogState {
  return { shown: [], held: [], newCount: 0, paused: false, follow: true, lastId, cap };
}

const capped = (events: ConsoleEvent[], cap: number): ConsoleEvent[] =>
  events.length > cap ? events.slice(events.length - cap) : events;

/** Adds events in the order received; any not after `lastId` (a repeat) is dropped. */
export function receive(state: LogState, events: readonly ConsoleEvent[]): LogState {
  let lastId = state.lastId;
  const fresh: ConsoleEvent[] = [];
  for (const e of events) {
    if (!isAfter(e.id, lastId)) continue;
    fresh.push(e);
    lastId = e.id;
  }
  if (fresh.length === 0) return state;
  if (state.paused)
    return {
      ...state,
      lastId,
      held: capped([...state.held, ...fresh], state.cap),
      newCount: state.newCount + fresh.length,
    };
  return { ...state, lastId, shown: capped([...state.shown, ...fresh], state.cap) };
}

export const pause = (state: LogState): LogState => (state.paused ? state : { ...state, paused: true });

/** Shows what was held back, and follows again. */
export function resume(state: LogState): LogState {
  if (!state.paused) return state;
  return {
    ...state,
    paused: false,
    follow: true,
    shown: capped([...state.shown, ...state.held], state.cap),
    held: [],
    newCount: 0,
  };
}

export const setFollow = (state: LogState, follow: boolean): LogState =>
  state.follow === follow ? state : { ...state, follow };

/** Whether a scrolled box shows its end (within `slack` pixels). */
export function atBottom(
  box: { scrollTop: number; clientHeight: number; scrollHeight: number },
  slack = 8,
): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= slack;
}

/** After the person scrolls: Follow stays on only while the newest line is in view. */
export const afterScroll = (state: LogState, bottom: boolean): LogState => setFollow(state, bottom);

type Payload = Record<string, unknown>;
const str = (p: Payload, k: string): string => (typeof p[k] === 'string' ? (p[k] as string) : '');

function decisionText(p: Payload): string {
  const reasons = Array.isArray(p.reasons) && p.reasons.length ? `: ${p.reasons.join(', ')}` : '';
  return `decision ${str(p, 'decision') || '?'}${p.blocked === true ? ' (blocked)' : ''}${reasons}`;
}

const SUMMARIES: Record<string, (p: Payload) => string> = {
  chain_decision: decisionText,
  model_call: (p) => `model call${str(p, 'model') ? ` to ${str(p, 'model')}` : ''}`,
  tool_call: (p) =>
    ['method', 'destination', 'path', 'outcome']
      .map((k) => str(p, k))
      .filter(Boolean)
      .join(' '),
  approval_requested: (p) =>
    `${str(p, 'kind') || 'approval'} requested: ${str(p, 'action') || str(p, 'service') || '?'}`,
  log: (p) => str(p, 'line'),
};

/** One event's line of text: what happened, without the raw JSON. */
export function summary(e: ConsoleEvent): string {
  const known = SUMMARIES[e.type];
  if (known) return known(e.payload);
  return str(e.payload, 'message') || str(e.payload, 'reason') || JSON.stringify(e.payload).slice(0, 200);
}
