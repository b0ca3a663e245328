// Every server cuts an oversized body at its limit, through the one bounded
// reader (base/body.ts): streamed without a Content-Length (chunked) or
// declared over the limit, the answer is the server's own 413 shape (the
// auditors' in-band envelope), and the server keeps serving.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentClient } from '../../agent/calls.ts';
import { agentHandler, internalError as agentError, routeOf as agentRoute } from '../../agent/server.ts';
import { startAuditor } from '../../auditors/sdk/serve.ts';
import { startGatewayServer } from '../../gateway/server.ts';
import { internalError as modelError, modelHandler, routeOf as modelRoute } from '../../model/server.ts';
import { startHttpService } from '../../base/http-service.ts';
import { createLogger } from '../../base/log.ts';
import { startWebhookServer } from '../../webhooks/server.ts';
import { issueCa, issueServing } from '../../base/tls/certs.ts';
import { startReceiver } from './fixtures/loopback.ts';
import { startTestVerifier } from './fixtures/verifier.ts';
import { createTestAuditor } from './fixtures/test-auditors.ts';

const log = createLogger('body-limit-test', { level: 'silent' });
const ca = issueCa(new Date(), 1);
const LIMIT = 2048;
/** Never reached: the body is refused before the server would use it. */
const unused = {} as never;

interface Target {
  name: string;
  url: string;
  path: string;
  /** Any request that shows the server still serves. */
  alive: string;
  /** The server's limit, when not LIMIT. */
  limit?: number;
  /** Sent with the oversized body (a credential, where the server reads bodies only from known callers). */
  headers?: Record<string, string>;
  expected: { status: number; body: unknown };
}

const targets: Target[] = [];
const closers: (() => Promise<unknown>)[] = [];

/** The Verifier API's evidence intake: its route limit (64 KiB) is tighter than the API's. */
const EVIDENCE_LIMIT = 64 * 1024;

async function startApi(): Promise<void> {
  const verifier = await startTestVerifier(['body-limit.agent']);
  closers.push(() => verifier.close());
  targets.push({
    name: 'api',
    url: verifier.url,
    path: '/v1/evidence',
    alive: '/openapi.json',
    limit: EVIDENCE_LIMIT,
    headers: { authorization: `Bearer ${verifier.gatewayKey}` },
    expected: {
      status: 413,
      body: { detail: `request body exceeds the limit of ${EVIDENCE_LIMIT} bytes`, code: 'body_too_large' },
    },
  });
}

async function startAll(): Promise<void> {
  await startApi();
  const receiver = await startReceiver();
  closers.push(() => receiver.close());
  const auditor = await startAuditor(createTestAuditor(), {
    log,
    env: {
      PLATFORM_GATEWAY_URL: receiver.url,
      TEE_PROVIDER: 'MOCK',
      PORT: '0',
      PLATFORM_AUDITOR_HOST: '127.0.0.1',
      PLATFORM_AUDITOR_MAX_BODY_BYTES: String(LIMIT),
    },
  });
  closers.push(() => auditor.close());
  await auditor.loaded;
  targets.push({
    name: 'auditor',
    url: auditor.url,
    path: '/claims',
    alive: '/healthz',
    expected: {
      status: 200,
      body: expect.objectContaining({
        status: 'error',
        error: expect.objectContaining({ code: 'INVALID_INPUT', details: { max_bytes: LIMIT } }),
      }),
    },
  });

  const model = await startHttpService({
    host: '127.0.0.1',
    port: 0,
    registry: new Registry(),
    log,
    handle: modelHandler({ modelIds: ['m'], maxBodyBytes: LIMIT, created: 0, registry: new Registry() }),
    routeOf: modelRoute,
    readiness: () => '',
    internalError: modelError,
  });
  closers.push(() => model.close(0));
  targets.push({
    name: 'model',
    url: `http://127.0.0.1:${model.port}`,
    path: '/v1/chat/completions',
    alive: '/healthz',
    expected: { status: 413, body: { error: expect.objectContaining({ code: 'request_too_large' }) } },
  });

  const agent = await startHttpService({
    host: '127.0.0.1',
    port: 0,
    registry: new Registry(),
    log,
    handle: agentHandler(unused as AgentClient, LIMIT),
    routeOf: agentRoute,
    readiness: () => '',
    internalError: agentError,
  });
  closers.push(() => agent.close(0));
  targets.push({
    name: 'agent',
    url: `http://127.0.0.1:${agent.port}`,
    path: '/v1/ask',
    alive: '/healthz',
    expected: { status: 413, body: { detail: `the body is larger than ${LIMIT} bytes` } },
  });

  const gateway = await startGatewayServer(
    {
      pipeline: unused,
      registry: unused,
      forwarder: unused,
      metrics: new Registry(),
      log,
      maxBodyBytes: LIMIT,
      readiness: () => '',
    },
    0,
    '127.0.0.1',
  );
  closers.push(() => new Promise((resolve) => gateway.close(resolve)));
  targets.push({
    name: 'gateway',
    url: `http://127.0.0.1:${(gateway.address() as { port: number }).port}`,
    path: '/v1/evaluate',
    alive: '/healthz',
    expected: {
      status: 413,
      body: { detail: `request body exceeds the limit of ${LIMIT} bytes`, code: 'payload_too_large' },
    },
  });

  const webhook = await startWebhookServer({
    host: '127.0.0.1',
    port: 0,
    certificate: issueServing(ca, { dnsNames: [], ipAddresses: ['127.0.0.1'] }, new Date(), 1),
    routes: { '/mutate': unused },
    bodyLimitBytes: LIMIT,
    handlerTimeoutMs: 2000,
    log,
  });
  closers.push(() => webhook.close());
  targets.push({
    name: 'webhook',
    url: `https://127.0.0.1:${webhook.port}`,
    path: '/mutate',
    alive: '/none',
    expected: {
      status: 413,
      body: { detail: `request body exceeds the limit of ${LIMIT} bytes`, code: 'body_too_large' },
    },
  });
}

beforeAll(startAll);
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

interface Answer {
  status: number;
  body: unknown;
}

/** POSTs `chunks`; with `declared`, under that Content-Length, else chunked. */
function post(
  url: string,
  chunks: Buffer[],
  declared?: number,
  extra: Record<string, string> = {},
): Promise<Answer> {
  const https = url.startsWith('https:');
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  if (declared !== undefined) headers['content-length'] = String(declared);
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(
      url,
      { method: 'POST', headers, ...(https ? { ca: ca.certPem } : {}) },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

function get(url: string): Promise<number> {
  const https = url.startsWith('https:');
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, https ? { ca: ca.certPem } : {}, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A JSON string of `bytes` bytes, sent in 1 KiB pieces. */
function oversized(bytes: number): Buffer[] {
  const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(bytes) }));
  const pieces: Buffer[] = [];
  for (let at = 0; at < body.length; at += 1024) pieces.push(body.subarray(at, at + 1024));
  return pieces;
}

describe('every server cuts an oversized body at its limit', () => {
  const names = ['api', 'auditor', 'model', 'agent', 'gateway', 'webhook'];
  it.each(names)('%s: streamed without a Content-Length', async (name) => {
    const t = targets.find((x) => x.name === name)!;
    const chunks = oversized((t.limit ?? LIMIT) * 4);
    expect(await post(`${t.url}${t.path}`, chunks, undefined, t.headers)).toEqual(t.expected);
    expect(await get(`${t.url}${t.alive}`)).toBeLessThan(500);
  });

  it.each(names)('%s: a declared Content-Length over the limit', async (name) => {
    const t = targets.find((x) => x.name === name)!;
    const chunks = oversized((t.limit ?? LIMIT) * 4);
    const length = chunks.reduce((n, c) => n + c.length, 0);
    expect(await post(`${t.url}${t.path}`, chunks, length, t.headers)).toEqual(t.expected);
    expect(await get(`${t.url}${t.alive}`)).toBeLessThan(500);
  });
});

describe('a malformed body is named, never quoted', () => {
  it('gateway: 400 malformed_json without the body in the detail', async () => {
    const t = targets.find((x) => x.name === 'gateway')!;
    const canary = 'sk-canary-0123456789abcdef';
    const answer = await post(`${t.url}${t.path}`, [Buffer.from(`{"token": "${canary}", oops}`)]);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'malformed_json' });
    expect(JSON.stringify(answer.body)).not.toContain(canary.slice(0, 10));
  });
});
