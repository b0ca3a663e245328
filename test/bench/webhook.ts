// Admission webhook benchmark: prints figures, asserts nothing.
//   npx tsx test/bench/webhook.ts [--seconds 5] [--rate 500]
// 1. /mutate handler in-process (parse + decide + clone + diff + serialise), p50/p99;
// 2. the floor: JSON.parse + structuredClone + JSON.stringify of the same review;
// 3. HTTPS on loopback at a fixed rate with keep-alive (latency measured from the
//    scheduled send time, so a stall is not hidden): throughput and p50/p99.
import { Agent, request } from 'node:https';
import { parseArgs } from 'node:util';
import { parseReview, reviewBody } from '../../webhooks/admission/review.ts';
import { handleMutate, type MutateDeps } from '../../webhooks/mutate/handler.ts';
import { startWebhookServer } from '../../webhooks/server.ts';
import {
  fakeCluster,
  loadMutateFixtures,
  quietLogger,
  recordingEvents,
  reviewFor,
  testMutateOptions,
} from '../../webhooks/testing/fixtures.ts';
import { issueCa, issueServing } from '../../base/tls/certs.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, rate: { type: 'string', default: '500' } },
});
const fixture = loadMutateFixtures().get('default-chain');
if (!fixture) throw new Error('fixture default-chain missing');
const body = reviewFor(fixture);
const deps: MutateDeps = {
  options: testMutateOptions(),
  cluster: fakeCluster(fixture.namespaceLabels),
  events: recordingEvents(),
  log: quietLogger(),
};

function percentiles(samplesMs: number[]): string {
  const s = [...samplesMs].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  return `p50 ${at(0.5).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms  max ${at(1).toFixed(3)} ms  (n=${s.length})`;
}

async function timeLoop(n: number, fn: () => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out;
}

const handler = async (): Promise<string> => reviewBody(await handleMutate(parseReview(body), deps));
const floor = (): string => JSON.stringify(structuredClone(JSON.parse(body) as unknown));

await timeLoop(2000, handler); // warm-up
console.log(`review size ${body.length} bytes`);
console.log(`handler in-process        ${percentiles(await timeLoop(20_000, handler))}`);
console.log(`parse+clone+serialise     ${percentiles(await timeLoop(20_000, floor))}`);

const ca = issueCa(new Date(), 1);
const serving = issueServing(ca, { dnsNames: [], ipAddresses: ['127.0.0.1'] }, new Date(), 1);
const server = await startWebhookServer({
  host: '127.0.0.1',
  port: 0,
  certificate: serving,
  bodyLimitBytes: 4 << 20,
  handlerTimeoutMs: 5000,
  log: quietLogger(),
  routes: { '/mutate': (r) => handleMutate(r, deps) },
});
const agent = new Agent({ keepAlive: true, maxSockets: 32, ca: ca.certPem });

function post(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/mutate?timeout=5s',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function fixedRate(
  rate: number,
  seconds: number,
): Promise<{ latencies: number[]; errors: number; elapsedMs: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  const total = rate * seconds;
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      post().then(
        (status) => {
          if (status !== 200) errors++;
          latencies.push(performance.now() - due);
        },
        () => void errors++,
      ),
    );
  }
  await Promise.all(pending);
  return { latencies, errors, elapsedMs: performance.now() - start };
}

const rate = Number(values.rate);
const seconds = Number(values.seconds);
await fixedRate(rate, 1); // warm-up: TLS handshakes, JIT
const run = await fixedRate(rate, seconds);
console.log(
  `HTTPS loopback @${rate}/s     ${percentiles(run.latencies)}  throughput ${((run.latencies.length * 1000) / run.elapsedMs).toFixed(0)}/s  errors ${run.errors}`,
);
agent.destroy();
await server.close();
