// The MCP gateway against two real MCP servers on loopback reached over mTLS
// with the agent's X.509-SVID (one answering JSON, one SSE): their tools
// listed under prefixed names with their annotations, a read-only call
// forwarded, a destructive call held until the approval gate decides (the
// server sees nothing before, and nothing when denied), an access denial,
// external clients without a token refused, bad JSON-RPC answered. The
// egress seams (access, approval, record) are test doubles: the lead's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueTrustDomainCa, issueX509Svid } from '../../base/identity/x509-svid.ts';
import { createLogger } from '../../base/log.ts';
import {
  HIGH_RISK_ACTIONS,
  type AccessAnswer,
  type AccessQuestion,
  type AccessSink,
  type ApprovalGate,
  type ApprovalOutcome,
  type DataAccess,
  type EgressAccess,
  type HeldCall,
  type McpServerRef,
} from '../../contract/egress.ts';
import { startMcpGateway, type McpGateway, type McpGatewayOptions } from '../../proxy/mcp-gateway/server.ts';
import { startMcpTlsServer, type McpTlsServer } from './fixtures/mcp-tls-server.ts';

const log = createLogger('mcp-gateway-test', { level: 'silent' });
const now = new Date();
const ca = issueTrustDomainCa('example.test', now, 86_400_000);
const svid = (path: string): ReturnType<typeof issueX509Svid> =>
  issueX509Svid({ spiffeId: `spiffe://example.test/${path}`, ttlSeconds: 3600, ca });

/** Access as a table: hosts:ports denied; high-risk actions need approval. */
class TableAccess implements EgressAccess {
  readonly denied = new Set<string>();
  readonly asked: AccessQuestion[] = [];
  decide(q: AccessQuestion): AccessAnswer {
    this.asked.push(q);
    return this.denied.has(`${q.host}:${q.port}`)
      ? { allow: false, reason: 'network domain denies it' }
      : { allow: true };
  }
  needsApproval(q: AccessQuestion): boolean {
    return HIGH_RISK_ACTIONS.includes(q.action);
  }
}

/** An approval gate the test decides: each hold waits until `decide` is called. */
class TestGate implements ApprovalGate {
  private waiting: ((call: HeldCall) => void) | undefined;
  private decideHeld: ((o: ApprovalOutcome) => void) | undefined;
  hold(call: HeldCall): Promise<ApprovalOutcome> {
    this.waiting?.(call);
    return new Promise((resolve) => (this.decideHeld = resolve));
  }
  /** Resolves with the next call held. */
  nextHold(): Promise<HeldCall> {
    return new Promise((resolve) => (this.waiting = resolve));
  }
  decide(o: ApprovalOutcome): void {
    this.decideHeld?.(o);
  }
}

class ListSink implements AccessSink {
  readonly records: DataAccess[] = [];
  record(a: DataAccess): void {
    this.records.push(a);
  }
}

/** The fields of the gateway's answers the tests look at. */
interface Answer {
  result: { tools: { name: string; annotations?: unknown }[]; content: { type: string; text: string }[] };
  error: { code: number; message: string; data?: { code?: string } };
  code?: string;
  status?: string;
  degraded?: string[];
}

const SETTINGS: McpGatewayOptions['settings'] = {
  discoveryInterval: 3_600_000,
  mtlsEnabled: true,
  callTimeout: 10_000,
  staleAfter: 300_000,
  maxBodyBytes: 65_536,
  maxBatch: 4,
};

let dir: string;
let alpha: McpTlsServer;
let beta: McpTlsServer;
let servers: McpServerRef[];
let gateway: McpGateway;
const access = new TableAccess();
const gate = new TestGate();
const sink = new ListSink();

async function rpc(
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Answer; headers: Headers }> {
  const res = await fetch(`http://127.0.0.1:${gateway.port}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const call = (
  id: number,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ status: number; body: Answer }> =>
  rpc({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-gateway-'));
  const agent = svid('agent/ns.a');
  writeFileSync(join(dir, 'svid.pem'), agent.certPem);
  writeFileSync(join(dir, 'svid.key'), agent.keyPem);
  writeFileSync(join(dir, 'bundle.pem'), ca.certPem);
  alpha = await startMcpTlsServer({
    name: 'alpha',
    identity: svid('mcp/alpha'),
    bundlePem: ca.certPem,
    tools: [
      { name: 'lookup', annotations: { readOnlyHint: true } },
      { name: 'erase', annotations: { destructiveHint: true } },
    ],
  });
  beta = await startMcpTlsServer({
    name: 'beta',
    identity: svid('mcp/beta'),
    bundlePem: ca.certPem,
    sse: true,
    tools: [
      { name: 'append', annotations: { readOnlyHint: false, destructiveHint: false } },
      { name: 'mystery' },
    ],
  });
  servers = [
    { name: 'alpha', url: alpha.url },
    { name: 'beta', url: beta.url },
  ];
  gateway = await startMcpGateway({
    host: '127.0.0.1',
    port: 0,
    servers: () => servers,
    access,
    approvals: gate,
    sink,
    log,
    settings: { ...SETTINGS, svidDir: dir },
    // A request saying so stands for a peer outside the pod.
    isLoopback: (req) => req.headers['x-test-peer'] !== 'external',
  });
  await gateway.discovery.refresh();
});

afterAll(async () => {
  await gateway?.stop(100);
  await Promise.all([alpha?.close(), beta?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('the MCP gateway over mTLS', () => {
  it('lists the tools of both servers under <server>__<tool>, keeping their annotations', async () => {
    const r = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(r.status).toBe(200);
    const tools = r.body.result.tools;
    expect(tools.map((t) => t.name).sort()).toEqual([
      'alpha__erase',
      'alpha__lookup',
      'beta__append',
      'beta__mystery',
    ]);
    expect(tools.find((t) => t.name === 'alpha__lookup')?.annotations).toEqual({ readOnlyHint: true });
  });

  it('forwards a read-only call at once and records it', async () => {
    const r = await call(2, 'alpha__lookup', { q: 'x' });
    expect(r.body.result.content).toEqual([{ type: 'text', text: 'alpha:lookup done' }]);
    expect(alpha.calls).toEqual(['lookup {"q":"x"}']);
    const q = access.asked.at(-1);
    expect(q).toMatchObject({ host: '127.0.0.1', action: 'read', method: 'tools/call', user: '' });
    expect(sink.records.at(-1)).toMatchObject({
      kind: 'mcp',
      method: 'tools/call',
      action: 'read',
      outcome: 'forwarded',
    });
  });

  it('records the subagent a call names, never sends its header to the server, and refuses a malformed one', async () => {
    const sent = alpha.headerNames.length;
    const named = await rpc(
      { jsonrpc: '2.0', id: 20, method: 'tools/call', params: { name: 'alpha__lookup', arguments: {} } },
      { 'x-platform-subagent': 'researcher' },
    );
    expect(named.body.result).toBeDefined();
    expect(sink.records.at(-1)).toMatchObject({ outcome: 'forwarded', subagent: 'researcher' });
    const upstream = alpha.headerNames.slice(sent).flat();
    expect(upstream.length).toBeGreaterThan(0);
    expect(upstream).not.toContain('x-platform-subagent');
    const recorded = sink.records.length;
    const bad = await rpc(
      { jsonrpc: '2.0', id: 21, method: 'tools/call', params: { name: 'alpha__lookup', arguments: {} } },
      { 'x-platform-subagent': 'a,b' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_subagent' });
    expect(sink.records.length).toBe(recorded);
  });

  it('holds a destructive call until the Owner approves: the server sees nothing before', async () => {
    const held = gate.nextHold();
    const answer = rpc(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'alpha__erase', arguments: { id: 7 } } },
      { 'x-platform-subagent': 'cleaner' },
    );
    expect(await held).toMatchObject({
      action: 'delete',
      details: { server: 'alpha', tool: 'erase', subagent: 'cleaner' },
    });
    expect(alpha.calls).not.toContain('erase {"id":7}');
    gate.decide({ outcome: 'approved', approvalId: 'apr-1' });
    expect((await answer).body.result.content[0]?.text).toBe('alpha:erase done');
    expect(alpha.calls).toContain('erase {"id":7}');
    expect(sink.records.at(-1)).toMatchObject({
      outcome: 'forwarded',
      approvalId: 'apr-1',
      action: 'delete',
      subagent: 'cleaner',
    });
  });

  it('never sends a denied call, over an SSE-answering server too', async () => {
    const held = gate.nextHold();
    const answer = call(4, 'beta__mystery');
    // No annotations: the MCP defaults make it destructive.
    expect((await held).action).toBe('delete');
    gate.decide({ outcome: 'denied', approvalId: 'apr-2', reason: 'denied by owner@example.com' });
    const r = await answer;
    expect(r.body.error).toMatchObject({ code: -32001, data: { code: 'approval_denied' } });
    expect(beta.calls).toEqual([]);
    expect(sink.records.at(-1)).toMatchObject({ outcome: 'approval_denied', approvalId: 'apr-2' });
  });

  it('forwards an approved write to the SSE-answering server', async () => {
    const held = gate.nextHold();
    const answer = call(5, 'beta__append', { line: 'a' });
    expect((await held).action).toBe('write');
    gate.decide({ outcome: 'approved', approvalId: 'apr-3' });
    expect((await answer).body.result.content[0]?.text).toBe('beta:append done');
    expect(beta.calls).toEqual(['append {"line":"a"}']);
  });

  it('answers an access denial with an error; the server sees nothing', async () => {
    const port = new URL(alpha.url).port;
    access.denied.add(`127.0.0.1:${port}`);
    try {
      const before = alpha.calls.length;
      const r = await call(6, 'alpha__lookup');
      expect(r.body.error).toMatchObject({ code: -32001, data: { code: 'access_denied' } });
      expect(alpha.calls.length).toBe(before);
      expect(sink.records.at(-1)).toMatchObject({ outcome: 'denied', reason: 'network domain denies it' });
    } finally {
      access.denied.clear();
    }
  });
});

describe('clients and bad input', () => {
  it('refuses a client outside the pod without a token (401 with a challenge)', async () => {
    const r = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'x-test-peer': 'external' });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('unauthenticated');
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('answers bad JSON-RPC with errors, never the call', async () => {
    expect((await rpc('{not json')).body.error.code).toBe(-32700);
    expect((await rpc({ jsonrpc: '1.0', id: 1, method: 'ping' })).body.error.code).toBe(-32600);
    expect((await rpc({ jsonrpc: '2.0', id: 1, method: 'resources/list' })).body.error.code).toBe(-32601);
    expect((await call(9, 'nobody__nothing')).body.error.code).toBe(-32602);
    const tooMany = Array.from({ length: 5 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
    expect((await rpc(tooMany)).body.error.message).toMatch(/at most 4/);
    const batch = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      7,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(batch.body as unknown).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'a JSON-RPC message is an object' } },
    ]);
    expect((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  });
});

describe('a server the gateway may not reach', () => {
  it('refuses plain http while mTLS is on, and reports it in /readyz', async () => {
    servers.push({ name: 'plain', url: 'http://127.0.0.1:9/mcp' });
    try {
      await gateway.discovery.refresh();
      const ready = (await (await fetch(`http://127.0.0.1:${gateway.port}/readyz`)).json()) as Answer;
      expect(ready.status).toBe('ok');
      expect(ready.degraded).toEqual([
        'plain: the server URL is plain http, and MCP_GATEWAY_MTLS_ENABLED requires https with mTLS',
      ]);
      const tools = (await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).body.result.tools;
      expect(tools.map((t) => t.name)).toHaveLength(4);
    } finally {
      servers.pop();
    }
  });
});

describe('a server outside the agent’s trust domain', () => {
  it('is refused: its certificate is not issued by the bundle', async () => {
    const other = issueTrustDomainCa('elsewhere.test', now, 86_400_000);
    const stranger = await startMcpTlsServer({
      name: 'stranger',
      identity: issueX509Svid({ spiffeId: 'spiffe://elsewhere.test/mcp/x', ttlSeconds: 3600, ca: other }),
      bundlePem: ca.certPem,
      tools: [{ name: 'lookup', annotations: { readOnlyHint: true } }],
    });
    servers.push({ name: 'stranger', url: stranger.url });
    try {
      await gateway.discovery.refresh();
      const status = gateway.discovery.status().find((s) => s.name === 'stranger');
      expect(status?.error).toMatch(/could not be reached/);
      expect(status?.tools).toBe(0);
      expect(stranger.calls).toEqual([]);
    } finally {
      servers.pop();
      await stranger.close();
    }
  });
});

describe('an external client with a token of the OAuth issuer', () => {
  const resourceUrl = 'https://agent.example.com/mcp';
  let issuerServer: Server;
  let issuer: string;
  let external: McpGateway;
  let sign: (claims: { aud: string }) => Promise<string>;

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    issuerServer = createServer((req, res) => {
      const doc =
        req.url === '/.well-known/oauth-authorization-server'
          ? { issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: `${issuer}/token` }
          : req.url === '/jwks'
            ? { keys: [jwk] }
            : undefined;
      res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(doc ?? {}));
    });
    await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    sign = ({ aud }) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(issuer)
        .setSubject('alice@example.com')
        .setAudience(aud)
        .setExpirationTime('5m')
        .sign(privateKey);
    external = await startMcpGateway({
      host: '127.0.0.1',
      port: 0,
      servers: () => servers,
      access,
      approvals: gate,
      sink,
      log,
      settings: { ...SETTINGS, svidDir: dir, oauthIssuer: issuer, resourceUrl },
      isLoopback: () => false,
    });
    await external.discovery.refresh();
  });

  afterAll(async () => {
    await external?.stop(100);
    issuerServer?.closeAllConnections();
    issuerServer?.close();
  });

  const post = (token?: string): Promise<Response> =>
    fetch(`http://127.0.0.1:${external.port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'alpha__lookup' },
      }),
    });

  it('calls a tool for the token’s subject', async () => {
    const res = await post(await sign({ aud: resourceUrl }));
    expect(res.status).toBe(200);
    expect(access.asked.at(-1)?.user).toBe('alice@example.com');
    expect(sink.records.at(-1)).toMatchObject({ outcome: 'forwarded', user: 'alice@example.com' });
  });

  it('is refused with a token for another audience, pointed at the RFC 9728 metadata', async () => {
    const res = await post(await sign({ aud: 'https://other.example.com/mcp' }));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(
      'resource_metadata="https://agent.example.com/.well-known/oauth-protected-resource/mcp"',
    );
    const meta = await fetch(`http://127.0.0.1:${external.port}/.well-known/oauth-protected-resource/mcp`);
    expect(await meta.json()).toMatchObject({ resource: resourceUrl, authorization_servers: [issuer] });
  });
});
