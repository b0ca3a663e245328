import { describe, expect, it } from 'vitest';
import { inspectPreamble, kindOf } from './preamble.ts';

describe('inspectPreamble', () => {
  it('waits for the first byte, then tells TLS, HTTP and anything else apart', () => {
    expect(inspectPreamble(Buffer.alloc(0))).toEqual({ kind: 'need-more' });
    expect(inspectPreamble(Buffer.from([0x16, 0x03]))).toEqual({ kind: 'need-more' });
    expect(inspectPreamble(Buffer.from('GET / HT'))).toEqual({ kind: 'need-more' });
    expect(inspectPreamble(Buffer.from('SSH-2.0-OpenSSH\r\n'))).toEqual({ kind: 'unsupported' });
    expect(inspectPreamble(Buffer.from([0, 1, 2]))).toEqual({ kind: 'unsupported' });
  });

  it('returns the parsed head or why it is malformed', () => {
    const ok = inspectPreamble(Buffer.from('GET / HTTP/1.1\r\nHost: a\r\n\r\n'));
    expect(ok).toMatchObject({ kind: 'http', head: { kind: 'head', head: { method: 'GET' } } });
    const bad = inspectPreamble(Buffer.from('GET / HTTP/9.9\r\n\r\n'));
    expect(bad).toEqual({ kind: 'http', head: { kind: 'invalid', reason: 'bad request line' } });
  });

  it('returns a TLS verdict for a broken record', () => {
    expect(inspectPreamble(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x00]))).toMatchObject({
      kind: 'tls',
      hello: { kind: 'invalid' },
    });
  });

  it('names the kind from the first bytes', () => {
    expect(kindOf(Buffer.from([0x16]))).toBe('tls');
    expect(kindOf(Buffer.from('CONNECT'))).toBe('http');
    expect(kindOf(Buffer.from('\x00'))).toBe('unknown');
  });
});
