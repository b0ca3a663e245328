// Console fan-out benchmark (issue 20): N concurrent SSE clients of one agent's
// console stream on loopback. The real Koa app (memoryApiDeps, an API key,
// the route `GET /v1/agents/{agent_id}/console/stream`) runs in a child process
// so its RSS is its own; this process holds the clients, one socket each over
// plain node:http. The server publishes M events through the ConsoleHub (an
// IPC command; the hub's publish is what every source calls) with the publish
// time in the payload; each client notes the receipt time of every event.
// Prints fan-out latency p50/p99/max over all (client, event) pairs, the
// server's RSS, and its dropped-client counter; then a second, shorter run
// with 20 % of the clients paused (never reading) to show the readers keep
// their latency and the paused ones are dropped. Targets: p99 < 50 ms, RSS <
// 300 MB.
//   npx tsx test/bench/console.ts
//   env: BENCH_CLIENTS (1000), BENCH_EVENTS (200), BENCH_SLOW_CLIENTS (250: the paused run's
//   clients; each needs ~5 MB past a paused loopback socket's kernel buffers before it is dropped)
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, get, request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { createLogger } from '../../base/log.ts';
import { startOpsServer } from '../../base/ops-server.ts';
import { createApp } from '../../api/app.ts';
import { apiKeyAuthenticator } from '../../api/auth/api-key-auth.ts';
import { ConsoleHub } from '../../api/console/hub.ts';
import { ConsoleMetrics } from '../../api/console/metrics.ts';
import { ApiMetrics } from '../../api/http/metrics.ts';
import { MemoryCache } from '../../api/store/cache.ts';
import type { PlatformAgent } from '../../crds/generated/types.ts';
import { FileEvidenceStore } from '../../evidence/store-file.ts';
import { memoryApiDeps, memoryKeyStore } from '../fixtures/api-deps.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const SLOW_RUN_CLIENTS = Number(process.env.BENCH_SLOW_CLIENTS ?? 250);
const SPACING_MS = 20;
const AGENT_ID = 'bench.console';
const STREAM_PATH = `/v1/agents/${AGENT_ID}/console/stream`;
/** Connections opened at once: well under the listen backlog, so no SYN is retried. */
const CONNECT_WAVE = 100;

/** Wall-clock ms with sub-ms resolution, comparable across processes on one machine. */
const wallMs = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the server (child process) ----

interface PublishCommand {
  cmd: 'publish';
  tag: string;
  count: number;
  padBytes: number;
}
type Command = { id: number } & (PublishCommand | { cmd: 'report' });

interface ServerReport {
  rss: number;
  heapUsed: number;
  /** The process's peak RSS so far (getrusage). */
  peakRss: number;
  clients: number;
}

function benchAgent(): PlatformAgent {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformAgent',
    metadata: {
      namespace: 'bench',
      name: 'console',
      resourceVersion: '1',
      creationTimestamp: new Date(0).toISOString() as never,
    },
    spec: { owners: [{ subject: 'viewer@example.com', role: 'Viewer' }], model: { id: 'gpt-test' } },
    status: { phase: 'running' },
  };
}

/** Publishes `count` events SPACING_MS apart, as a source would, each carrying its publish time. */
async function publishSeries(hub: ConsoleHub, c: PublishCommand): Promise<number[]> {
  const pad = c.padBytes > 0 ? { pad: 'x'.repeat(c.padBytes) } : {};
  const fanOutMs: number[] = [];
  for (let n = 0; n < c.count; n++) {
    await sleep(SPACING_MS);
    const started = wallMs();
    await hub.publish([
      {
        timestamp: new Date().toISOString(),
        agent_id: AGENT_ID,
        subagent: null,
        type: 'tool_call',
        severity: 'info',
        auditor: null,
        auditors: [],
        payload: { run: c.tag, n, sent_at: wallMs(), ...pad },
        key: `${c.tag}-${n}`,
      },
    ]);
    // By the next turn of the loop every stream has been pushed to and written to its socket.
    await new Promise((resolve) => setImmediate(resolve));
    fanOutMs.push(wallMs() - started);
  }
  return fanOutMs;
}

async function serve(): Promise<void> {
  const agents = new MemoryCache<PlatformAgent>();
  agents.set(benchAgent());
  const { keys, key } = memoryKeyStore('viewer@example.com');
  const registry = new Registry();
  // `error`: the hub warns once per dropped client, which the paused run does on purpose.
  const log = createLogger('console-bench', { level: 'error' });
  const deps = memoryApiDeps({ agents, keys, store: await FileEvidenceStore.open(), log });
  // As api/run.ts builds it: the production defaults, with its metrics on the ops server's /metrics.
  const hub = new ConsoleHub(deps.console, { log, metrics: new ConsoleMetrics(registry) });
  const app = createApp({
    deps: { ...deps, consoleHub: hub },
    authenticators: [apiKeyAuthenticator(keys)],
    log,
    metrics: new ApiMetrics(registry),
    registry,
    bodyLimitBytes: 1 << 20,
  });
  const ops = await startOpsServer({ host: '127.0.0.1', port: 0, registry, log });
  const report = (): ServerReport => ({
    rss: process.memoryUsage().rss,
    heapUsed: process.memoryUsage().heapUsed,
    peakRss: process.resourceUsage().maxRSS * 1024,
    clients: hub.clients,
  });
  process.on('message', (m: Command) => {
    const reply = (body: object): boolean => process.send?.({ id: m.id, ...body }) ?? false;
    if (m.cmd === 'report') reply(report());
    else void publishSeries(hub, m).then((fanOutMs) => reply({ fanOutMs }));
  });
  process.on('disconnect', () => process.exit(0));
  const server = app.listen(0, '127.0.0.1', 2048, () => {
    const { port } = server.address() as { port: number };
    process.send?.({ id: 0, port, opsPort: ops.port, key });
  });
}

// ---- the clients (this process) ----

class ServerChild {
  private next = 1;
  private readonly waiting = new Map<number, (body: Record<string, unknown>) => void>();

  constructor(readonly child: ChildProcess) {
    child.on('message', (m: { id: number } & Record<string, unknown>) => {
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
    });
  }

  ask<T>(command: Omit<PublishCommand, 'id'> | { cmd: 'report' }): Promise<T> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, (body) => resolve(body as T));
      this.child.send({ id, ...command });
    });
  }

  report(): Promise<ServerReport> {
    return this.ask<ServerReport>({ cmd: 'report' });
  }
}

async function startServer(): Promise<{ server: ServerChild; port: number; opsPort: number; key: string }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  type Hello = { port: number; opsPort: number; key: string };
  const hello = await new Promise<Hello>((resolve) => child.once('message', (m: Hello) => resolve(m)));
  return { server: new ServerChild(child), ...hello };
}

/** One run's receipts: latency of each (client, event) pair, events received. */
class Receipts {
  readonly latencies: number[] = [];
  received = 0;

  constructor(private readonly tag: string) {}

  note(data: string, receivedAt: number): void {
    const payload = (JSON.parse(data) as { payload: { run?: string; sent_at?: number } }).payload;
    if (payload.run !== this.tag || payload.sent_at === undefined) return;
    this.received++;
    this.latencies.push(receivedAt - payload.sent_at);
  }
}

/** One reading client: an SSE stream parsed as it arrives; resolves when `event: ready` came. */
function openReader(target: Target, receipts: () => Receipts, agent: Agent): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: STREAM_PATH,
        agent,
        headers: { authorization: `Bearer ${target.key}`, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = wallMs();
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (block.includes('event: ready'))
              resolve(res); // after the `retry:` line
            else if (block.startsWith('id: ')) receipts().note(block.slice(block.indexOf('data: ') + 6), at);
          }
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A client that sends its request and never reads a byte of the answer. */
function openPaused(target: Target): Socket {
  const socket = connect({ host: '127.0.0.1', port: target.port });
  socket.on('error', () => undefined);
  socket.write(
    `GET ${STREAM_PATH} HTTP/1.1\r\nhost: bench\r\nauthorization: Bearer ${target.key}\r\n` +
      'accept: text/event-stream\r\n\r\n',
  );
  socket.pause();
  return socket;
}

interface Target {
  port: number;
  /** The ops server's port: /metrics. */
  opsPort: number;
  key: string;
}

interface Clients {
  readers: IncomingMessage[];
  paused: Socket[];
  /** Paused clients whose connection the server closed. */
  closedPaused: () => number;
}

async function openClients(
  target: Target,
  counts: { readers: number; paused: number },
  receipts: () => Receipts,
) {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const readers: IncomingMessage[] = [];
  for (let i = 0; i < counts.readers; i += CONNECT_WAVE) {
    const wave = Math.min(CONNECT_WAVE, counts.readers - i);
    readers.push(
      ...(await Promise.all(Array.from({ length: wave }, () => openReader(target, receipts, agent)))),
    );
  }
  let closed = 0;
  const paused = Array.from({ length: counts.paused }, () => openPaused(target));
  for (const s of paused) s.once('close', () => closed++);
  return { readers, paused, closedPaused: () => closed } satisfies Clients;
}

async function waitFor(what: string, ok: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function droppedTotal(opsPort: number): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port: opsPort, path: '/metrics', agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        const hits = [...text.matchAll(/^platform_console_clients_dropped_total\{[^}]*\} (\d+)/gm)];
        resolve(hits.reduce((sum, m) => sum + Number(m[1]), 0));
      });
    }).on('error', reject);
  });
}

interface RunPlan {
  name: string;
  readers: number;
  paused: number;
  events: number;
  padBytes: number;
}

interface RunResult {
  plan: RunPlan;
  receipts: Receipts;
  /** In the server, per event: publish → every stream's socket written. */
  serverFanOutMs: number[];
  connected: number;
  pausedClosed: number;
  dropped: number;
  rssConnected: number;
  rssAfter: number;
  heapConnected: number;
  peakRss: number;
}

/**
 * Waits until the paused clients are counted as dropped, then lets them read:
 * a socket that reads nothing never learns that the server closed it.
 */
async function settlePaused(opsPort: number, clients: Clients, droppedAtLeast: number): Promise<void> {
  const counted = async (): Promise<boolean> => (await droppedTotal(opsPort)) >= droppedAtLeast;
  await waitFor('the paused clients dropped', counted, 15_000).catch(() => undefined);
  for (const p of clients.paused) p.resume();
  await waitFor(
    'the dropped connections closed',
    () => clients.closedPaused() >= clients.paused.length,
    10_000,
  ).catch(() => undefined);
}

async function runScenario(s: { server: ServerChild } & Target, plan: RunPlan): Promise<RunResult> {
  const receipts = new Receipts(plan.name);
  const droppedBefore = await droppedTotal(s.opsPort);
  const clients = await openClients(s, plan, () => receipts);
  const total = plan.readers + plan.paused;
  await waitFor('every stream open', async () => (await s.server.report()).clients >= total, 30_000);
  const connected = await s.server.report();
  const { fanOutMs } = await s.server.ask<{ fanOutMs: number[] }>({
    cmd: 'publish',
    tag: plan.name,
    count: plan.events,
    padBytes: plan.padBytes,
  });
  const expected = plan.readers * plan.events;
  await waitFor('every event received', () => receipts.received >= expected, 15_000).catch(() => undefined);
  if (plan.paused > 0) await settlePaused(s.opsPort, clients, plan.paused + droppedBefore);
  const after = await s.server.report();
  const result: RunResult = {
    plan,
    receipts,
    serverFanOutMs: fanOutMs,
    connected: connected.clients,
    pausedClosed: clients.closedPaused(),
    dropped: (await droppedTotal(s.opsPort)) - droppedBefore,
    rssConnected: connected.rss,
    rssAfter: after.rss,
    heapConnected: connected.heapUsed,
    peakRss: after.peakRss,
  };
  for (const r of clients.readers) r.destroy();
  for (const p of clients.paused) p.destroy();
  await waitFor('every stream closed', async () => (await s.server.report()).clients === 0, 30_000);
  return result;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (x: number | undefined): string => `${(x ?? NaN).toFixed(1)} ms`;

function percentile(sorted: readonly number[], p: number): number | undefined {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function printResult(r: RunResult): void {
  const sorted = [...r.receipts.latencies].sort((a, b) => a - b);
  const { plan } = r;
  const payload = plan.padBytes > 0 ? `, ${plan.padBytes} B pad each` : '';
  console.log(
    `\n${plan.name}: ${plan.readers} reading + ${plan.paused} paused clients, ${plan.events} events${payload}`,
  );
  console.log(`  streams open at the server       ${r.connected} / ${plan.readers + plan.paused}`);
  console.log(`  events received / expected      ${r.receipts.received} / ${plan.readers * plan.events}`);
  console.log(
    `  fan-out latency (publish→receipt) p50 ${ms(percentile(sorted, 50))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted.at(-1))}  (target: p99 < 50 ms)`,
  );
  const server = [...r.serverFanOutMs].sort((a, b) => a - b);
  console.log(
    `  in the server (publish→all written) p50 ${ms(percentile(server, 50))}  p99 ${ms(percentile(server, 99))}  max ${ms(server.at(-1))}  (per event)`,
  );
  console.log(
    `  clients dropped (metric)         ${r.dropped}  (paused connections closed by the server: ${r.pausedClosed})`,
  );
  console.log(
    `  server RSS                       with clients ${mb(r.rssConnected)} (heap ${mb(r.heapConnected)})  after the run ${mb(r.rssAfter)}  peak so far ${mb(r.peakRss)}  (target: < 300 MB)`,
  );
}

async function main(): Promise<void> {
  const s = await startServer();
  try {
    await sleep(500);
    const idle = await s.server.report();
    console.log(
      `Console fan-out benchmark: server in a child process (real Koa app, in-memory console), clients on loopback, one socket each; events ${SPACING_MS} ms apart`,
    );
    // Most of it is the app's code loaded through tsx (importing app.ts and the fixture alone: ~250 MB).
    console.log(`server RSS before any client: ${mb(idle.rss)} (heap ${mb(idle.heapUsed)})`);
    const slowPaused = Math.round(SLOW_RUN_CLIENTS * 0.2);
    printResult(
      await runScenario(s, { name: 'all-reading', readers: CLIENTS, paused: 0, events: EVENTS, padBytes: 0 }),
    );
    printResult(
      await runScenario(s, {
        name: 'paused-20pct',
        readers: SLOW_RUN_CLIENTS - slowPaused,
        paused: slowPaused,
        events: 500,
        padBytes: 16_384,
      }),
    );
  } finally {
    s.server.child.disconnect();
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
