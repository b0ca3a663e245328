// The server name of a TLS ClientHello, read without terminating TLS: the
// proxy routes transparent HTTPS by SNI because the original destination port
// is not visible to it. Pure and bounds-checked: every length is checked
// against what is actually there before it is used, and the handshake may be
// split over several TLS records (and those over several TCP reads).

export type HelloResult =
  /** Not enough bytes yet; `until` is the length worth parsing again at. The caller bounds it. */
  | { kind: 'need-more'; until?: number }
  | { kind: 'sni'; host: string }
  /** A well-formed ClientHello without a host_name entry. */
  | { kind: 'no-sni' }
  | { kind: 'invalid'; reason: string };

const RECORD_HEADER = 5;
const HANDSHAKE = 0x16;
const CLIENT_HELLO = 0x01;
/** TLSPlaintext.length may not exceed 2^14 (RFC 8446 §5.1). */
const MAX_RECORD = 16_384;
const EXT_SERVER_NAME = 0x0000;
const HOST_NAME = 0x00;

/** True when the bytes can only be the start of a TLS handshake record. */
export function looksLikeTls(buf: Buffer): boolean {
  return buf.length > 0 && buf[0] === HANDSHAKE;
}

type Reassembly =
  { kind: 'need-more'; until?: number } | { kind: 'invalid'; reason: string } | { kind: 'ok'; body: Buffer };

/** A real ClientHello fills one record, rarely a few; more fragments than this is an attack. */
const MAX_RECORDS = 16;

/** Byte `i` of the payload split over `parts`, or undefined when not there yet. */
function byteAt(parts: Buffer[], i: number): number | undefined {
  for (const p of parts) {
    if (i < p.length) return p[i];
    i -= p.length;
  }
  return undefined;
}

/** The handshake message length once its 4-byte header has arrived. */
function messageLengthOf(parts: Buffer[]): number | undefined {
  const bytes = [1, 2, 3].map((i) => byteAt(parts, i));
  if (bytes.some((b) => b === undefined)) return undefined;
  return ((bytes[0] as number) << 16) | ((bytes[1] as number) << 8) | (bytes[2] as number);
}

/** Why the (complete) record header at `offset` is not a TLS handshake record, or ''. */
function recordHeaderProblem(buf: Buffer, offset: number): string {
  if (buf[offset] !== HANDSHAKE) return 'not a handshake record';
  if (buf[offset + 1] !== 0x03) return 'unknown record version';
  const length = buf.readUInt16BE(offset + 3);
  if (length === 0 || length > MAX_RECORD) return 'bad record length';
  return '';
}

/**
 * Joins the payloads of consecutive handshake records until the first
 * handshake message is complete; returns that message's body. Buffers are
 * concatenated once, at the end, so the work stays linear in the input.
 */
function handshakeMessage(buf: Buffer): Reassembly {
  const parts: Buffer[] = [];
  let have = 0;
  let offset = 0;
  for (let records = 0; records < MAX_RECORDS; records++) {
    if (buf.length - offset < RECORD_HEADER) return { kind: 'need-more' };
    const problem = recordHeaderProblem(buf, offset);
    if (problem) return { kind: 'invalid', reason: problem };
    const end = offset + RECORD_HEADER + buf.readUInt16BE(offset + 3);
    const payload = buf.subarray(offset + RECORD_HEADER, Math.min(end, buf.length));
    parts.push(payload);
    have += payload.length;
    if (have > 0 && byteAt(parts, 0) !== CLIENT_HELLO)
      return { kind: 'invalid', reason: 'not a ClientHello' };
    const messageLength = messageLengthOf(parts);
    if (messageLength !== undefined && have >= 4 + messageLength)
      return { kind: 'ok', body: Buffer.concat(parts, have).subarray(4, 4 + messageLength) };
    if (end > buf.length) return { kind: 'need-more', until: end };
    offset = end;
  }
  return { kind: 'invalid', reason: 'ClientHello split over too many records' };
}

/** A cursor that refuses to read past the end of its buffer. */
class Reader {
  offset = 0;
  constructor(private readonly buf: Buffer) {}
  get left(): number {
    return this.buf.length - this.offset;
  }
  uint(bytes: 1 | 2): number | undefined {
    if (this.left < bytes) return undefined;
    const v = bytes === 1 ? (this.buf[this.offset] as number) : this.buf.readUInt16BE(this.offset);
    this.offset += bytes;
    return v;
  }
  take(length: number | undefined): Buffer | undefined {
    if (length === undefined || this.left < length) return undefined;
    const out = this.buf.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }
  /** A field behind a length prefix of `lengthBytes`, when that length `fits` and the field is all there. */
  vector(lengthBytes: 1 | 2, fits: (length: number) => boolean): Buffer | undefined {
    const length = this.uint(lengthBytes);
    return length !== undefined && fits(length) ? this.take(length) : undefined;
  }
}

/**
 * Moves `r` past the ClientHello fields before its extensions (legacy
 * version, random, session id, cipher suites, compression methods); returns
 * why they are malformed, or ''.
 */
function skipHelloFields(r: Reader): string {
  if (!r.take(2 + 32)) return 'short ClientHello'; // legacy_version + random
  if (!r.vector(1, (n) => n <= 32)) return 'bad session id';
  if (!r.vector(2, (n) => n >= 2 && n % 2 === 0)) return 'bad cipher suites';
  if (!r.vector(1, (n) => n >= 1)) return 'bad compression methods';
  return '';
}

/** The extensions block of a ClientHello body; undefined when the hello has none. */
function extensionsOf(body: Buffer): { ok: Buffer | undefined } | { invalid: string } {
  const r = new Reader(body);
  const problem = skipHelloFields(r);
  if (problem) return { invalid: problem };
  if (r.left === 0) return { ok: undefined }; // extensions are optional before TLS 1.3
  const length = r.uint(2);
  const extensions = r.take(length);
  if (!extensions || r.left !== 0) return { invalid: 'bad extensions length' };
  return { ok: extensions };
}

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A DNS host name as SNI allows it (no IP literals, RFC 6066 §3), lower-cased, without a trailing dot. */
export function normalizeHostName(raw: string): string | undefined {
  const name = raw.toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > 253) return undefined;
  if (!name.split('.').every((label) => LABEL.test(label))) return undefined;
  if (/^[\d.]+$/.test(name)) return undefined;
  return name;
}

function serverNameOf(data: Buffer): HelloResult {
  const r = new Reader(data);
  const listLength = r.uint(2);
  const list = r.take(listLength);
  if (!list || r.left !== 0) return { kind: 'invalid', reason: 'bad server_name list' };
  const entries = new Reader(list);
  while (entries.left > 0) {
    const type = entries.uint(1);
    const name = entries.take(entries.uint(2));
    if (type === undefined || !name) return { kind: 'invalid', reason: 'bad server_name entry' };
    if (type !== HOST_NAME) continue;
    // latin1 keeps one char per byte, so a non-ASCII byte fails the name check.
    const host = normalizeHostName(name.toString('latin1'));
    return host ? { kind: 'sni', host } : { kind: 'invalid', reason: 'server name is not a host name' };
  }
  return { kind: 'no-sni' };
}

/**
 * Reads the SNI host name from the bytes a client sent first. `need-more`
 * until the whole ClientHello has arrived; the caller stops at its byte limit.
 */
export function parseClientHello(buf: Buffer): HelloResult {
  const message = handshakeMessage(buf);
  if (message.kind !== 'ok') return message;
  const extensions = extensionsOf(message.body);
  if ('invalid' in extensions) return { kind: 'invalid', reason: extensions.invalid };
  if (!extensions.ok) return { kind: 'no-sni' };
  const r = new Reader(extensions.ok);
  while (r.left > 0) {
    const type = r.uint(2);
    const data = r.take(r.uint(2));
    if (type === undefined || !data) return { kind: 'invalid', reason: 'bad extension' };
    if (type === EXT_SERVER_NAME) return serverNameOf(data);
  }
  return { kind: 'no-sni' };
}
