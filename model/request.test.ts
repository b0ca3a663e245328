import { describe, expect, it } from 'vitest';
import { parseChatRequest, type ApiError, type ChatRequest } from './request.ts';

const ok = (body: unknown): ChatRequest => {
  const r = parseChatRequest(JSON.stringify(body));
  if ('status' in r) throw new Error(`refused: ${r.body.error.message}`);
  return r;
};
const refused = (raw: string | object): ApiError => {
  const r = parseChatRequest(typeof raw === 'string' ? raw : JSON.stringify(raw));
  if (!('status' in r)) throw new Error('accepted');
  return r;
};
const user = (content: unknown): unknown[] => [{ role: 'user', content }];

describe('parseChatRequest', () => {
  it('accepts the OpenAI shape with string content and reads the options', () => {
    const r = ok({
      model: 'local-echo',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is 2+2?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 16,
      temperature: 0.2,
      user: 'ann',
    });
    expect(r).toEqual({
      model: 'local-echo',
      messages: [
        { role: 'system', text: 'Be brief.' },
        { role: 'user', text: 'What is 2+2?' },
      ],
      stream: true,
      includeUsage: true,
      maxTokens: 16,
      temperature: 0.2,
      user: 'ann',
    });
  });

  it('joins text parts, reads null content as empty and ignores unknown fields', () => {
    const r = ok({
      model: 'm',
      messages: [
        { role: 'assistant', content: null, tool_calls: [] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
      ],
      tools: [],
      max_completion_tokens: 5,
      max_tokens: 99,
    });
    expect(r.messages).toEqual([
      { role: 'assistant', text: '' },
      { role: 'user', text: 'one\ntwo' },
    ]);
    expect(r).toMatchObject({ stream: false, includeUsage: false, maxTokens: 5 });
  });

  it('asks for usage only when streaming', () => {
    expect(
      ok({ model: 'm', messages: user('hi'), stream_options: { include_usage: true } }).includeUsage,
    ).toBe(false);
  });

  it.each([
    ['malformed JSON', '{"model":', null, 'invalid_json'],
    ['a JSON array', '[]', null, 'invalid_type'],
    ['no model', { messages: user('hi') }, 'model', 'missing_required_parameter'],
    ['an empty model', { model: '', messages: user('hi') }, 'model', 'missing_required_parameter'],
    ['no messages', { model: 'm' }, 'messages', 'invalid_value'],
    ['empty messages', { model: 'm', messages: [] }, 'messages', 'invalid_value'],
    ['a message that is a string', { model: 'm', messages: ['hi'] }, 'messages[0].role', 'invalid_value'],
    [
      'an unknown role',
      { model: 'm', messages: [{ role: 'robot', content: 'x' }] },
      'messages[0].role',
      'invalid_value',
    ],
    ['numeric content', { model: 'm', messages: user(42) }, 'messages[0].content', 'invalid_type'],
    [
      'an image part',
      { model: 'm', messages: user([{ type: 'image_url', image_url: { url: 'x' } }]) },
      'messages[0].content[0]',
      'invalid_value',
    ],
    ['a string stream flag', { model: 'm', messages: user('hi'), stream: 'yes' }, 'stream', 'invalid_value'],
    ['zero max_tokens', { model: 'm', messages: user('hi'), max_tokens: 0 }, 'max_tokens', 'invalid_value'],
    [
      'fractional max_tokens',
      { model: 'm', messages: user('hi'), max_tokens: 1.5 },
      'max_tokens',
      'invalid_value',
    ],
    ['temperature 3', { model: 'm', messages: user('hi'), temperature: 3 }, 'temperature', 'invalid_value'],
    ['a numeric user', { model: 'm', messages: user('hi'), user: 7 }, 'user', 'invalid_value'],
    ['two choices', { model: 'm', messages: user('hi'), n: 2 }, 'n', 'invalid_value'],
  ])('refuses %s with 400 in the OpenAI error shape', (_, body, param, code) => {
    const e = refused(body as string | object);
    expect(e.status).toBe(400);
    expect(e.body.error).toMatchObject({ type: 'invalid_request_error', param, code });
    expect(e.body.error.message).toEqual(expect.any(String));
  });
});
