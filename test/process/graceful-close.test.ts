// Every server stops the same way (base/close.ts): a request in flight when
// the stop begins is answered in full, while a new connection is refused at
// once. Each server's slow request waits on a gate the test opens only after
// calling close, so the request is in flight at the stop by construction.
import { createServer as createHttpServer } from 'node:http';
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { connect } from 'node:net';
import { Gauge, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { ApiMetrics } from '../../api/http/metrics.ts';
import { startAuditor } from '../../auditors/sdk/serve.ts';
import { closeGracefully } from '../../base/close.ts';
import { sendJson, startHttpService } from '../../base/http-service.ts';
import { listen } from '../../base/listen.ts';
import { createLogger } from '../../base/log.ts';
import { startOpsServer } from '../../base/ops-server.ts';
import { startGatewayServer } from '../../gateway/server.ts';
import { allow } from '../../webhooks/admission/review.ts';
import { startWebhookServer } from '../../webhooks/server.ts';
import { issueCa, issueServing } from '../../base/tls/certs.ts';
import { startReceiver } from './fixtures/loopback.ts';
import { createTestAuditor } from './fixtures/test-auditors.ts';

const log = createLogger('graceful-close-test', { level: 'silent' });
const ca = issueCa(new Date(), 1);
/** Long enough never to be what ends a test: the in-flight answer must come from the server. */
const GRACE_MS = 30_000;
/** Never reached: the slow request does not use it. */
const unused = {} as never;

/** Holds the slow request until the test opens it; `entered` settles once the server is waiting. */
class Gate {
  private open!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.open = resolve));
  private enter!: () => void;
  readonly entered = new Promise<void>((resolve) => (this.enter = resolve));
  async hold(): Promise<void> {
    this.enter();
    await this.opened;
  }
  release(): void {
    this.open();
  }
}

/** A registry whose scrape waits at the gate. */
function slowRegistry(gate: Gate): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'graceful_close_probe',
    help: 'Waits at the test gate',
    registers: [registry],
    async collect() {
      await gate.hold();
      this.set(1);
    },
  });
  return registry;
}

interface Slow {
  port: number;
  https?: boolean;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  close(): Promise<void>;
  /** What the in-flight request is answered. */
  expected: { status: number; body: (text: string) => void };
}

type Starter = (gate: Gate) => Promise<Slow>;

const review = {
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'in-flight',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    operation: 'CREATE',
    object: {},
  },
};

const metricsAnswer = { status: 200, body: (t: string) => expect(t).toContain('graceful_close_probe 1') };

const servers: Record<string, Starter> = {
  'API app': async (gate) => {
    // Its /metrics is on the ops server (below): the slow step here is the caller's authentication.
    const registry = new Registry();
    const slowCheck = { name: 'slow', authenticate: async () => (await gate.hold(), { reject: 'slow' }) };
    const app = createApp({
      deps: unused,
      authenticators: [slowCheck],
      log,
      metrics: new ApiMetrics(registry),
      registry,
      bodyLimitBytes: 1024,
    });
    const server = createHttpServer(app.callback());
    const port = await listen(server, 0, '127.0.0.1');
    return {
      port,
      method: 'GET',
      path: '/v1/api-keys',
      headers: { authorization: 'Bearer in-flight' },
      close: () => closeGracefully(server, GRACE_MS),
      expected: {
        status: 401,
        body: (t) => expect(JSON.parse(t)).toMatchObject({ detail: expect.any(String) }),
      },
    };
  },
  'ops server': async (gate) => {
    const ops = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      registry: new Registry(),
      log,
      readiness: { slow: async () => (await gate.hold(), '') },
    });
    return {
      port: ops.port,
      method: 'GET',
      path: '/readyz',
      close: () => ops.close(GRACE_MS),
      expected: { status: 200, body: (t) => expect(JSON.parse(t)).toEqual({ status: 'ok', failures: [] }) },
    };
  },
  'HTTP service (model, agent)': async (gate) => {
    const service = await startHttpService({
      host: '127.0.0.1',
      port: 0,
      registry: new Registry(),
      log,
      handle: async (_req, res) => {
        await gate.hold();
        sendJson(res, 200, { answered: true });
      },
      routeOf: () => 'slow',
      readiness: () => '',
      internalError: (res) => sendJson(res, 500, {}),
    });
    return {
      port: service.port,
      method: 'POST',
      path: '/v1/ask',
      body: {},
      close: () => service.close(GRACE_MS),
      expected: { status: 200, body: (t) => expect(JSON.parse(t)).toEqual({ answered: true }) },
    };
  },
  'webhook server': async (gate) => {
    const webhook = await startWebhookServer({
      host: '127.0.0.1',
      port: 0,
      certificate: issueServing(ca, { dnsNames: [], ipAddresses: ['127.0.0.1'] }, new Date(), 1),
      routes: { '/mutate': async (request) => (await gate.hold(), allow(request.uid)) },
      bodyLimitBytes: 65536,
      handlerTimeoutMs: GRACE_MS,
      closeGraceMs: GRACE_MS,
      log,
    });
    return {
      port: webhook.port,
      https: true,
      method: 'POST',
      path: '/mutate',
      body: review,
      close: () => webhook.close(),
      expected: {
        status: 200,
        body: (t) => expect(JSON.parse(t)).toMatchObject({ response: { uid: 'in-flight', allowed: true } }),
      },
    };
  },
  gateway: async (gate) => {
    const gateway = await startGatewayServer(
      {
        pipeline: unused,
        registry: unused,
        forwarder: unused,
        metrics: slowRegistry(gate),
        log,
        maxBodyBytes: 1024,
        readiness: () => '',
      },
      0,
      '127.0.0.1',
    );
    const port = (gateway.address() as { port: number }).port;
    return {
      port,
      method: 'GET',
      path: '/metrics',
      close: () => closeGracefully(gateway, GRACE_MS),
      expected: metricsAnswer,
    };
  },
  'auditor SDK server': async (gate) => {
    const receiver = await startReceiver();
    const definition = createTestAuditor();
    const auditor = await startAuditor(
      { ...definition, audit: async () => (await gate.hold(), []) },
      {
        log,
        env: {
          PLATFORM_GATEWAY_URL: receiver.url,
          TEE_PROVIDER: 'MOCK',
          PORT: '0',
          PLATFORM_AUDITOR_HOST: '127.0.0.1',
        },
      },
    );
    await auditor.loaded;
    return {
      port: auditor.port,
      method: 'POST',
      path: '/claims',
      body: { data: { input: 'slow' }, phase: 'request' },
      close: async () => {
        await auditor.close();
        await receiver.close();
      },
      expected: {
        status: 200,
        body: (t) => expect(JSON.parse(t)).toMatchObject({ status: 'success', claims: [] }),
      },
    };
  },
};

interface Answer {
  status: number;
  text: string;
}

/** Sends the slow request over a keep-alive connection, as a real client would. */
function send(s: Slow): Promise<Answer> {
  const options = {
    host: '127.0.0.1',
    port: s.port,
    path: s.path,
    method: s.method,
    headers: { ...s.headers, ...(s.body === undefined ? {} : { 'content-type': 'application/json' }) },
  };
  return new Promise((resolve, reject) => {
    const onAnswer = (res: IncomingMessage): void => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    };
    const req = s.https
      ? httpsRequest({ ...options, ca: ca.certPem, agent: new HttpsAgent({ keepAlive: true }) }, onAnswer)
      : httpRequest({ ...options, agent: new HttpAgent({ keepAlive: true }) }, onAnswer);
    req.on('error', reject);
    req.end(s.body === undefined ? undefined : JSON.stringify(s.body));
  });
}

/** The error code of a new TCP connection, or 'connected'. */
function newConnection(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? String(err)));
  });
}

describe('every server drains on close', () => {
  it.each(Object.keys(servers))(
    '%s: answers the request in flight, refuses new connections',
    async (name) => {
      const gate = new Gate();
      const server = await servers[name]!(gate);
      const answer = send(server);
      await gate.entered;
      const closed = server.close();
      expect(await newConnection(server.port)).toBe('ECONNREFUSED');
      gate.release();
      const { status, text } = await answer;
      expect(status).toBe(server.expected.status);
      server.expected.body(text);
      await closed;
    },
  );
});
