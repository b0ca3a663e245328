// `platform run model` as a child process: the OpenAI-compatible surface a
// client (or the gateway) sees. Answers are deterministic, the stream adds up
// to the whole answer, bad input gets OpenAI-shaped 4xx errors, bad settings
// exit 2 and SIGTERM exits 0.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, until } from './fixtures/gateway.ts';
import { freePort, REPO_ROOT, spawnPlatform, type AuditorChild } from './fixtures/loopback.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- SSE chunks are free-form JSON
type Chunk = any;

const question = {
  model: 'local-echo',
  messages: [{ role: 'user', content: 'How do I learn to cook well?' }],
};

/** The JSON chunks of an SSE body, and whether it ended with [DONE]. */
function parseSse(text: string): { chunks: Chunk[]; done: boolean } {
  const data = text
    .split('\n\n')
    .filter((f) => f.startsWith('data: '))
    .map((f) => f.slice('data: '.length));
  const done = data.at(-1) === '[DONE]';
  return { chunks: data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d) as Chunk), done };
}

describe('platform run model', () => {
  let model: AuditorChild;

  beforeAll(async () => {
    model = spawnPlatform(
      ['model'],
      {
        PLATFORM_MODEL_HOST: '127.0.0.1',
        PLATFORM_MODEL_IDS: 'local-echo,local-echo-large',
        PLATFORM_MODEL_MAX_BODY_BYTES: '4096',
      },
      await freePort(),
    );
    await until(
      async () => ((await fetch(`${model.url}/readyz`)).ok ? true : undefined),
      45_000,
      'model ready',
    );
  });

  afterAll(async () => {
    await model?.stop();
  });

  const chat = (body: unknown): ReturnType<typeof json> => json(`${model.url}/v1/chat/completions`, { body });

  it('lists its models', async () => {
    const { status, body } = await json(`${model.url}/v1/models`);
    expect(status).toBe(200);
    expect(body).toEqual({
      object: 'list',
      data: ['local-echo', 'local-echo-large'].map((id) => ({
        id,
        object: 'model',
        created: expect.any(Number),
        owned_by: 'agent-platform',
      })),
    });
    expect((await json(`${model.url}/v1/models/local-echo`)).body).toMatchObject({ id: 'local-echo' });
  });

  it('answers the same request with the same completion, byte for byte', async () => {
    const first = await chat(question);
    const second = await chat(question);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(first.body).toMatchObject({
      object: 'chat.completion',
      model: 'local-echo',
      choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
    });
    expect(first.body.choices[0].message.content).toMatch(/^Here is a short answer to "How do I learn/);
    const sum = await chat({ ...question, messages: [{ role: 'user', content: 'What is 2+2?' }] });
    expect(sum.body.choices[0].message.content).toBe('2 + 2 = 4.');
  });

  it('streams deltas that add up to the non-streamed answer, then [DONE]', async () => {
    const whole = (await chat(question)).body;
    const res = await fetch(`${model.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...question, stream: true, stream_options: { include_usage: true } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { chunks, done } = parseSse(await res.text());
    expect(done).toBe(true);
    const text = chunks.map((c) => (c.choices[0]?.delta?.content as string | undefined) ?? '').join('');
    expect(text).toBe(whole.choices[0].message.content);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1).usage).toEqual(whole.usage);
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set([whole.id]));
  });

  it('refuses an unknown model with 404 model_not_found', async () => {
    const { status, body } = await chat({ ...question, model: 'gpt-9' });
    expect(status).toBe(404);
    expect(body).toEqual({
      error: {
        message: expect.stringContaining('gpt-9'),
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    });
    expect((await json(`${model.url}/v1/models/gpt-9`)).status).toBe(404);
  });

  it('answers bad input with 4xx in the OpenAI error shape, never 500', async () => {
    const cases: [Parameters<typeof json>[1], number][] = [
      [{ raw: '{"model": "local-echo", "messages": [' }, 400],
      [{ body: { model: 'local-echo' } }, 400],
      [{ body: { model: 'local-echo', messages: [{ role: 'user', content: 5 }] } }, 400],
      [{ body: { ...question, padding: 'x'.repeat(5000) } }, 413],
      [{ raw: '' }, 400],
    ];
    for (const [init, expected] of cases) {
      const { status, body } = await json(`${model.url}/v1/chat/completions`, init);
      expect(status, JSON.stringify(init).slice(0, 80)).toBe(expected);
      expect(body.error.type).toBe('invalid_request_error');
    }
    expect((await json(`${model.url}/v1/completions`, { body: { prompt: 'x' } })).status).toBe(404);
    expect((await json(`${model.url}/v1/chat/completions`)).status).toBe(405);
    expect((await json(`${model.url}/v1/models/%E0%A4%A`)).status).toBe(404);
  });

  it('serves /healthz and counts requests by route and status in /metrics', async () => {
    expect(await (await fetch(`${model.url}/healthz`)).json()).toEqual({ status: 'ok', failures: [] });
    const metrics = await (await fetch(`${model.url}/metrics`)).text();
    expect(metrics).toMatch(
      /platform_http_requests_total\{route="\/v1\/chat\/completions",method="POST",status="200",role="model"\} \d+/,
    );
    expect(metrics).toContain('status="404",role="model"');
    expect(metrics).toContain('platform_http_request_duration_seconds_bucket');
    expect(metrics).toMatch(
      /platform_model_completions_total\{model="local-echo",stream="true",finish_reason="stop"/,
    );
  });

  it('exits 0 on SIGTERM', async () => {
    expect(await model.stop()).toBe(0);
    expect(model.output()).toContain('"msg":"model server listening"');
  });
});

describe('platform run model settings', () => {
  it('reports every bad value and exits 2', () => {
    const res = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'platform.js'), 'run', 'model'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', PORT: 'nope', PLATFORM_MODEL_MAX_BODY_BYTES: '1' },
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('PORT="nope"');
    expect(res.stderr).toContain('PLATFORM_MODEL_MAX_BODY_BYTES=1');
  });
});
