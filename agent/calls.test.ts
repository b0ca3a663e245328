import { describe, expect, it } from 'vitest';
import { chatCall, modelCallFields } from './calls.ts';

const options = { modelBase: 'http://10.88.0.1:11434/v1', modelId: 'local-echo', timeoutMs: 1000 };

describe('chatCall', () => {
  it('posts one user message to <base>/chat/completions with the configured model', () => {
    const call = chatCall(options, { prompt: 'hi', trigger: 'ask' });
    expect(call).toMatchObject({
      method: 'POST',
      url: 'http://10.88.0.1:11434/v1/chat/completions',
      keepBody: true,
    });
    expect(JSON.parse(call.body ?? '')).toEqual({
      model: 'local-echo',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    expect(call.headers).not.toHaveProperty('authorization');
  });

  it('names another model, asks for a stream and sends the key as a Bearer token when told', () => {
    const call = chatCall(
      { ...options, apiKey: 'sk-1' },
      { prompt: 'hi', stream: true, model: 'm2', trigger: 'ask' },
    );
    expect(call.headers).toMatchObject({ authorization: 'Bearer sk-1', accept: 'text/event-stream' });
    expect(JSON.parse(call.body ?? '')).toMatchObject({ model: 'm2', stream: true });
  });
});

describe('modelCallFields', () => {
  it('logs the outcome and the answer length, never the prompt or the answer', () => {
    const fields = modelCallFields(
      { prompt: 'secret plans', trigger: 'startup' },
      { status: 200, decision: 'allow', evidence_id: 'ev-1', answer: 'the answer' },
    );
    expect(fields).toEqual({
      trigger: 'startup',
      status: 200,
      decision: 'allow',
      evidence_id: 'ev-1',
      answer_chars: 10,
      stream: false,
    });
  });
});
