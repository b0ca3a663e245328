// A Server-Sent Events parser for a stream read with fetch (an EventSource
// cannot send the Authorization header). It follows the WHATWG "event stream
// interpretation": lines end in CRLF, LF or CR (a chunk may split a CRLF, or
// anything else); a line starting with ':' is a comment; `field: value` drops
// one leading space; `data` lines join with '\n'; `id` sets the last event id
// (kept across messages, ignored when it contains NUL); `retry` takes digits
// only; a blank line dispatches. Pure.

export interface SseMessage {
  /** `event:`, 'message' when none was given. */
  event: string;
  data: string;
  /** The last event id in force when the message was dispatched ('' before any). */
  lastEventId: string;
}

export interface SseParser {
  /** Feeds a decoded chunk; answers the messages it completed, in order. */
  push(chunk: string): SseMessage[];
  /** The last event id seen (what `Last-Event-ID` carries on a reconnect). */
  readonly lastEventId: string;
  /** The reconnection time the stream asked for with `retry:`, undefined before one. */
  readonly retry: number | undefined;
  /** Comment lines seen (heartbeats). */
  readonly comments: number;
}

interface Pending {
  event: string;
  data: string[];
}

export function createSseParser(initialLastEventId = ''): SseParser {
  let buffer = '';
  let lastEventId = initialLastEventId;
  let retry: number | undefined;
  let comments = 0;
  let pending: Pending = { event: '', data: [] };

  const dispatch = (out: SseMessage[]): void => {
    if (pending.data.length > 0)
      out.push({ event: pending.event || 'message', data: pending.data.join('\n'), lastEventId });
    pending = { event: '', data: [] };
  };

  const field = (name: string, value: string): void => {
    if (name === 'data') pending.data.push(value);
    else if (name === 'event') pending.event = value;
    else if (name === 'id' && !value.includes('\0')) lastEventId = value;
    else if (name === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };

  const line = (text: string, out: SseMessage[]): void => {
    if (text === '') return dispatch(out);
    if (text.startsWith(':')) {
      comments += 1;
      return;
    }
    const colon = text.indexOf(':');
    if (colon < 0) return field(text, '');
    const raw = text.slice(colon + 1);
    field(text.slice(0, colon), raw.startsWith(' ') ? raw.slice(1) : raw);
  };

  return {
    push(chunk: string): SseMessage[] {
      const out: SseMessage[] = [];
      buffer += chunk;
      for (;;) {
        const end = buffer.search(/[\r\n]/);
        if (end < 0) break;
        // A CR at the very end may be the first half of a CRLF split across chunks: wait for the next.
        if (buffer[end] === '\r' && end === buffer.length - 1) break;
        const width = buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1;
        line(buffer.slice(0, end), out);
        buffer = buffer.slice(end + width);
      }
      return out;
    },
    get lastEventId() {
      return lastEventId;
    },
    get retry() {
      return retry;
    },
    get comments() {
      return comments;
    },
  };
}
