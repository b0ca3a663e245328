// The head of an HTTP/1.x request, parsed just far enough to route it: the
// request line and the header fields. Pure. Strict on purpose: anything a
// lenient server might read differently from us (folded lines, two Host
// fields, bare LF) is refused, so the proxy and the upstream agree on where
// a request goes.

export interface RequestHead {
  method: string;
  target: string;
  /** `1.0` or `1.1`. */
  version: string;
  /** Field names lower-cased, in order. */
  headers: [string, string][];
  /** Bytes up to and including the blank line. */
  length: number;
}

export type HeadResult =
  { kind: 'need-more' } | { kind: 'head'; head: RequestHead } | { kind: 'invalid'; reason: string };

const TERMINATOR = '\r\n\r\n';
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const REQUEST_LINE = /^([A-Z]{1,20}) ([\x21-\x7e]{1,8192}) HTTP\/1\.([01])$/;
/** Visible ASCII, space and tab; no control characters (CR, LF, NUL) inside a value. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** True when the bytes so far can be the start of an HTTP/1.x request line (`METHOD `). */
export function looksLikeHttp(buf: Buffer): boolean {
  const n = Math.min(buf.length, 21);
  for (let i = 0; i < n; i++) {
    const c = buf[i] as number;
    if (c === 0x20) return i > 0;
    if (c < 0x41 || c > 0x5a) return false; // A-Z
  }
  return buf.length > 0 && buf.length < 21;
}

function parseField(line: string): [string, string] | string {
  if (line.startsWith(' ') || line.startsWith('\t')) return 'folded header line';
  const colon = line.indexOf(':');
  if (colon <= 0) return 'header line without a name';
  const name = line.slice(0, colon);
  const value = line.slice(colon + 1).trim();
  if (!TOKEN.test(name)) return 'bad header name';
  if (!FIELD_VALUE.test(value)) return 'bad header value';
  return [name.toLowerCase(), value];
}

/**
 * Parses a request head. `scanFrom` lets a caller that feeds growing buffers
 * skip bytes it has already searched for the blank line.
 */
export function parseHead(buf: Buffer, scanFrom = 0): HeadResult {
  const end = buf.indexOf(TERMINATOR, Math.max(0, scanFrom - 3), 'latin1');
  if (end < 0) return { kind: 'need-more' };
  // latin1 maps every byte to one char, so nothing is lost or merged.
  const lines = buf.toString('latin1', 0, end).split('\r\n');
  if (lines.some((l) => l.includes('\n') || l.includes('\r')))
    return { kind: 'invalid', reason: 'bare CR or LF' };
  const m = REQUEST_LINE.exec(lines[0] as string);
  if (!m) return { kind: 'invalid', reason: 'bad request line' };
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    const field = parseField(line);
    if (typeof field === 'string') return { kind: 'invalid', reason: field };
    headers.push(field);
  }
  if (headers.filter(([n]) => n === 'host').length > 1)
    return { kind: 'invalid', reason: 'more than one Host' };
  return {
    kind: 'head',
    head: {
      method: m[1] as string,
      target: m[2] as string,
      version: `1.${m[3]}`,
      headers,
      length: end + TERMINATOR.length,
    },
  };
}

/** The value of a header field (the first one), lower-cased name. */
export function headerOf(head: RequestHead, name: string): string | undefined {
  return head.headers.find(([n]) => n === name)?.[1];
}
