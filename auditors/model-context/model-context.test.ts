import { describe, expect, it } from 'vitest';
import type { Claim } from '../sdk/types.ts';
import { loadedEngine } from '../testing/harness.ts';
import { createModelContext } from './index.ts';
import { modelInfo, Tokenizers } from './tokenizer.ts';

function started(env: NodeJS.ProcessEnv = {}) {
  return loadedEngine(createModelContext(), env);
}

const byName = (claims: Claim[]) => Object.fromEntries(claims.map((c) => [c.name, c.value]));

describe('model-context tokenizer', () => {
  it('counts real BPE tokens (o200k_base: "hello world" is 2 tokens)', async () => {
    const t = new Tokenizers();
    expect(await t.count('o200k_base', 'hello world')).toBe(2);
    expect(await t.count('cl100k_base', 'hello world')).toBe(2);
    expect(await t.count('o200k_base', '')).toBe(0);
  });

  it('counts special-token text in user input as ordinary text instead of failing', async () => {
    expect(await new Tokenizers().count('o200k_base', 'a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('knows the encoding and context window of known models and strips a provider prefix', () => {
    expect(modelInfo('gpt-4')).toMatchObject({
      known: 'gpt-4',
      encoding: 'cl100k_base',
      exact: true,
      contextWindow: 8192,
    });
    expect(modelInfo('openai/gpt-4o')).toMatchObject({
      known: 'gpt-4o',
      encoding: 'o200k_base',
      contextWindow: 128000,
    });
    expect(modelInfo('llama-3-70b')).toEqual({ encoding: 'o200k_base', exact: false });
  });
});

describe('model-context auditor', () => {
  it('reports model, token counts and window use for a response', async () => {
    const res = await (
      await started()
    ).handle({
      data: { input: 'hello world', output: 'hi there', metadata: { model_id: 'gpt-4' } },
      phase: 'response',
    });
    expect(res.status).toBe('success');
    const v = byName(res.claims);
    expect(v).toMatchObject({
      model_id: 'gpt-4',
      tokenizer_encoding: 'cl100k_base',
      input_tokens: 2,
      output_tokens: 2,
      total_tokens: 4,
    });
    expect(v.context_window_tokens).toBe(8192);
    expect(v.context_window_usage).toBeCloseTo(4 / 8192);
    expect(v.context_window_near_limit).toBe(false);
  });

  it('uses MODEL_ID when the request names no model, and the default window setting for an unknown model', async () => {
    const engine = await started({ MODEL_ID: 'my-llama', MODEL_CONTEXT_DEFAULT_CONTEXT_WINDOW: '10' });
    const res = await engine.handle({
      data: { input: 'one two three four five six seven eight nine ten eleven' },
      phase: 'request',
    });
    const v = byName(res.claims);
    expect(v).toMatchObject({
      model_id: 'my-llama',
      context_window_tokens: 10,
      context_window_usage: 1,
      context_window_near_limit: true,
    });
    expect(res.claims.find((c) => c.name === 'input_tokens')).toMatchObject({
      confidence: 0.85,
      metadata: { exact: false },
    });
    expect(v.output_tokens).toBeUndefined();
  });

  it('applies a near-limit override from the policy and records it in provenance', async () => {
    const res = await (
      await started()
    ).handle({
      data: { input: 'hello', metadata: { model_id: 'gpt-4o' } },
      phase: 'request',
      platform_context: { detection_overrides: { context_window_near_limit: { near_limit_ratio: 0 } } },
    });
    expect(res.claims.find((c) => c.name === 'context_window_near_limit')).toMatchObject({
      value: true,
      provenance: { settings: { near_limit_ratio: 0, default_context_window: 128000 } },
    });
  });

  it('answers UNSUPPORTED_MODEL for an unknown model when known models are required', async () => {
    const engine = await started({ MODEL_CONTEXT_REQUIRE_KNOWN_MODEL: 'true' });
    const res = await engine.handle({
      data: { input: 'x', metadata: { model_id: 'mystery-1' } },
      phase: 'request',
    });
    expect(res).toMatchObject({ status: 'error', error: { code: 'UNSUPPORTED_MODEL', retryable: false } });
  });
});
