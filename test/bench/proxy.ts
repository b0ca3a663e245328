// Credential proxy benchmark: latency the proxy adds per request (p50/p99)
// on the HTTP path with an allow decision from a real Cedar egress policy and
// a credential already cached (the injector answers from memory), against a
// loopback target; both sides keep connections alive. Target: added p99
// under 2 ms. Run: npx tsx test/bench/proxy.ts
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { CedarAccess } from '../../proxy/egress/cedar-access.ts';
import { startL7Proxy } from '../process/fixtures/l7-proxy.ts';
import type { EgressBundle, EgressRule, Injector } from '../../contract/egress.ts';

const N = Number(process.env.BENCH_N ?? 3000);
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function get(agent: Agent, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      { host: '127.0.0.1', port, path: '/v1/items?page=1', agent, headers: { host } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function series(port: number, host: string): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < 200; i++) await get(agent, port, host); // warm-up
  const out: number[] = [];
  for (let i = 0; i < N; i++) out.push(await get(agent, port, host));
  agent.destroy();
  return out;
}

const target = createServer((_req, res) => res.end('{"items":[]}'));
const targetPort = await listen(target);
const rule: EgressRule = {
  destination: 'localhost',
  injectionMethod: 'client_credentials',
  approval: 'auto',
  service: 'bench',
  source: 'agent',
};
// Network, action and grant policies of the size the Verifier generates for a small agent.
const cedar = [
  '@id("network") permit(principal, action, resource) when { resource.host == "localhost" || resource.host like "*.example.com" };',
  '@id("denied-host") forbid(principal, action, resource) when { resource.host == "blocked.example.com" };',
  '@id("denied-action") forbid(principal, action == Egress::Action::"merge", resource);',
  '@id("grant-svc") forbid(principal, action, resource) when { resource.service == "mail" } unless { ["alice"].contains(context.user) };',
].join('\n');
const bundle: EgressBundle = { agentId: 'bench.agent', version: '1', rules: [rule], mcpServers: [], cedar };
const cached: Injector = {
  inject: () => Promise.resolve({ set: { authorization: 'Bearer cached-token' }, strip: ['authorization'] }),
  invalidate: () => undefined,
};
const proxy = await startL7Proxy({
  access: new CedarAccess({ agentId: 'bench.agent', bundle: () => bundle, manifest: () => undefined }),
  approvals: { hold: () => Promise.reject(new Error('no approvals in this benchmark')) },
  injector: cached,
  match: (host) => (host === 'localhost' ? rule : undefined),
  guard: { decide: () => ({ allow: true, address: '127.0.0.1' }) },
  upstream: { extraRoots: [], responseTimeoutMs: 10_000 },
  maxBodyBytes: 1 << 20,
  maxHeadBytes: 32_768,
  headTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
});

const direct = await series(targetPort, `localhost:${targetPort}`);
const proxied = await series(proxy.port, `localhost:${targetPort}`);
const fmt = (x: number): string => `${x.toFixed(3)} ms`;
console.log(`requests: ${N} sequential, keep-alive, 1 KB-class JSON answer`);
console.log(`direct:  p50 ${fmt(pct(direct, 50))}  p99 ${fmt(pct(direct, 99))}`);
console.log(`proxied: p50 ${fmt(pct(proxied, 50))}  p99 ${fmt(pct(proxied, 99))}`);
console.log(
  `added by the proxy (Cedar allow + cached credential + record): p50 ${fmt(pct(proxied, 50) - pct(direct, 50))}  p99 ${fmt(pct(proxied, 99) - pct(direct, 99))}  (target: p99 < 2 ms)`,
);
await proxy.stop();
target.close();
