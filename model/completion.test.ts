import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  complete,
  completionBody,
  completionId,
  deltasOf,
  limitTokens,
  sseFrames,
  streamChunks,
  tokenCount,
} from './completion.ts';
import type { ChatRequest } from './request.ts';

const request = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'local-echo',
  messages: [{ role: 'user', text }],
  stream: false,
  includeUsage: false,
  ...extra,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- chunks are free-form JSON
type Chunk = any;

describe('deltasOf', () => {
  it('splits word by word and joins back to the exact text', () => {
    expect(deltasOf('2 + 2 = 4.')).toEqual(['2', ' +', ' 2', ' =', ' 4.']);
    fc.assert(fc.property(fc.string(), (text) => deltasOf(text).join('') === text));
  });
});

describe('complete', () => {
  it('is deterministic: same request, same id, text and usage; the id ignores stream mode', () => {
    const a = complete(request('What is 2+2?'), 1);
    expect(complete(request('What is 2+2?', { stream: true }), 1)).toEqual(a);
    expect(a).toMatchObject({
      text: '2 + 2 = 4.',
      finishReason: 'stop',
      id: expect.stringMatching(/^chatcmpl-[0-9a-f]{29}$/),
    });
    expect(completionId(request('What is 3+3?'))).not.toBe(a.id);
  });

  it('counts usage in tokens, prompt framing included', () => {
    const c = complete(request('What is 2+2?'), 1);
    expect(c.usage.completion_tokens).toBe(tokenCount('2 + 2 = 4.'));
    expect(c.usage.prompt_tokens).toBe(tokenCount('user') + tokenCount('What is 2+2?') + 6);
    expect(c.usage.total_tokens).toBe(c.usage.prompt_tokens + c.usage.completion_tokens);
  });

  it('stops at max_tokens on a word boundary with finish_reason length', () => {
    const c = complete(request('How do I learn to cook well?', { maxTokens: 4 }), 1);
    expect(c.finishReason).toBe('length');
    expect(c.usage.completion_tokens).toBeLessThanOrEqual(4);
    expect(complete(request('How do I learn to cook well?'), 1).text.startsWith(c.text)).toBe(true);
    expect(limitTokens('short', 100)).toEqual({ text: 'short', cut: false });
  });
});

describe('the two wire forms', () => {
  const c = complete(request('How do I learn to cook well?'), 1_700_000_000);

  it('answers a chat.completion object', () => {
    expect(completionBody(c)).toMatchObject({
      id: c.id,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'local-echo',
      choices: [{ index: 0, message: { role: 'assistant', content: c.text }, finish_reason: 'stop' }],
      usage: c.usage,
    });
  });

  it('streams a role delta, word deltas that add up to the message, then the finish reason', () => {
    const chunks: Chunk[] = streamChunks(c, false);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    const words = chunks.slice(1, -1).map((k) => k.choices[0].delta.content as string);
    expect(words.join('')).toBe(c.text);
    expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    for (const k of chunks) expect(k).toMatchObject({ id: c.id, object: 'chat.completion.chunk' });
    expect(chunks.some((k) => 'usage' in k)).toBe(false);
  });

  it('adds a usage chunk with no choices when asked, usage null before it', () => {
    const chunks: Chunk[] = streamChunks(c, true);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: c.usage });
    expect(chunks.slice(0, -1).every((k) => k.usage === null)).toBe(true);
  });

  it('frames chunks as server-sent events ending with [DONE]', () => {
    const frames = sseFrames([{ a: 1 }]);
    expect(frames).toEqual(['data: {"a":1}\n\n', 'data: [DONE]\n\n']);
  });
});
