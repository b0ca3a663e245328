// The HTTPS shell and the Verifier client on loopback (no cluster needed):
// bad input gets a 400 (or 404/405/413/415) with a clear message, never a
// crash or a hang; notarization answers are cached per digest and bounded in time.
import { createServer as createHttpServer, type Server } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allow } from '../../webhooks/admission/review.ts';
import { startWebhookServer, type WebhookServer } from '../../webhooks/server.ts';
import { quietLogger } from '../../webhooks/testing/fixtures.ts';
import { issueCa, issueServing } from '../../base/tls/certs.ts';
import { httpNotary } from '../../webhooks/validate/notary.ts';
import { startFakeVerifier, type FakeVerifier } from './fake-verifier.ts';

const ca = issueCa(new Date(), 1);
const serving = issueServing(ca, { dnsNames: [], ipAddresses: ['127.0.0.1'] }, new Date(), 1);
let server: WebhookServer;
let seen = 0;

beforeAll(async () => {
  server = await startWebhookServer({
    host: '127.0.0.1',
    port: 0,
    certificate: serving,
    bodyLimitBytes: 64 * 1024,
    handlerTimeoutMs: 2000,
    log: quietLogger(),
    routes: {
      '/mutate': async (r) => {
        seen++;
        return allow(r.uid);
      },
      '/slow': () => new Promise(() => undefined),
    },
  });
});
afterAll(() => server.close());

function post(
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: 'POST',
        ca: ca.certPem,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const review = JSON.stringify({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'abc',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    operation: 'CREATE',
    object: {},
  },
});

describe('the HTTPS admission server', () => {
  it('answers a well-formed review with the same uid (the apiserver adds ?timeout=)', async () => {
    const res = await post('/mutate?timeout=5s', review);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'abc', allowed: true },
    });
  });

  it.each([
    ['malformed JSON', '{"apiVersion":', 400, /malformed JSON/],
    [
      'a wrong apiVersion',
      review.replace('admission.k8s.io/v1', 'admission.k8s.io/v1beta1'),
      400,
      /expected apiVersion admission.k8s.io\/v1/,
    ],
    [
      'a wrong kind',
      review.replace('"AdmissionReview"', '"ConversionReview"'),
      400,
      /expected kind AdmissionReview/,
    ],
  ])('refuses %s with 400 and a clear message', async (_what, body, status, detail) => {
    const res = await post('/mutate', body);
    expect(res.status).toBe(status);
    expect((JSON.parse(res.body) as { detail: string }).detail).toMatch(detail);
  });

  it('refuses a huge body with 413 without reading it all', async () => {
    const before = seen;
    const res = await post('/mutate', Buffer.alloc(256 * 1024, 'x'));
    expect(res.status).toBe(413);
    expect(res.body).toContain('exceeds the limit of 65536 bytes');
    expect(seen).toBe(before);
  });

  it('refuses unknown paths, other methods and other content types', async () => {
    expect((await post('/nope', review)).status).toBe(404);
    expect((await post('/mutate', review, { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('answers 500 instead of hanging when a handler never returns', async () => {
    const res = await post('/slow', review);
    expect(res.status).toBe(500);
    expect(res.body).toContain('did not answer within 2000 ms');
  });

  it('still serves after all of the above', async () => {
    expect((await post('/mutate', review)).status).toBe(200);
  });
});

describe('the Verifier registry check', () => {
  let verifier: FakeVerifier;
  let silent: Server;
  const notarized = `sha256:${'1'.repeat(64)}`;
  const unknown = `sha256:${'2'.repeat(64)}`;
  beforeAll(async () => {
    verifier = await startFakeVerifier([notarized]);
    silent = createHttpServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await verifier.close();
    silent.closeAllConnections();
    silent.close();
  });

  it('asks once per digest while the answer is cached', async () => {
    let nowMs = 0;
    const notary = httpNotary({
      verifierUrl: verifier.url,
      timeoutMs: 1000,
      cacheTtlMs: 60_000,
      negativeCacheTtlMs: 1000,
      now: () => nowMs,
    });
    const answers = await Promise.all([
      notary.check(notarized),
      notary.check(notarized),
      notary.check(unknown),
    ]);
    expect(answers).toEqual([{ notarized: true }, { notarized: true }, { notarized: false }]);
    await notary.check(notarized);
    nowMs = 5000; // the negative answer expired, the positive one did not
    await notary.check(notarized);
    await notary.check(unknown);
    expect(verifier.requests.filter((d) => d === notarized)).toHaveLength(1);
    expect(verifier.requests.filter((d) => d === unknown)).toHaveLength(2);
  });

  it('gives up after the timeout with a clear error, and does not cache it', async () => {
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const notary = httpNotary({
      verifierUrl: url,
      timeoutMs: 200,
      cacheTtlMs: 60_000,
      negativeCacheTtlMs: 60_000,
    });
    expect(await notary.check(notarized)).toEqual({ error: 'Verifier did not answer within 200 ms' });
  });
});
