// llm-judge against an OpenAI-compatible endpoint (a loopback stand-in: the
// one true external boundary): the judge's scores become claims that say a
// judge model was used, the API key travels only as a Bearer header, and a
// failing endpoint is an error envelope, never a silent fallback.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmJudge } from '../../auditors/llm-judge/index.ts';
import { startAuditor } from '../../auditors/sdk/serve.ts';
import { createLogger } from '../../base/log.ts';
import { postJson } from '../../auditors/conformance/http.ts';
import { startReceiver } from './fixtures/loopback.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function judgeWith(answer: (body: unknown) => unknown, lines: string[] = []) {
  const model = await startReceiver(0, (r) => answer(r.body));
  const gateway = await startReceiver();
  const log = createLogger('test', {
    destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }),
  });
  const running = await startAuditor(createLlmJudge(), {
    log,
    env: {
      PLATFORM_GATEWAY_URL: gateway.url,
      TEE_PROVIDER: 'MOCK',
      PORT: '0',
      PLATFORM_AUDITOR_HOST: '127.0.0.1',
      LLM_JUDGE_ENDPOINT: `${model.url}/v1`,
      LLM_JUDGE_MODEL: 'judge-small',
      LLM_JUDGE_API_KEY: 'sk-judge-secret',
    },
  });
  cleanups.push(
    () => running.close(),
    () => gateway.close(),
    () => model.close(),
  );
  await running.loaded;
  return { running, model };
}

const chat = (content: string) => ({ choices: [{ message: { role: 'assistant', content } }] });

describe('llm-judge with a configured judge model', () => {
  it('turns the judge answer into claims marked as judged by that model', async () => {
    const lines: string[] = [];
    const { running, model } = await judgeWith(
      () => chat('{"risk": 0.9, "relevance": 0.4, "signals": ["injection"]}'),
      lines,
    );
    const res = await postJson(`${running.url}/claims`, {
      data: { input: 'q', output: 'a' },
      phase: 'response',
    });
    const claims = (res.json as { claims: { name: string; value: unknown; metadata: unknown }[] }).claims;
    expect(Object.fromEntries(claims.map((c) => [c.name, c.value]))).toEqual({
      judge_risk_score: 0.9,
      judge_risk_detected: true,
      judge_model: 'judge-small',
      judge_relevance_score: 0.4,
    });
    expect(claims[0]?.metadata).toMatchObject({ judge_model_used: true, judge_model: 'judge-small' });
    const call = model.received[0];
    expect(call?.path).toBe('/v1/chat/completions');
    expect(call?.headers.authorization).toBe('Bearer sk-judge-secret');
    expect(call?.body).toMatchObject({ model: 'judge-small', temperature: 0 });
    expect(res.text).not.toContain('sk-judge-secret');
    expect(lines.join('')).not.toContain('sk-judge-secret');
  });

  it('answers INTERNAL_ERROR (retryable) when the judge answers without scores', async () => {
    const { running } = await judgeWith(() => chat('I would rather not.'));
    const res = await postJson(`${running.url}/claims`, { data: { input: 'q' }, phase: 'request' });
    expect(res.json).toMatchObject({
      status: 'error',
      claims: [],
      error: { code: 'INTERNAL_ERROR', retryable: true },
    });
  });
});
