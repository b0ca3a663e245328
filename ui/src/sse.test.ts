import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './sse.ts';

const STREAM =
  'retry: 3000\n\nevent: ready\ndata: {"latest_id":"4"}\n\n: heartbeat\n\nid: 5\ndata: {"a":1}\n\n' +
  'id: 6\r\ndata: first\r\ndata: second\r\n\r\ndata:no-space\rdata:  two spaces\r\r\n';

function feed(chunks: string[]): { messages: SseMessage[]; parser: ReturnType<typeof createSseParser> } {
  const parser = createSseParser();
  const messages = chunks.flatMap((c) => parser.push(c));
  return { messages, parser };
}

const EXPECTED: SseMessage[] = [
  { event: 'ready', data: '{"latest_id":"4"}', lastEventId: '' },
  { event: 'message', data: '{"a":1}', lastEventId: '5' },
  { event: 'message', data: 'first\nsecond', lastEventId: '6' },
  { event: 'message', data: 'no-space\n two spaces', lastEventId: '6' },
];

describe('createSseParser', () => {
  it('parses events, names, ids, retry, comments and multi-line data in one chunk', () => {
    const { messages, parser } = feed([STREAM]);
    expect(messages).toEqual(EXPECTED);
    expect(parser.retry).toBe(3000);
    expect(parser.comments).toBe(1);
    expect(parser.lastEventId).toBe('6');
  });

  it('gives the same messages however the stream is split, a CRLF included', () => {
    for (let size = 1; size <= 7; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < STREAM.length; i += size) chunks.push(STREAM.slice(i, i + size));
      expect(feed(chunks).messages, `chunks of ${size}`).toEqual(EXPECTED);
    }
    for (let cut = 0; cut <= STREAM.length; cut++)
      expect(feed([STREAM.slice(0, cut), STREAM.slice(cut)]).messages, `cut at ${cut}`).toEqual(EXPECTED);
  });

  it('keeps an incomplete message until its blank line arrives', () => {
    const parser = createSseParser();
    expect(parser.push('id: 9\ndata: half')).toEqual([]);
    expect(parser.push('\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', data: 'half', lastEventId: '9' }]);
  });

  it('ignores a bad retry, an id with NUL, unknown fields, and a message without data', () => {
    const parser = createSseParser('3');
    const out = parser.push('retry: soon\nid: 4\0\nfoo: bar\nevent: nothing\n\ndata\n\n');
    expect(parser.retry).toBeUndefined();
    expect(out).toEqual([{ event: 'message', data: '', lastEventId: '3' }]);
  });

  it('counts heartbeat comments without dispatching anything', () => {
    const parser = createSseParser();
    expect(parser.push(': heartbeat\n\n: heartbeat\n\n')).toEqual([]);
    expect(parser.comments).toBe(2);
  });
});
