import { describe, expect, it } from 'vitest';
import { CliError } from './errors.ts';
import { listedIds, modelsUrls, sampleEvaluation } from './model-check.ts';

describe('model verify', () => {
  it('asks <endpoint>/models, and /v1/models for a base without /v1', () => {
    expect(modelsUrls('http://m:11434/v1/')).toEqual(['http://m:11434/v1/models']);
    expect(modelsUrls('http://m:11434')).toEqual(['http://m:11434/models', 'http://m:11434/v1/models']);
  });

  it('reads the ids of an OpenAI-style model list', () => {
    expect(listedIds({ object: 'list', data: [{ id: 'a' }, { id: 'b' }, { name: 'c' }] })).toEqual([
      'a',
      'b',
    ]);
    expect(listedIds({ models: [] })).toBeUndefined();
    expect(listedIds('text')).toBeUndefined();
  });
});

describe('model test', () => {
  it('sends the prompt as a request-phase evaluation', () => {
    expect(sampleEvaluation({ gateway: 'http://g', prompt: 'hi', model: 'gpt-4o' })).toEqual({
      data: { input: 'hi', metadata: { session_id: 'platform-cli', model_id: 'gpt-4o' } },
      phase: 'request',
    });
  });

  it('evaluates the response phase when an answer is given', () => {
    expect(sampleEvaluation({ gateway: 'http://g', prompt: 'hi', output: 'hello' })).toMatchObject({
      data: { input: 'hi', output: 'hello' },
      phase: 'response',
    });
  });

  it('refuses a response phase without an answer, and an unknown phase', () => {
    expect(() => sampleEvaluation({ gateway: 'http://g', prompt: 'hi', phase: 'response' })).toThrow(
      CliError,
    );
    expect(() => sampleEvaluation({ gateway: 'http://g', prompt: 'hi', phase: 'audit' })).toThrow(
      /unknown --phase/,
    );
  });
});
