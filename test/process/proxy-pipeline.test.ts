// The credential proxy's HTTP request path in-process, with real loopback
// targets (plain HTTP and HTTPS with a private CA), real Cedar and real TLS
// interception by the pod-local CA. The approval gate, injector and access
// sink are the pipeline's seams (their Verifier-backed implementations are
// tested against the real API in test/integration); here they are objects the
// test drives, so each step's effect on what reaches the target is exact.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as tcpConnect, type AddressInfo, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../base/log.ts';
import { issueCa, issueServing } from '../../base/tls/certs.ts';
import { CedarAccess } from '../../proxy/egress/cedar-access.ts';
import type {
  ApprovalGate,
  ApprovalOutcome,
  DataAccess,
  EgressBundle,
  EgressRule,
  HeldCall,
  Injection,
  Injector,
} from '../../contract/egress.ts';
import { InjectionError } from '../../contract/egress.ts';
import { startL7Proxy, type L7Proxy } from './fixtures/l7-proxy.ts';

const CANARY = 'canary-secret-7f3a9c';
const targetCa = issueCa(new Date(), 1, 'test target CA');
const targetCert = issueServing(
  targetCa,
  { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] },
  new Date(),
  1,
);

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers 401 to `Bearer <stale>` and echoes the rest; `/hang` never answers. */
function target(seen: Seen[], stale: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/hang') return;
      if (req.headers.authorization === `Bearer ${stale()}`) {
        res.writeHead(401).end('stale');
        return;
      }
      res
        .writeHead(200, { 'content-type': 'text/plain', 'x-target': 'yes' })
        .end(`ok ${req.method} ${req.url}`);
    });
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

class TestInjector implements Injector {
  version = 1;
  invalidations = 0;
  inject(rule: EgressRule): Promise<Injection> {
    if (rule.service === 'broken')
      return Promise.reject(new InjectionError(403, 'user_token_required', 'no user token'));
    return Promise.resolve({
      set: { authorization: `Bearer ${CANARY}-v${this.version}` },
      strip: ['authorization', 'cookie', 'x-api-key'],
    });
  }
  invalidate(): void {
    this.invalidations += 1;
    this.version += 1;
  }
}

class TestGate implements ApprovalGate {
  held: HeldCall[] = [];
  private pending: ((o: ApprovalOutcome) => void)[] = [];
  hold(call: HeldCall): Promise<ApprovalOutcome> {
    this.held.push(call);
    return new Promise((resolve) => this.pending.push(resolve));
  }
  decide(o: ApprovalOutcome): void {
    this.pending.shift()?.(o);
  }
  async waitHeld(n: number): Promise<void> {
    for (let i = 0; i < 200 && this.held.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  }
}

const CEDAR = `
@id("network")
permit(principal, action, resource);
@id("blocked-host")
forbid(principal, action, resource) when { resource.host == "blocked.test" };
@id("no-merge")
forbid(principal, action == Egress::Action::"merge", resource);
`;

function request(port: number, raw: string): Promise<string> {
  return new Promise((resolve) => {
    const s: Socket = tcpConnect(port, '127.0.0.1');
    let out = '';
    s.on('data', (c: Buffer) => (out += c.toString('latin1')));
    s.on('error', () => undefined);
    s.on('close', () => resolve(out));
    s.write(raw);
  });
}

describe('the credential proxy HTTP path', () => {
  const seen: Seen[] = [];
  const records: DataAccess[] = [];
  let injector: TestInjector;
  let gate: TestGate;
  let httpTarget: Server;
  let httpsTarget: Server;
  let httpPort = 0;
  let httpsPort = 0;
  let proxy: L7Proxy;
  let bundle: EgressBundle;
  /** The token the targets answer 401 to. */
  let stale = '';

  beforeAll(async () => {
    httpTarget = createHttpServer(target(seen, () => stale));
    httpsTarget = createHttpsServer(
      { key: targetCert.keyPem, cert: targetCert.certPem },
      target(seen, () => stale),
    );
    httpPort = await listen(httpTarget);
    httpsPort = await listen(httpsTarget);
    const rule = (destination: string, service = destination): EgressRule => ({
      destination,
      injectionMethod: 'sidecar',
      credentialRef: 'cred',
      approval: 'auto',
      service,
      source: 'agent',
    });
    bundle = {
      agentId: 'ns.agent',
      version: 'v1',
      cedar: CEDAR,
      mcpServers: [],
      rules: [rule('localhost'), rule('broken.localhost', 'broken')],
    };
    const rules = () => bundle.rules;
    injector = new TestInjector();
    gate = new TestGate();
    proxy = await startL7Proxy({
      access: new CedarAccess({ agentId: 'ns.agent', bundle: () => bundle, manifest: () => undefined }),
      approvals: gate,
      injector,
      sink: { record: (r) => records.push(r) },
      match: (host) => rules().find((r) => r.destination === host),
      upstream: { extraRoots: [targetCa.certPem], responseTimeoutMs: 500 },
      log: createLogger('proxy-test', { level: (process.env.TEST_LOG as 'info') ?? 'silent' }),
      intercept: (host) => rules().some((r) => r.destination === host),
    });
  });

  afterAll(async () => {
    await proxy.stop();
    httpTarget.close();
    httpsTarget.close();
  });

  beforeEach(() => {
    seen.length = 0;
    records.length = 0;
    stale = '';
    injector.version = 1;
  });

  const plain = (method: string, path: string, extra = '', body = '') =>
    request(
      proxy.port,
      `${method} ${path} HTTP/1.1\r\nHost: localhost:${httpPort}\r\nConnection: close\r\n${extra}` +
        `${body ? `Content-Length: ${body.length}\r\n` : ''}\r\n${body}`,
    );

  it('injects the credential, drops the agent’s own, and never shows it to the agent', async () => {
    const answer = await plain(
      'GET',
      '/repos?page=2',
      'Authorization: Bearer agent-made\r\nCookie: a=b\r\nX-Platform-Subject-Token: x.y.z\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(answer).toContain('ok GET /repos?page=2');
    expect(answer).not.toContain(CANARY);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${CANARY}-v1`);
    expect(seen[0]?.headers.cookie).toBeUndefined();
    expect(seen[0]?.headers['x-platform-subject-token']).toBeUndefined();
    expect(records[0]).toMatchObject({
      outcome: 'forwarded',
      status: 200,
      method: 'GET',
      action: 'read',
      path: '/repos',
      injectionMethod: 'sidecar',
    });
    expect(JSON.stringify(records)).not.toContain(CANARY);
  });

  it('terminates TLS for a routed host with the pod CA and originates verified TLS to the target', async () => {
    const socket = tcpConnect(proxy.port, '127.0.0.1');
    socket.write(`CONNECT localhost:${httpsPort} HTTP/1.1\r\nHost: localhost:${httpsPort}\r\n\r\n`);
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    const tls = tlsConnect({ socket, servername: 'localhost', ca: proxy.ca.certPem });
    tls.write(
      `GET /secure HTTP/1.1\r\nHost: localhost:${httpsPort}\r\nAuthorization: Bearer mine\r\nConnection: close\r\n\r\n`,
    );
    let out = '';
    tls.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((resolve) => tls.on('close', resolve));
    expect(out).toMatch(/^HTTP\/1.1 200/);
    expect(out).not.toContain(CANARY);
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${CANARY}-v1`);
    expect(records[0]).toMatchObject({ kind: 'https', outcome: 'forwarded' });
  });

  it('records the subagent a call names, in plain HTTP and inside intercepted TLS, and never forwards the header', async () => {
    const answer = await plain('GET', '/repos', 'X-Platform-Subagent: researcher\r\n');
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(seen[0]?.headers['x-platform-subagent']).toBeUndefined();
    expect(records[0]).toMatchObject({ outcome: 'forwarded', subagent: 'researcher' });
    const socket = tcpConnect(proxy.port, '127.0.0.1');
    socket.write(`CONNECT localhost:${httpsPort} HTTP/1.1\r\nHost: localhost:${httpsPort}\r\n\r\n`);
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    const tls = tlsConnect({ socket, servername: 'localhost', ca: proxy.ca.certPem });
    tls.write(
      `GET /secure HTTP/1.1\r\nHost: localhost:${httpsPort}\r\nX-Platform-Subagent: web writer/2\r\nConnection: close\r\n\r\n`,
    );
    let out = '';
    tls.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((resolve) => tls.on('close', resolve));
    expect(out).toMatch(/^HTTP\/1.1 200/);
    expect(seen[1]?.headers['x-platform-subagent']).toBeUndefined();
    expect(records[1]).toMatchObject({ kind: 'https', subagent: 'web writer/2' });
    await plain('GET', '/plain');
    expect(records[2]?.subagent).toBeUndefined();
  });

  it('refuses a malformed subagent name with 400 invalid_subagent and sends nothing', async () => {
    for (const bad of ['-dash', 'a,b', 'x'.repeat(254)]) {
      const answer = await plain('GET', '/repos', `X-Platform-Subagent: ${bad}\r\n`);
      expect(answer).toMatch(/^HTTP\/1.1 400/);
      expect(answer).toContain('"code":"invalid_subagent"');
    }
    const twice = await plain('GET', '/repos', 'X-Platform-Subagent: a\r\nX-Platform-Subagent: b\r\n');
    expect(twice).toMatch(/^HTTP\/1.1 400/);
    expect(seen).toHaveLength(0);
  });

  it('refuses a Host inside intercepted TLS that is not the host the tunnel was opened for', async () => {
    const socket = tcpConnect(proxy.port, '127.0.0.1');
    socket.write(`CONNECT localhost:${httpsPort} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    const tls = tlsConnect({ socket, servername: 'localhost', ca: proxy.ca.certPem });
    tls.write(`GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`);
    let out = '';
    tls.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((resolve) => tls.on('close', resolve));
    expect(out).toMatch(/^HTTP\/1.1 421/);
    expect(seen).toHaveLength(0);
  });

  it('holds a DELETE until an Owner approves: nothing reaches the target before', async () => {
    const answer = plain('DELETE', '/repos/1', 'X-Platform-Subagent: cleaner\r\n', 'x=1');
    await gate.waitHeld(1);
    expect(gate.held[0]).toMatchObject({
      action: 'delete',
      target: `DELETE http://localhost:${httpPort}/repos/1`,
      details: { subagent: 'cleaner' },
    });
    expect(seen).toHaveLength(0);
    gate.decide({ outcome: 'approved', approvalId: 'ns.approval-1' });
    expect(await answer).toMatch(/^HTTP\/1.1 200/);
    expect(seen).toMatchObject([{ method: 'DELETE', body: 'x=1' }]);
    expect(records[0]).toMatchObject({ outcome: 'forwarded', approvalId: 'ns.approval-1' });
  });

  it('a denied DELETE never reaches the target', async () => {
    gate.held.length = 0;
    const answer = plain('DELETE', '/repos/2');
    await gate.waitHeld(1);
    gate.decide({ outcome: 'denied', approvalId: 'ns.approval-2', reason: 'no' });
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1.1 403/);
    expect(text).toContain('"code":"approval_denied"');
    expect(text).toContain('ns.approval-2');
    expect(seen).toHaveLength(0);
    expect(records[0]).toMatchObject({ outcome: 'approval_denied' });
  });

  it('refuses what Cedar forbids before anything is sent', async () => {
    const text = await request(
      proxy.port,
      `GET http://blocked.test:${httpPort}/ HTTP/1.1\r\nHost: blocked.test\r\nConnection: close\r\n\r\n`,
    );
    expect(text).toMatch(/^HTTP\/1.1 403/);
    expect(text).toContain('egress_denied');
    expect(text).toContain('forbidden by blocked-host');
    expect(seen).toHaveLength(0);
  });

  it('after a 401 refreshes the credential once and retries', async () => {
    stale = `${CANARY}-v1`;
    const before = injector.invalidations;
    const answer = await plain('GET', '/again');
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(injector.invalidations).toBe(before + 1);
    expect(seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${CANARY}-v1`, `Bearer ${CANARY}-v2`]);
  });

  it('an injection refusal answers with its status and code, and sends nothing', async () => {
    const text = await request(
      proxy.port,
      `GET http://broken.localhost:${httpPort}/ HTTP/1.1\r\nHost: broken.localhost\r\nConnection: close\r\n\r\n`,
    );
    expect(text).toMatch(/^HTTP\/1.1 403/);
    expect(text).toContain('user_token_required');
    expect(seen).toHaveLength(0);
  });

  it('refuses request smuggling, oversized heads and bodies, and times out a hanging target', async () => {
    const smuggle = await request(
      proxy.port,
      `POST / HTTP/1.1\r\nHost: localhost:${httpPort}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    );
    expect(smuggle).toMatch(/^HTTP\/1.1 400/);
    const huge = await request(
      proxy.port,
      `GET / HTTP/1.1\r\nHost: localhost:${httpPort}\r\nX-Big: ${'a'.repeat(9000)}\r\n\r\n`,
    );
    expect(huge).toMatch(/^HTTP\/1.1 431/);
    expect(seen).toHaveLength(0);
    const big = plain('POST', '/upload', '', 'y'.repeat(2048));
    expect(await big).toMatch(/^HTTP\/1.1 413/);
    expect(seen).toHaveLength(0);
    const hang = await request(
      proxy.port,
      `GET /hang HTTP/1.1\r\nHost: 127.0.0.1:${httpPort}\r\nConnection: close\r\n\r\n`,
    );
    expect(hang).toMatch(/^HTTP\/1.1 504/);
  });
});

describe('a call that races the first read of the egress bundle', () => {
  it('is matched against the rules once they are known, never against none', async () => {
    const seen: Seen[] = [];
    const target = createHttpServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' });
      res.end('ok');
    });
    const port = await listen(target);
    let bundle: EgressBundle | undefined;
    let loaded!: () => void;
    // The first read arrives while the call is already past its start (here: inside the network check).
    const firstRead = new Promise<void>((resolve) => (loaded = resolve)).then(() => {
      bundle = {
        agentId: 'ns.agent',
        version: 'v1',
        cedar: 'permit(principal, action, resource);',
        mcpServers: [],
        rules: [
          {
            destination: 'localhost',
            injectionMethod: 'sidecar',
            credentialRef: 'c',
            approval: 'auto',
            service: 's',
            source: 'agent',
          },
        ],
      };
    });
    const proxy = await startL7Proxy({
      access: new CedarAccess({ agentId: 'ns.agent', bundle: () => bundle, manifest: () => undefined }),
      approvals: new TestGate(),
      injector: new TestInjector(),
      match: (host) => bundle?.rules.find((r) => r.destination === host),
      ready: () => firstRead,
      guard: {
        decide: async () => {
          loaded();
          await firstRead;
          return { allow: true };
        },
      },
    });
    setTimeout(() => loaded(), 50);
    const answer = await request(
      proxy.port,
      `GET /x HTTP/1.1\r\nHost: localhost:${port}\r\nAuthorization: Bearer agent-made\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${CANARY}-v1`]);
    await proxy.stop();
    target.close();
  });
});
