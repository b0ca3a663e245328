import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelTarget } from './model-url.ts';

describe('modelTarget', () => {
  it('does not double the base path the agent already called', () => {
    expect(modelTarget('http://10.88.0.1:11434/v1', '/v1/chat/completions')).toBe(
      'http://10.88.0.1:11434/v1/chat/completions',
    );
    expect(modelTarget('https://api.openai.com/v1/', '/v1/models?limit=2')).toBe(
      'https://api.openai.com/v1/models?limit=2',
    );
  });

  it('joins a path outside the base path to it', () => {
    expect(modelTarget('http://host:11434/v1', '/chat/completions')).toBe(
      'http://host:11434/v1/chat/completions',
    );
    expect(modelTarget('http://host/v1', '/v10/x')).toBe('http://host/v1/v10/x');
  });

  it('passes the path through when the model URL has none', () => {
    expect(modelTarget('http://127.0.0.1:8080', '/v1/chat/completions')).toBe(
      'http://127.0.0.1:8080/v1/chat/completions',
    );
    expect(modelTarget('http://127.0.0.1:8080/', '/')).toBe('http://127.0.0.1:8080/');
  });

  it('always keeps the model origin, whatever path the agent sends', () => {
    const segment = fc.oneof(fc.stringMatching(/^[a-z0-9.-]{1,8}$/), fc.constantFrom('..', '', '@evil.test'));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), (parts) => {
        const target = new URL(modelTarget('http://model.internal:9000/v1', `/${parts.join('/')}`));
        expect(target.origin).toBe('http://model.internal:9000');
      }),
    );
  });
});
