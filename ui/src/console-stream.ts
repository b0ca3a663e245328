// The console's live connection: `GET …/console/stream` read with fetch (an
// EventSource cannot send the Authorization header) through the SSE parser.
// A lost connection is opened again after a growing delay (the server's
// `retry:`, doubled per failed attempt up to 30 s) with `Last-Event-ID` set
// to the newest event received, so nothing is missed; the caller's model
// drops any event it already has, so nothing is shown twice. A 401 stops and
// says so (the session is over); another refusal stops with its words.
import { ApiError, describeError, errorBodyOf } from './errors.ts';
import type { ConsoleEvent } from './console-model.ts';
import { createSseParser, type SseMessage } from './sse.ts';

export type Connection =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; attempt: number; delayMs: number }
  | { state: 'stopped'; message: string; unauthorized: boolean };

export interface StreamOptions {
  /** The stream's URL (its filters in the query). */
  url: string;
  token: () => string;
  /** Resume after this id ('' for live events only). */
  after: string;
  onEvents: (events: ConsoleEvent[]) => void;
  onConnection: (c: Connection) => void;
  /** The server said some events were pruned before they could be resumed. */
  onMissed?: () => void;
  fetch?: typeof fetch;
  /** The first delay before the server has sent `retry:` (ms). */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export interface StreamHandle {
  close(): void;
  /** The newest event id received (where the next connection resumes). */
  lastId(): string;
}

/** The delay before reconnect attempt `attempt` (1, 2, …): `base` doubled each time, at most `max`. */
export function backoffMs(attempt: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.max(0, attempt - 1));
}

/** The request headers of one connection: the credential, and where to resume. */
export function streamHeaders(token: string, lastId: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${token}` };
  if (lastId) headers['last-event-id'] = lastId;
  return headers;
}

async function refusal(res: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = (await res.json()) as unknown;
  } catch {
    body = undefined;
  }
  const err = errorBodyOf(body) ?? { detail: res.statusText };
  return new ApiError(res.status, err.detail, err.code);
}

interface Run {
  lastId: string;
  retry: number | undefined;
  /** The current connection said `ready`: it was made and served. */
  ready: boolean;
  closed: boolean;
  controller: AbortController | undefined;
}

/** The console events of one chunk's messages; `ready` and `missed` are told as they come. */
function eventsOf(messages: SseMessage[], run: Run, o: StreamOptions): ConsoleEvent[] {
  const batch: ConsoleEvent[] = [];
  for (const m of messages) {
    if (m.event === 'ready') {
      run.ready = true;
      o.onConnection({ state: 'live' });
    } else if (m.event === 'missed') o.onMissed?.();
    else if (m.event === 'message') batch.push(JSON.parse(m.data) as ConsoleEvent);
  }
  return batch;
}

/** Reads one connection until it ends; events go out as they arrive. */
async function readStream(res: Response, run: Run, o: StreamOptions): Promise<void> {
  const parser = createSseParser(run.lastId);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const batch = eventsOf(parser.push(decoder.decode(value, { stream: true })), run, o);
    run.retry = parser.retry ?? run.retry;
    if (parser.lastEventId) run.lastId = parser.lastEventId;
    if (batch.length > 0) o.onEvents(batch);
  }
}

/** One attempt: true when it should be retried (the connection was lost or never made). */
async function attempt(run: Run, o: StreamOptions): Promise<boolean> {
  run.controller = new AbortController();
  run.ready = false;
  let res: Response;
  try {
    res = await (o.fetch ?? fetch)(o.url, {
      headers: streamHeaders(o.token(), run.lastId),
      signal: run.controller.signal,
      cache: 'no-store',
    });
  } catch {
    return true;
  }
  if (!res.ok) {
    if (res.status < 500 && res.status !== 429) {
      const err = await refusal(res);
      o.onConnection({ state: 'stopped', message: describeError(err), unauthorized: res.status === 401 });
      return false;
    }
    return true;
  }
  try {
    await readStream(res, run, o);
  } catch {
    // The connection broke mid-stream: reconnect.
  }
  return true;
}

const sleep = (ms: number, run: Run): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    run.controller = new AbortController();
    run.controller.signal.addEventListener('abort', () => (clearTimeout(t), resolve()));
  });

/** Opens the stream and keeps it open until `close()`, a 401 or another refusal. */
export function openConsoleStream(o: StreamOptions): StreamHandle {
  const run: Run = { lastId: o.after, retry: undefined, ready: false, closed: false, controller: undefined };
  const loop = async (): Promise<void> => {
    let failures = 0;
    o.onConnection({ state: 'connecting' });
    while (!run.closed) {
      if (!(await attempt(run, o)) || run.closed) return;
      // A connection the server served was healthy: the backoff starts over.
      failures = run.ready ? 1 : failures + 1;
      const delayMs = backoffMs(failures, run.retry ?? o.baseDelayMs ?? 1000, o.maxDelayMs ?? 30_000);
      o.onConnection({ state: 'reconnecting', attempt: failures, delayMs });
      await sleep(delayMs, run);
    }
  };
  void loop();
  return {
    close() {
      run.closed = true;
      run.controller?.abort();
    },
    lastId: () => run.lastId,
  };
}
