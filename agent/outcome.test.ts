import { describe, expect, it } from 'vitest';
import { answerText, classifyModelAnswer, sseText } from './outcome.ts';

const completion = (content: string): string =>
  JSON.stringify({
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content } }],
  });

const stream = (...words: string[]): string =>
  [
    { choices: [{ delta: { role: 'assistant', content: '' } }] },
    ...words.map((w) => ({ choices: [{ delta: { content: w } }] })),
    { choices: [{ delta: {}, finish_reason: 'stop' }] },
  ]
    .map((c) => `data: ${JSON.stringify(c)}\n\n`)
    .join('') + 'data: [DONE]\n\n';

describe('classifyModelAnswer', () => {
  it('reads an allowed answer: the text and the Evidence id the gateway set', () => {
    expect(classifyModelAnswer(200, { 'x-platform-evidence-id': 'ev-1' }, completion('2 + 2 = 4.'))).toEqual({
      status: 200,
      decision: 'allow',
      evidence_id: 'ev-1',
      answer: '2 + 2 = 4.',
    });
  });

  it("reads the gateway's 403 blocked_by_policy as a deny with its Evidence id and reasons", () => {
    const body = JSON.stringify({
      detail: 'blocked by policy',
      code: 'blocked_by_policy',
      evidence_id: 'ev-2',
      decision_reasons: ['block-injection', 42],
    });
    expect(classifyModelAnswer(403, {}, body)).toEqual({
      status: 403,
      decision: 'deny',
      evidence_id: 'ev-2',
      answer: '',
      decision_reasons: ['block-injection'],
    });
  });

  it('treats any other 403 or error as an answer that passed the policy, with its message', () => {
    const body = JSON.stringify({ error: { message: 'The model does not exist', code: 'model_not_found' } });
    expect(classifyModelAnswer(404, {}, body)).toEqual({
      status: 404,
      decision: 'allow',
      answer: '',
      error: 'The model does not exist',
    });
    expect(classifyModelAnswer(403, {}, 'Forbidden')).toEqual({ status: 403, decision: 'allow', answer: '' });
  });

  it('drops an Evidence id that is not a printable id', () => {
    expect(classifyModelAnswer(200, { 'x-platform-evidence-id': 'a b' }, completion('x'))).not.toHaveProperty(
      'evidence_id',
    );
  });
});

describe('answerText', () => {
  it('joins stream deltas, also when relayed as application/json', () => {
    expect(answerText(stream('2', ' +', ' 2'))).toBe('2 + 2');
    expect(sseText('data: not json\n\ndata: [DONE]\n\n')).toBe('');
  });

  it('is empty for a body without a message', () => {
    expect(answerText('{"choices":[]}')).toBe('');
    expect(answerText('<html>')).toBe('');
  });
});
