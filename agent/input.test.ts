import { describe, expect, it } from 'vitest';
import { loggedUrl, parseAsk, parseTool } from './input.ts';

const raw = (v: unknown): Buffer => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));

describe('parseAsk', () => {
  it('accepts a prompt, and stream and model when given', () => {
    expect(parseAsk(raw({ prompt: 'hi' }))).toEqual({ ok: true, value: { prompt: 'hi', stream: false } });
    expect(parseAsk(raw({ prompt: 'hi', stream: true, model: 'm-1' }))).toEqual({
      ok: true,
      value: { prompt: 'hi', stream: true, model: 'm-1' },
    });
  });

  it.each([
    ['{', 'not valid JSON'],
    ['[]', 'JSON object'],
    [{}, 'prompt'],
    [{ prompt: '  ' }, 'prompt'],
    [{ prompt: 3 }, 'prompt'],
    [{ prompt: 'x', stream: 'yes' }, 'stream'],
    [{ prompt: 'x', model: 'a b' }, 'model'],
  ])('refuses %j', (body, detail) => {
    const r = parseAsk(raw(body));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.detail).toContain(detail);
  });
});

describe('parseTool', () => {
  it('accepts an http(s) URL, GET by default, any case of method', () => {
    expect(parseTool(raw({ url: 'http://t.test/x' }))).toEqual({
      ok: true,
      value: { url: 'http://t.test/x', method: 'GET' },
    });
    expect(parseTool(raw({ url: 'https://t.test', method: 'post' }))).toMatchObject({
      value: { method: 'POST' },
    });
  });

  it.each([
    [{}, 'url'],
    [{ url: 'file:///etc/passwd' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'http://t.test', method: 'CONNECT' }, 'method'],
    [{ url: 'http://t.test', method: 7 }, 'method'],
  ])('refuses %j', (body, detail) => {
    const r = parseTool(raw(body));
    expect(!r.ok && r.detail).toContain(detail);
  });
});

describe('loggedUrl', () => {
  it('keeps scheme, host and path; drops credentials, query and fragment', () => {
    expect(loggedUrl('https://user:pw@tool.test:8443/a/b?token=s3cret#frag')).toBe(
      'https://tool.test:8443/a/b',
    );
    expect(loggedUrl('nope')).toBe('[unparsable url]');
  });
});
