import { Duplex } from 'node:stream';
import { connect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { normalizeHostName, parseClientHello } from './sni.ts';

/** The ClientHello Node's own TLS client writes, captured from an in-memory stream (no network). */
async function captureHello(servername?: string): Promise<Buffer> {
  const written: Buffer[] = [];
  let got!: () => void;
  const first = new Promise<void>((resolve) => (got = resolve));
  const wire = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk);
      got();
      callback();
    },
  });
  const tls = connect({ socket: wire, ...(servername ? { servername } : {}), rejectUnauthorized: false });
  tls.on('error', () => undefined);
  await first;
  tls.destroy();
  return Buffer.concat(written);
}

/** Re-frames a single-record hello into records of at most `size` payload bytes. */
function splitRecords(hello: Buffer, size: number): Buffer {
  const payload = hello.subarray(5);
  const records: Buffer[] = [];
  for (let i = 0; i < payload.length; i += size) {
    const part = payload.subarray(i, i + size);
    const header = Buffer.from([0x16, hello[1]!, hello[2]!, 0, 0]);
    header.writeUInt16BE(part.length, 3);
    records.push(header, part);
  }
  return Buffer.concat(records);
}

describe('parseClientHello', () => {
  it('reads the SNI of a real ClientHello', async () => {
    const hello = await captureHello('api.example.com');
    expect(parseClientHello(hello)).toEqual({ kind: 'sni', host: 'api.example.com' });
  });

  it('asks for more at every prefix of the hello, then reads it', async () => {
    const hello = await captureHello('api.example.com');
    for (let n = 0; n < hello.length; n++)
      expect(parseClientHello(hello.subarray(0, n)).kind).toBe('need-more');
    expect(parseClientHello(hello).kind).toBe('sni');
  });

  it('says from which length a partial record is worth parsing again', async () => {
    const hello = await captureHello('a.example');
    expect(parseClientHello(hello.subarray(0, 10))).toEqual({ kind: 'need-more', until: hello.length });
  });

  it('reassembles a hello split over several TLS records', async () => {
    const hello = await captureHello('split.example.org');
    const split = splitRecords(hello, Math.ceil(hello.length / 4));
    expect(parseClientHello(split)).toEqual({ kind: 'sni', host: 'split.example.org' });
    expect(parseClientHello(split.subarray(0, split.length - 1)).kind).toBe('need-more');
  });

  it('refuses a hello split over too many records', async () => {
    const hello = await captureHello('split.example.org');
    expect(parseClientHello(splitRecords(hello, 7))).toMatchObject({ kind: 'invalid' });
  });

  it('reports a hello without SNI', async () => {
    // Node sends no server_name for an IP address (RFC 6066 forbids IP literals).
    const hello = await captureHello();
    expect(parseClientHello(hello)).toEqual({ kind: 'no-sni' });
  });

  it('ignores bytes after the hello (early data)', async () => {
    const hello = await captureHello('x.example');
    const more = Buffer.concat([hello, Buffer.from([0x17, 3, 3, 0, 2, 1, 2])]);
    expect(parseClientHello(more)).toEqual({ kind: 'sni', host: 'x.example' });
  });

  it('refuses garbage, other record types and bad lengths', () => {
    expect(parseClientHello(Buffer.from('GET / HTTP/1.1\r\n\r\n')).kind).toBe('invalid');
    expect(parseClientHello(Buffer.from([0x16, 0x02, 0x00, 0x00, 0x10])).kind).toBe('invalid');
    expect(parseClientHello(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x00])).kind).toBe('invalid');
    expect(parseClientHello(Buffer.from([0x16, 0x03, 0x01, 0x40, 0x01])).kind).toBe('invalid');
    expect(parseClientHello(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x04, 0x02, 0, 0, 0])).kind).toBe('invalid');
  });

  it('refuses a hello whose inner lengths overrun their bounds', async () => {
    const hello = await captureHello('bounds.example');
    const sessionIdAt = 5 + 4 + 2 + 32;
    const suitesAt = sessionIdAt + 1 + hello[sessionIdAt]!;
    const compressionAt = suitesAt + 2 + hello.readUInt16BE(suitesAt);
    const extensionsAt = compressionAt + 1 + hello[compressionAt]!;
    // A one-byte length of 0xff overruns only when fewer than 255 bytes follow:
    // cut the hello just after the field (record and handshake lengths kept consistent).
    const cutAfter = (at: number): Buffer => {
      const cut = Buffer.from(hello.subarray(0, at + 8));
      cut.writeUInt16BE(cut.length - 5, 3);
      cut.writeUIntBE(cut.length - 9, 6, 3);
      return cut;
    };
    for (const [offset, reason] of [
      [sessionIdAt, 'bad session id'],
      [suitesAt, 'bad cipher suites'],
      [compressionAt, 'bad compression methods'],
      [extensionsAt, 'bad extensions length'],
    ] as const) {
      const bad = offset === compressionAt ? cutAfter(offset) : Buffer.from(hello);
      bad[offset] = 0xff;
      expect(parseClientHello(bad), reason).toEqual({ kind: 'invalid', reason });
    }
    const badName = Buffer.from(hello);
    badName[hello.indexOf('bounds.example') + 2] = 0xe9;
    expect(parseClientHello(badName)).toEqual({ kind: 'invalid', reason: 'server name is not a host name' });
    // Truncate the handshake body but keep the lengths consistent: a short hello.
    const short = Buffer.from([0x16, 0x03, 0x01, 0x00, 0x08, 0x01, 0x00, 0x00, 0x04, 0x03, 0x03, 0x00, 0x00]);
    expect(parseClientHello(short)).toMatchObject({ kind: 'invalid', reason: 'short ClientHello' });
  });

  it('never throws on random bytes after a handshake header', () => {
    for (let i = 0; i < 500; i++) {
      const body = Buffer.from(Array.from({ length: 64 }, (_, j) => (i * 31 + j * 17) % 256));
      const record = Buffer.concat([
        Buffer.from([0x16, 0x03, 0x01, 0x00, 0x44, 0x01, 0x00, 0x00, 0x40]),
        body,
      ]);
      expect(() => parseClientHello(record)).not.toThrow();
    }
  });
});

describe('normalizeHostName', () => {
  it('lower-cases, drops the trailing dot and refuses what is not a host name', () => {
    expect(normalizeHostName('API.Example.COM.')).toBe('api.example.com');
    expect(normalizeHostName('10.0.0.1')).toBeUndefined();
    expect(normalizeHostName('bad host')).toBeUndefined();
    expect(normalizeHostName('-lead.example')).toBeUndefined();
    expect(normalizeHostName(`${'a'.repeat(64)}.example`)).toBeUndefined();
    expect(normalizeHostName('')).toBeUndefined();
  });
});
