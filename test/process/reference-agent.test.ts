// `platform run agent` and `platform run model` as child processes on
// loopback. One agent reaches the model through a stand-in for the gateway
// (it relays answers as the gateway does, with an Evidence id, and answers
// 403 blocked_by_policy for prompts that say BLOCK); another is started
// before the model is up, reaches it directly and must retry until it is.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, until } from './fixtures/gateway.ts';
import { freePort, spawnPlatform, type AuditorChild } from './fixtures/loopback.ts';

const API_KEY = 'sk-test-secret-123';

interface FakeGateway {
  url: string;
  authorizations: (string | undefined)[];
  close(): void;
}

async function bodyText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Answers like the gateway's model path: a deny for BLOCK, else the model's answer relayed whole. */
async function startFakeGateway(modelUrl: string): Promise<FakeGateway> {
  const authorizations: (string | undefined)[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await bodyText(req);
      if (req.url?.startsWith('/tool')) return res.writeHead(200).end('tool ok');
      authorizations.push(req.headers.authorization);
      n += 1;
      if (body.includes('BLOCK')) {
        res.writeHead(403, { 'content-type': 'application/json' });
        const deny = { detail: 'blocked by policy', code: 'blocked_by_policy', evidence_id: `ev-deny-${n}` };
        return res.end(JSON.stringify({ ...deny, decision_reasons: ['block-injection'] }));
      }
      const answer = await fetch(`${modelUrl}${req.url}`, { method: 'POST', body });
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'x-platform-evidence-id': `ev-allow-${n}`,
      });
      res.end(await answer.text());
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, authorizations, close: () => server.close() };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- log lines are free-form JSON
type Line = any;

const logLines = (child: AuditorChild): Line[] =>
  child
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

const ready = (child: AuditorChild, what: string): Promise<true> =>
  until(async () => ((await fetch(`${child.url}/readyz`)).ok ? true : undefined), 45_000, what);

describe('platform run agent', () => {
  let model: AuditorChild;
  let gateway: FakeGateway;
  let governed: AuditorChild;
  let direct: AuditorChild;

  beforeAll(async () => {
    const modelPort = await freePort();
    // Started first: its start-up call is refused until the model listens.
    direct = spawnPlatform(
      ['agent'],
      {
        AGENT_HOST: '127.0.0.1',
        PLATFORM_MODEL_URL: `http://127.0.0.1:${modelPort}`,
        AGENT_PROMPT: 'Hello',
        AGENT_RETRY_DELAY: '200ms',
        AGENT_STARTUP_ATTEMPTS: '12',
      },
      await freePort(),
    );
    await until(
      async () => (direct.output().includes('model not reachable yet') ? true : undefined),
      45_000,
      'a refused start-up call',
    );
    model = spawnPlatform(['model'], { PLATFORM_MODEL_HOST: '127.0.0.1' }, modelPort);
    await ready(model, 'model ready');
    gateway = await startFakeGateway(model.url);
    governed = spawnPlatform(
      ['agent'],
      {
        AGENT_HOST: '127.0.0.1',
        OPENAI_BASE_URL: `${gateway.url}/v1`,
        OPENAI_API_KEY: API_KEY,
        AGENT_PROMPT: 'What is 2+2?',
        AGENT_TOOL_URL: `${gateway.url}/tool?token=s3cret`,
        AGENT_MAX_BODY_BYTES: '2048',
      },
      await freePort(),
    );
    await Promise.all([ready(governed, 'governed agent ready'), ready(direct, 'direct agent ready')]);
  });

  afterAll(async () => {
    await Promise.all([governed?.stop(), direct?.stop()]);
    gateway?.close();
    await model?.stop();
  });

  const ask = (agent: AuditorChild, body: unknown): ReturnType<typeof json> =>
    json(`${agent.url}/v1/ask`, { body });

  it('logs its start-up model call (status 200, allowed, with the Evidence id) and its tool call', () => {
    const lines = logLines(governed);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'model call',
        trigger: 'startup',
        status: 200,
        decision: 'allow',
        evidence_id: expect.stringMatching(/^ev-allow-/),
        answer_chars: '2 + 2 = 4.'.length,
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'tool call', url: `${gateway.url}/tool`, status: 200, bytes: 7 }),
    );
  });

  it('sends the API key as a Bearer token and never logs it, nor a query string', () => {
    expect(gateway.authorizations[0]).toBe(`Bearer ${API_KEY}`);
    expect(governed.output()).not.toContain(API_KEY);
    expect(governed.output()).not.toContain('s3cret');
  });

  it('retries its start-up call while the model is not listening, then reaches it', () => {
    const calls = logLines(direct).filter((l) => l.msg === 'model call');
    expect(calls[0]).toMatchObject({ status: 0, error: 'ECONNREFUSED' });
    expect(calls.at(-1)).toMatchObject({ status: 200, decision: 'allow', evidence_id: null });
  });

  it('answers /v1/ask with the model’s deterministic answer', async () => {
    const prompt = 'How do I learn to cook well?';
    const straight = await json(`${model.url}/v1/chat/completions`, {
      body: { model: 'local-echo', messages: [{ role: 'user', content: prompt }] },
    });
    const first = await ask(governed, { prompt });
    expect(first).toMatchObject({
      status: 200,
      body: {
        status: 200,
        decision: 'allow',
        evidence_id: expect.stringMatching(/^ev-allow-/),
        answer: straight.body.choices[0].message.content,
      },
    });
    expect((await ask(direct, { prompt })).body).toEqual({
      status: 200,
      decision: 'allow',
      evidence_id: null,
      answer: first.body.answer,
    });
  });

  it('streams: the deltas add up to the same answer, through the gateway and directly', async () => {
    const prompt = 'What should I read next?';
    const whole = (await ask(direct, { prompt })).body.answer as string;
    expect(whole.length).toBeGreaterThan(20);
    for (const agent of [governed, direct]) {
      const { body } = await ask(agent, { prompt, stream: true });
      expect(body).toMatchObject({ status: 200, decision: 'allow', answer: whole });
    }
  });

  it('reports a call the gateway blocked as a deny with its Evidence id and reasons', async () => {
    const { status, body } = await ask(governed, { prompt: 'BLOCK this one' });
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 403,
      decision: 'deny',
      evidence_id: expect.stringMatching(/^ev-deny-/),
      answer: '',
      decision_reasons: ['block-injection'],
    });
    expect(logLines(governed)).toContainEqual(
      expect.objectContaining({
        msg: 'model call',
        trigger: 'ask',
        decision: 'deny',
        evidence_id: body.evidence_id,
      }),
    );
  });

  it('makes a tool call on request and reports 502 when nothing answers', async () => {
    expect((await json(`${governed.url}/v1/tool`, { body: { url: `${gateway.url}/tool` } })).body).toEqual({
      status: 200,
      bytes: 7,
    });
    const closed = await freePort();
    const failed = await json(`${governed.url}/v1/tool`, { body: { url: `http://127.0.0.1:${closed}/` } });
    expect(failed).toMatchObject({ status: 502, body: { code: 'ECONNREFUSED' } });
  });

  it('refuses bad bodies with 422, oversized ones with 413, and unknown paths', async () => {
    for (const init of [
      { raw: '{' },
      { body: {} },
      { body: { prompt: 7 } },
      { body: { prompt: 'x', stream: 1 } },
    ]) {
      const res = await json(`${governed.url}/v1/ask`, init);
      expect(res.status, JSON.stringify(init)).toBe(422);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    expect((await json(`${governed.url}/v1/tool`, { body: { url: 'file:///etc/passwd' } })).status).toBe(422);
    expect((await ask(governed, { prompt: 'x'.repeat(4096) })).status).toBe(413);
    expect((await json(`${governed.url}/v1/ask`)).status).toBe(405);
    expect((await json(`${governed.url}/v1/nothing`)).status).toBe(404);
  });

  it('counts its calls in /metrics', async () => {
    const metrics = await (await fetch(`${governed.url}/metrics`)).text();
    expect(metrics).toMatch(
      /platform_agent_model_calls_total\{decision="deny",status="403",role="agent"\} 1/,
    );
    expect(metrics).toMatch(/platform_agent_tool_calls_total\{status="200",role="agent"\} 2/);
    expect(metrics).toMatch(
      /platform_http_requests_total\{route="\/v1\/ask",method="POST",status="422",role="agent"\} 4/,
    );
  });

  it('exits 0 on SIGTERM', async () => {
    expect(await governed.stop()).toBe(0);
    expect(await direct.stop()).toBe(0);
  });
});
