// The console's log stream (spec: Console; issue 20): the agent's events as
// Server-Sent Events, live and resumable, and the same events as a list for
// drill-down. Viewers and above read them; nobody else, and a stream carries
// only its own agent's events.
import { seqOf, type ConsoleEvent } from '../../contract/console.ts';
import { intQuery } from '../http/validate.ts';
import { FILTER_QUERY, matches, parseFilter, parseResumePoint } from '../console/events.ts';
import { CONSOLE_EVENT_LIST, CONSOLE_STREAM_MESSAGE } from './console-responses.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { agentIdOf } from '../../contract/agent-id.ts';
import type { PlatformAgent } from '../agents/model.ts';

const STREAM_QUERY = ['last_event_id'];
const LIST_QUERY = ['after', 'limit'];

/** The filters alone (the other query parameters are the route's own). */
function filterOf(rc: RouteCtx, own: readonly string[]): ReturnType<typeof parseFilter> {
  const query = Object.fromEntries(Object.entries(rc.query).filter(([k]) => !own.includes(k)));
  return parseFilter(query);
}

const agentOf = (rc: RouteCtx): string => agentIdOf(rc.agent as PlatformAgent);

async function stream(rc: RouteCtx): Promise<unknown> {
  const filter = filterOf(rc, STREAM_QUERY);
  // An absent header reads as '' (and EventSource sends none before its first id); an empty query value is bad input.
  const raw = rc.header('last-event-id') || rc.query.last_event_id;
  const after = parseResumePoint(raw, await rc.deps.console.head());
  const sub = await rc.deps.consoleHub.subscribe(agentOf(rc), filter, after);
  sub.onDropped(() => rc.connection.destroy());
  rc.audit.details = { ...rc.query, ...(after !== undefined ? { resumed_after: after } : {}) };
  return sub.stream;
}

/** The newest `limit` matching events after `after`, oldest first (the buffer is bounded, so this is too). */
async function list(rc: RouteCtx): Promise<unknown> {
  const filter = filterOf(rc, LIST_QUERY);
  const limit = intQuery(rc.query, 'limit', { fallback: 100, min: 1, max: 1000 });
  const after = intQuery(rc.query, 'after', { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
  const agentId = agentOf(rc);
  const kept: ConsoleEvent[] = [];
  let from = after;
  let missed = false;
  for (let first = true; ; first = false) {
    const page = await rc.deps.console.readAgent(agentId, from, 500);
    if (first) missed = page.missed;
    for (const e of page.events) if (matches(filter, e)) kept.push(e);
    if (kept.length > limit) kept.splice(0, kept.length - limit);
    if (page.events.length < 500) break;
    from = seqOf(page.events.at(-1) as ConsoleEvent);
  }
  return { items: kept, missed, latest_id: String(await rc.deps.console.head()) };
}

const CONSOLE = '/v1/agents/{agent_id}/console';

export const CONSOLE_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: `${CONSOLE}/stream`,
    action: 'agent.console.read',
    summary:
      'The console log stream: Server-Sent Events, one JSON event each (id, timestamp, agent_id, subagent, type, severity, auditor, auditors, payload); resumes after Last-Event-ID',
    success: 200,
    produces: 'text/event-stream',
    streamItem: CONSOLE_STREAM_MESSAGE,
    query: {
      ...FILTER_QUERY,
      last_event_id: 'resume after this event id (for clients that cannot send the Last-Event-ID header)',
    },
    handle: stream,
  },
  {
    method: 'GET',
    path: `${CONSOLE}/events`,
    action: 'agent.console.read',
    summary: "The agent's buffered console events, oldest first: the newest `limit` that pass the filters",
    success: 200,
    response: CONSOLE_EVENT_LIST,
    query: {
      ...FILTER_QUERY,
      after: 'only events with a larger id',
      limit: '1–1000 (default 100)',
    },
    handle: list,
  },
];
