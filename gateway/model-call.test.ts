// What the Gateway reads out of a model call before the auditors see it:
// the prompt, the answer, and the metadata (session, model, end user).
import { describe, expect, it } from 'vitest';
import { inputOf, metadataOf, outputOf } from './server.ts';

const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));

describe('model call parsing', () => {
  it('joins chat messages, else takes prompt or input, else the raw body', () => {
    expect(inputOf(json({ messages: [{ content: 'a' }, { content: [{ text: 'b' }] }, null] }))).toBe(
      'a\n[{"text":"b"}]\n""',
    );
    expect(inputOf(json({ prompt: 'p' }))).toBe('p');
    expect(inputOf(Buffer.from('not json'))).toBe('not json');
    expect(outputOf(json({ choices: [{ message: { content: 'x' } }, { text: 'y' }] }))).toBe('x\ny');
  });

  it('names the model, the end user and the session when the call does', () => {
    const meta = metadataOf(json({ model: 'gpt-4o-mini', user: 'ann@example.com' }), {
      'x-session-id': 's-1',
    });
    expect(meta).toEqual({ session_id: 's-1', model_id: 'gpt-4o-mini', user_id: 'ann@example.com' });
    expect(metadataOf(json({ model: 'm' }), { 'x-user-id': 'bob' })).toEqual({
      model_id: 'm',
      user_id: 'bob',
    });
  });

  it('leaves out values that are not short printable ids, and survives bodies that are not objects', () => {
    expect(metadataOf(json({ model: 'a b', user: 42 }), { 'x-session-id': '' })).toEqual({});
    expect(metadataOf(json({ model: 'x'.repeat(254) }), {})).toEqual({});
    expect(metadataOf(json(null), {})).toEqual({});
    expect(metadataOf(json([1, 2]), {})).toEqual({});
    expect(metadataOf(Buffer.from('{"model":'), { 'x-session-id': ['s', 't'] })).toEqual({ session_id: 's' });
  });
});
