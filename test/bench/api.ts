// Benchmark: passport GET and agent list with 10,000 agents in the cache.
// The API runs in a child process (one event loop, one core) with in-memory
// caches filled as the informers would; this process drives keep-alive HTTP
// load and prints requests/s and latency percentiles.
//   npx tsx test/bench/api.ts [--seconds 5] [--concurrency 32]
import { spawn } from 'node:child_process';
import { request, Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { createLogger } from '../../base/log.ts';
import { createApp } from '../../api/app.ts';
import { apiKeyAuthenticator } from '../../api/auth/api-key-auth.ts';
import { ApiMetrics } from '../../api/http/metrics.ts';
import { MemoryCache } from '../../api/store/cache.ts';
import type { PlatformAgent } from '../../crds/generated/types.ts';
import { FileEvidenceStore } from '../../evidence/store-file.ts';
import { memoryApiDeps, memoryKeyStore } from '../fixtures/api-deps.ts';

const AGENTS = 10_000;
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

function agent(i: number): PlatformAgent {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformAgent',
    metadata: {
      namespace: `team-${i % 50}`,
      name: `agent-${i}`,
      resourceVersion: '1',
      creationTimestamp: new Date(0).toISOString() as never,
    },
    spec: {
      owners: [
        { subject: `user-${i % 200}@example.com`, role: 'Owner' },
        { subject: 'bench@example.com', role: i % 10 === 0 ? 'Editor' : 'Viewer' },
      ],
      model: { id: 'gpt-test' },
    },
    status: {
      phase: 'running',
      trustTier: 'mtls_verified',
      spiffeId: `spiffe://example.org/agent/team-${i % 50}.agent-${i}`,
    },
  };
}

async function serve(): Promise<void> {
  const agents = new MemoryCache<PlatformAgent>();
  for (let i = 0; i < AGENTS; i++) agents.set(agent(i));
  const { keys, key: benchKey } = memoryKeyStore('bench@example.com');
  const evidenceStore = await FileEvidenceStore.open();
  const registry = new Registry();
  const log = createLogger('api-bench', { level: 'warn' });
  const app = createApp({
    deps: memoryApiDeps({ agents, keys, store: evidenceStore, log, maxEvidenceBytes: 256 * 1024 }),
    authenticators: [apiKeyAuthenticator(keys)],
    log,
    metrics: new ApiMetrics(registry),
    registry,
    bodyLimitBytes: 1 << 20,
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ port, key: benchKey })}\n`);
  });
}

function get(agentPool: Agent, port: number, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, agent: agentPool, headers: { authorization: `Bearer ${key}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The server under load and the key it accepts. */
interface Target {
  port: number;
  key: string;
}

/** How long to load it, with how many requests in flight. */
interface Run {
  seconds: number;
  concurrency: number;
}

async function load(
  { port, key }: Target,
  path: () => string,
  { seconds, concurrency }: Run,
): Promise<string> {
  const pool = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latenciesMs: number[] = [];
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  const worker = async (): Promise<void> => {
    while (Date.now() < deadline) {
      const t = process.hrtime.bigint();
      const status = await get(pool, port, path(), key);
      latenciesMs.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (status !== 200) errors++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedS = (Date.now() - started) / 1000;
  pool.destroy();
  latenciesMs.sort((a, b) => a - b);
  const pct = (p: number): string => (latenciesMs[Math.floor((latenciesMs.length - 1) * p)] ?? 0).toFixed(2);
  const rps = (latenciesMs.length / elapsedS).toFixed(0);
  return `${rps.padStart(7)} req/s   p50 ${pct(0.5)} ms   p99 ${pct(0.99)} ms   (${latenciesMs.length} requests, ${errors} non-200)`;
}

async function main(): Promise<void> {
  const seconds = arg('seconds', 5);
  const concurrency = arg('concurrency', 32);
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const target = await new Promise<Target>((resolve) =>
    child.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()) as Target)),
  );
  const run = { seconds, concurrency };
  try {
    console.log(
      `API benchmark: ${AGENTS} agents in the cache, server in one process, ${concurrency} keep-alive connections, ${seconds} s each`,
    );
    let n = 0;
    await load(target, () => `/v1/agents/team-0.agent-0/passport`, { seconds: 1, concurrency });
    console.log(
      `passport GET       ${await load(target, () => `/v1/agents/team-${n % 50}.agent-${n++ % AGENTS}/passport`, run)}`,
    );
    console.log(`agent list (100)   ${await load(target, () => '/v1/agents?limit=100', run)}`);
    console.log(`agent list (1000)  ${await load(target, () => '/v1/agents?limit=1000', run)}`);
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv.includes('--serve')) void serve();
else await main();
