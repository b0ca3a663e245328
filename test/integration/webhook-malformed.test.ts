// The admission port from a hostile client's side (issue 13, finding 8), on
// loopback with the real handlers: every malformed review is a 4xx
// `{detail, code}` (never a 500), a client that hangs up is counted as
// `client_closed` and not logged as an error, and closing the server lets an
// in-flight review finish.
import { request } from 'node:https';
import { connect } from 'node:tls';
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../base/log.ts';
import { allow, type AdmissionResponse } from '../../webhooks/admission/review.ts';
import { WebhookMetrics } from '../../webhooks/metrics.ts';
import { handleMutate } from '../../webhooks/mutate/handler.ts';
const CLIENT_CLOSED = 'client_closed';
import { startWebhookServer, type WebhookServer } from '../../webhooks/server.ts';
import {
  fakeCluster,
  quietLogger,
  recordingEvents,
  testMutateOptions,
} from '../../webhooks/testing/fixtures.ts';
import { issueCa, issueServing } from '../../base/tls/certs.ts';
import { handleValidate } from '../../webhooks/validate/handler.ts';
import { handleValidatePolicy } from '../../webhooks/validate/policy.ts';
import { eventually } from './harness.ts';

const ca = issueCa(new Date(), 1);
const serving = issueServing(ca, { dnsNames: [], ipAddresses: ['127.0.0.1'] }, new Date(), 1);
const metrics = new WebhookMetrics(new Registry());
const logLines: { level: string; msg: string }[] = [];
const log = createLogger('webhook-malformed', {
  level: 'debug',
  destination: new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  }),
});
/** `/held` answers when the test releases it; `nextHeld()` resolves to that release once a review arrives. */
let releaseHeld: (r: AdmissionResponse) => void = () => undefined;
let heldArrived: () => void = () => undefined;
const nextHeld = (): Promise<(r: AdmissionResponse) => void> =>
  new Promise((resolve) => (heldArrived = () => resolve(releaseHeld)));
let server: WebhookServer;

beforeAll(async () => {
  const mutateDeps = {
    options: testMutateOptions(),
    cluster: fakeCluster({ 'platform.computing/enabled': 'true' }),
    events: recordingEvents(),
    log: quietLogger(),
  };
  server = await startWebhookServer({
    port: 0, // the default address: loopback
    certificate: serving,
    bodyLimitBytes: 64 * 1024,
    handlerTimeoutMs: 5000,
    log,
    metrics,
    routes: {
      '/mutate': (r) => handleMutate(r, mutateDeps),
      '/validate': (r) =>
        handleValidate(r, {
          strictNotarization: true,
          notary: { check: async () => ({ notarized: true }) },
          log: quietLogger(),
        }),
      '/validate-policy': (r) => handleValidatePolicy(r, { policies: async () => [], log: quietLogger() }),
      '/held': () =>
        new Promise((resolve) => {
          releaseHeld = resolve;
          heldArrived();
        }),
    },
  });
});
afterAll(() => server.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(path: string, body: string | Buffer, headers: Record<string, string> = {}, method = 'POST') {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method,
        ca: ca.certPem,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const podRequest = (over: Record<string, unknown> = {}, object: unknown = securedPod()) => ({
  uid: 'u1',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  operation: 'CREATE',
  namespace: 'team',
  object,
  ...over,
});
function securedPod(meta: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): unknown {
  return {
    metadata: { name: 'p', labels: { 'platform.io/secured': 'true' }, ...meta },
    spec: { containers: [{ name: 'agent', image: 'registry.example/agent:1' }], ...spec },
  };
}
const review = (request: unknown, over: Record<string, unknown> = {}): string =>
  JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request, ...over });
const policyRequest = (spec: unknown) =>
  podRequest(
    {
      kind: { group: 'platform.io', version: 'v1alpha1', kind: 'AuditorPolicy' },
      resource: { group: 'platform.io', version: 'v1alpha1', resource: 'auditorpolicies' },
    },
    { apiVersion: 'platform.io/v1alpha1', kind: 'AuditorPolicy', metadata: { name: 'p' }, spec },
  );

describe('malformed AdmissionReviews', () => {
  it('answers a well-formed review of a secured pod with an injection patch', async () => {
    const res = await call('/mutate', review(podRequest()));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).response).toMatchObject({ uid: 'u1', allowed: true, patchType: 'JSONPatch' });
  });

  const CODE: Record<number, string> = { 400: 'invalid_review', 413: 'body_too_large' };
  interface BadReview {
    what: string;
    path: string;
    body: string;
    detail: RegExp;
    status: number;
  }
  const bad = (what: string, path: string, body: string, detail: RegExp): BadReview => ({
    what,
    path,
    body,
    detail,
    status: 400,
  });
  const tooLarge = (what: string, path: string, body: string, detail: RegExp): BadReview => ({
    ...bad(what, path, body, detail),
    status: 413,
  });
  it.each([
    bad('not JSON', '/mutate', '{"apiVersion":', /^malformed JSON/),
    bad('an empty body', '/mutate', '', /^malformed JSON/),
    bad('a JSON array', '/mutate', '[1, 2]', /expected an AdmissionReview object/),
    bad('a JSON string', '/mutate', '"review"', /expected an AdmissionReview object/),
    bad('no request', '/mutate', review(undefined), /has no request/),
    bad('no uid', '/mutate', review(podRequest({ uid: undefined })), /request.uid is missing/),
    bad(
      'a CREATE without its object',
      '/mutate',
      review(podRequest({ object: undefined })),
      /request.object:/,
    ),
    bad('a wrong apiVersion', '/validate', review(podRequest(), { apiVersion: 'v1' }), /expected apiVersion/),
    bad('a wrong kind', '/validate', review(podRequest(), { kind: 'Pod' }), /expected kind/),
    bad(
      'a numeric annotation value',
      '/mutate',
      review(podRequest({}, securedPod({ annotations: { 'platform.computing/audit-mode': 5 } }))),
      /annotations\["platform.computing\/audit-mode"\]: expected a string, got 5/,
    ),
    bad(
      'an object annotation value',
      '/mutate',
      review(podRequest({}, securedPod({ annotations: { 'platform.computing/auditors': { a: 1 } } }))),
      /annotations\["platform.computing\/auditors"\]: expected a string, got object/,
    ),
    bad(
      'a boolean label',
      '/mutate',
      review(podRequest({}, securedPod({ labels: { 'platform.io/secured': true } }))),
      /labels\["platform.io\/secured"\]: expected a string, got true/,
    ),
    bad(
      'containers not an array',
      '/mutate',
      review(podRequest({}, securedPod({}, { containers: { name: 'agent' } }))),
      /request.object.spec.containers: expected an array, got object/,
    ),
    bad(
      'a container without a name',
      '/validate',
      review(podRequest({}, securedPod({}, { containers: [{ image: 'x' }] }))),
      /containers\[0\].name: expected a string/,
    ),
    bad(
      'a policy setting that is null',
      '/validate-policy',
      review(policyRequest({ scope: 'workspace', scopeId: 'w', detection: { c: { s: null } } })),
      /request.object.spec.detection/,
    ),
    tooLarge('a huge body', '/mutate', Buffer.alloc(128 * 1024, ' ').toString(), /exceeds the limit/),
  ])('$what ($path)', async ({ path, body, detail, status }) => {
    const res = await call(path, body);
    expect(res.status).toBe(status);
    const answer = JSON.parse(res.body) as { detail: string; code: string };
    expect(answer).toEqual({ detail: expect.stringMatching(detail), code: CODE[status] });
  });

  it('refuses another content type with 415, another method with 405 and Allow, an unknown path with 404', async () => {
    const text = await call('/mutate', review(podRequest()), { 'content-type': 'text/plain' });
    expect([text.status, JSON.parse(text.body).code]).toEqual([415, 'unsupported_media_type']);
    const get = await call('/mutate', '', {}, 'GET');
    expect([get.status, JSON.parse(get.body).code, get.headers.allow]).toEqual([
      405,
      'method_not_allowed',
      'POST',
    ]);
    const none = await call('/nope', review(podRequest()));
    expect([none.status, JSON.parse(none.body).code]).toEqual([404, 'not_found']);
  });

  it('answered none of them with a 500 and logged no error', async () => {
    const codes = (await metrics.requestSeconds.get()).values
      .filter((v) => v.metricName?.endsWith('_count') && v.value > 0)
      .map((v) => v.labels.code);
    expect(codes).not.toContain('500');
    expect(logLines.filter((l) => l.level === 'error')).toEqual([]);
  });
});

/** Requests counted so far for `path`, by outcome. */
async function outcomes(path: string): Promise<Record<string, number>> {
  const counts = (await metrics.requestSeconds.get()).values.filter(
    (v) => v.metricName?.endsWith('_count') && v.labels.path === path,
  );
  return Object.fromEntries(counts.map((v) => [String(v.labels.code), v.value]));
}

/** A raw TLS connection that sends `head` and `body`, then hangs up without reading an answer. */
function hangUp(head: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: server.port, ca: ca.certPem }, () => {
      socket.write(head + body, () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}
const headOf = (path: string, length: number): string =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('a client that hangs up', () => {
  it('mid-body is counted as client_closed, not as a 500, and not logged as an error', async () => {
    const errorsBefore = logLines.filter((l) => l.level === 'error').length;
    await hangUp(headOf('/validate', 5000), '{"apiVersion":"admission.k8s.io/v1",');
    const counted = await eventually(async () => {
      const o = await outcomes('/validate');
      return o[CLIENT_CLOSED] || o['500'] ? o : undefined;
    }, 'the abandoned request to be counted');
    expect(counted[CLIENT_CLOSED]).toBe(1);
    expect(counted['500']).toBeUndefined();
    expect(logLines.filter((l) => l.level === 'error')).toHaveLength(errorsBefore);
  });

  it('while its review is being decided is counted as client_closed, and its late answer is dropped', async () => {
    const held = nextHeld();
    const body = review(podRequest());
    await hangUp(headOf('/held', Buffer.byteLength(body)), body);
    const release = await held;
    const counted = await eventually(async () => {
      const o = await outcomes('/held');
      return Object.keys(o).length ? o : undefined;
    }, 'the abandoned request to be counted');
    expect(counted).toEqual({ [CLIENT_CLOSED]: 1 });
    release(allow('u1')); // the decision comes after the client left: nothing to write, nothing counted twice
    expect(await outcomes('/held')).toEqual({ [CLIENT_CLOSED]: 1 });
    expect(logLines.filter((l) => l.level === 'error')).toEqual([]);
  });
});

describe('closing the server', () => {
  it('answers a review in flight before it stops', async () => {
    const held = nextHeld();
    const answer = call('/held', review(podRequest()));
    const release = await held;
    const closed = server.close();
    release(allow('u1'));
    const res = await answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).response).toEqual({ uid: 'u1', allowed: true });
    await closed;
  });
});
