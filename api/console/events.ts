// The console stream's pure parts: the filters a client asks for (query
// `severity`, `auditor`, `subagent`, `type`), whether an event passes them,
// the resume point a reconnecting client sends (`Last-Event-ID`), and the SSE
// framing of one event.
import {
  CONSOLE_EVENT_TYPES,
  SEVERITIES,
  SUBAGENT_PATTERN,
  type ConsoleEvent,
  type ConsoleEventType,
  type Severity,
} from '../../contract/console.ts';
import { badRequest } from '../../base/http-error.ts';
import { enumQuery, patternQuery } from '../http/validate.ts';
import { AUDITOR_ID_RE } from '../routes/auditor-settings.ts';

export interface ConsoleFilter {
  /** The lowest severity kept: `warning` keeps warning, error and critical. */
  severity?: Severity;
  auditor?: string;
  subagent?: string;
  /** Only these types (comma-separated in the query). */
  types?: ReadonlySet<ConsoleEventType>;
}

export const FILTER_QUERY: Record<string, string> = {
  severity: `lowest severity kept: ${SEVERITIES.join(', ')}`,
  auditor: 'only events an auditor with this id was involved in',
  subagent: 'only events of this subagent',
  type: `only these event types, comma-separated: ${CONSOLE_EVENT_TYPES.join(', ')}`,
};

const SUBAGENT_RE = new RegExp(SUBAGENT_PATTERN);

function typesQuery(raw: string | undefined): ReadonlySet<ConsoleEventType> | undefined {
  if (raw === undefined) return undefined;
  const names = raw.split(',');
  const known = new Set<string>(CONSOLE_EVENT_TYPES);
  const unknown = names.find((n) => !known.has(n));
  if (unknown !== undefined || names.length > CONSOLE_EVENT_TYPES.length) {
    throw badRequest(
      `query type: expected a comma-separated list of ${CONSOLE_EVENT_TYPES.join(', ')}`,
      'invalid_query',
    );
  }
  return new Set(names as ConsoleEventType[]);
}

/** The filters of a stream or list request; 400 `invalid_query` naming the first bad one. */
export function parseFilter(query: Record<string, string>): ConsoleFilter {
  const severity = enumQuery(query, 'severity', SEVERITIES);
  const auditor = patternQuery(query, 'auditor', AUDITOR_ID_RE);
  const subagent = patternQuery(query, 'subagent', SUBAGENT_RE);
  const types = typesQuery(query.type);
  return {
    ...(severity ? { severity } : {}),
    ...(auditor ? { auditor } : {}),
    ...(subagent ? { subagent } : {}),
    ...(types ? { types } : {}),
  };
}

const RANK = new Map<string, number>(SEVERITIES.map((s, i) => [s, i]));

const severityPasses = (min: Severity | undefined, event: ConsoleEvent): boolean =>
  !min || (RANK.get(event.severity) ?? 0) >= (RANK.get(min) ?? 0);

const auditorPasses = (auditor: string | undefined, event: ConsoleEvent): boolean =>
  !auditor || event.auditor === auditor || event.auditors.includes(auditor);

export function matches(filter: ConsoleFilter, event: ConsoleEvent): boolean {
  return (
    severityPasses(filter.severity, event) &&
    auditorPasses(filter.auditor, event) &&
    (!filter.subagent || event.subagent === filter.subagent) &&
    (!filter.types || filter.types.has(event.type))
  );
}

/**
 * Where a reconnecting client resumes: the id of the last event it received
 * (`Last-Event-ID`, or `last_event_id` in the query for clients that cannot
 * set headers). Absent: live events only. Not a decimal id, or one ahead of
 * the log: 400 `invalid_last_event_id` (a client cannot have received it).
 */
export function parseResumePoint(raw: string | undefined, head: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,16}$/.test(raw)) {
    throw badRequest(
      'Last-Event-ID: expected the decimal id of an event of this stream',
      'invalid_last_event_id',
    );
  }
  const seq = Number(raw);
  if (seq > head) {
    throw badRequest(`Last-Event-ID ${seq} is ahead of the stream (latest ${head})`, 'invalid_last_event_id');
  }
  return seq;
}

/** One event as an SSE message: its id (the client's resume point) and its JSON on one `data:` line. */
export const sseMessage = (event: ConsoleEvent): string =>
  `id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;

/** Said once when a resume started after events the log no longer holds (they were pruned). */
export const sseMissed = (after: number): string =>
  `event: missed\ndata: ${JSON.stringify({ after: String(after), detail: 'some events after this id were pruned from the buffer' })}\n\n`;

/** The first message of every stream: it is live; `latest_id` is the newest event in the log when it opened. */
export const sseReady = (latest: number): string =>
  `event: ready\ndata: ${JSON.stringify({ latest_id: String(latest) })}\n\n`;

/** A comment line: keeps proxies from closing an idle stream; EventSource ignores it. */
export const SSE_HEARTBEAT = ': heartbeat\n\n';
