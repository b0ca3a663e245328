import { describe, expect, it } from 'vitest';
import { headerOf, looksLikeHttp, parseHead, type RequestHead } from './http-head.ts';

const head = (text: string): RequestHead => {
  const r = parseHead(Buffer.from(text, 'latin1'));
  if (r.kind !== 'head') throw new Error(`expected a head, got ${JSON.stringify(r)}`);
  return r.head;
};
const reason = (text: string): string | undefined => {
  const r = parseHead(Buffer.from(text, 'latin1'));
  return r.kind === 'invalid' ? r.reason : undefined;
};

describe('parseHead', () => {
  it('parses the request line and fields, and the head length', () => {
    const text = 'GET /a?b=c HTTP/1.1\r\nHost: Example.com:8080\r\nX-Thing:  v \r\n\r\nBODY';
    const h = head(text);
    expect(h).toEqual({
      method: 'GET',
      target: '/a?b=c',
      version: '1.1',
      headers: [
        ['host', 'Example.com:8080'],
        ['x-thing', 'v'],
      ],
      length: text.indexOf('BODY'),
    });
    expect(headerOf(h, 'host')).toBe('Example.com:8080');
  });

  it('needs more until the blank line, also when searching only the new tail', () => {
    const text = 'GET / HTTP/1.1\r\nHost: a\r\n\r\n';
    for (let n = 0; n < text.length; n++)
      expect(parseHead(Buffer.from(text.slice(0, n))).kind).toBe('need-more');
    expect(parseHead(Buffer.from(text), text.length - 1).kind).toBe('head');
  });

  it('refuses heads a lenient server could read differently', () => {
    expect(reason('GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n')).toBe('folded header line');
    expect(reason('GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n')).toBe('more than one Host');
    expect(reason('GET / HTTP/1.1\nHost: a\r\n\r\n')).toBe('bare CR or LF');
    expect(reason('GET / HTTP/2.0\r\n\r\n')).toBe('bad request line');
    expect(reason('GET  / HTTP/1.1\r\n\r\n')).toBe('bad request line');
    expect(reason('get / HTTP/1.1\r\n\r\n')).toBe('bad request line');
    expect(reason('GET / HTTP/1.1\r\nNo Colon\r\n\r\n')).toBe('header line without a name');
    expect(reason('GET / HTTP/1.1\r\nBad Name: x\r\n\r\n')).toBe('bad header name');
    expect(reason('GET / HTTP/1.1\r\nX: a\x00b\r\n\r\n')).toBe('bad header value');
  });
});

describe('looksLikeHttp', () => {
  it('accepts a method prefix and refuses other first bytes', () => {
    expect(looksLikeHttp(Buffer.from('G'))).toBe(true);
    expect(looksLikeHttp(Buffer.from('CONNECT '))).toBe(true);
    expect(looksLikeHttp(Buffer.from(' GET'))).toBe(false);
    expect(looksLikeHttp(Buffer.from('get /'))).toBe(false);
    expect(looksLikeHttp(Buffer.from([0x16, 3, 1]))).toBe(false);
    expect(looksLikeHttp(Buffer.from('A'.repeat(30)))).toBe(false);
    expect(looksLikeHttp(Buffer.alloc(0))).toBe(false);
  });
});
