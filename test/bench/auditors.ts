// Benchmark of the system auditors: each started as its own process (as in a
// pod), driven over loopback HTTP with 1 KB and 16 KB inputs. Prints claims/s,
// p50/p99 latency and the auditor process's peak RSS. Not a test: no timed
// assertions. Run: npm run bench:auditors [-- --seconds 5 --concurrency 8 --auditors model-context]
import { readFileSync } from 'node:fs';
import { freePort, spawnAuditor, startReceiver } from '../process/fixtures/loopback.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const SECONDS = Number(arg('seconds', '4'));
const CONCURRENCY = Number(arg('concurrency', '8'));
const AUDITORS = arg('auditors', 'model-context,llm-judge').split(',');
const SIZES = [1024, 16 * 1024];

const PROSE =
  'The quarterly report summarises revenue, churn and hiring across regions. Please review the figures, ' +
  'highlight anomalies and suggest three follow-up questions for the finance team before Friday. ';

function text(bytes: number): string {
  return PROSE.repeat(Math.ceil(bytes / PROSE.length)).slice(0, bytes);
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function drive(
  url: string,
  bytes: number,
): Promise<{ requests: number; claims: number; errors: number; latencies: number[]; seconds: number }> {
  const body = JSON.stringify({
    data: { input: text(bytes), output: text(bytes / 2), metadata: { model_id: 'gpt-4o' } },
    phase: 'response',
  });
  const latencies: number[] = [];
  let claims = 0;
  let errors = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const res = await fetch(`${url}/claims`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const json = (await res.json()) as { status: string; claims: unknown[] };
      latencies.push(performance.now() - t0);
      if (json.status === 'success') claims += json.claims.length;
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return {
    requests: latencies.length,
    claims,
    errors,
    latencies: latencies.sort((a, b) => a - b),
    seconds: (performance.now() - started) / 1000,
  };
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const ready = await fetch(`${url}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became ready`);
}

async function benchOne(name: string, gatewayUrl: string): Promise<void> {
  const child = spawnAuditor(
    name,
    { PLATFORM_GATEWAY_URL: gatewayUrl, TEE_PROVIDER: 'MOCK', LOG_LEVEL: 'warn' },
    await freePort(),
  );
  try {
    await waitReady(child.url);
    await drive(child.url, 1024); // warm-up (JIT, merge caches)
    for (const bytes of SIZES) {
      const r = await drive(child.url, bytes);
      const row = [
        name.padEnd(14),
        `${bytes / 1024} KB`.padStart(6),
        `${Math.round(r.claims / r.seconds)}`.padStart(10),
        `${Math.round(r.requests / r.seconds)}`.padStart(8),
        quantile(r.latencies, 0.5).toFixed(2).padStart(8),
        quantile(r.latencies, 0.99).toFixed(2).padStart(8),
        `${r.errors}`.padStart(6),
      ];
      console.log(row.join(' '));
    }
    console.log(`${name.padEnd(14)} peak RSS ${peakRssMb(child.child.pid ?? 0)} MB`);
  } finally {
    await child.stop();
  }
}

const gateway = await startReceiver();
console.log(
  `node ${process.version}, ${SECONDS}s per size, concurrency ${CONCURRENCY}, response phase (output = half the input)`,
);
console.log(
  [
    'auditor'.padEnd(14),
    'input'.padStart(6),
    'claims/s'.padStart(10),
    'req/s'.padStart(8),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'errors'.padStart(6),
  ].join(' '),
);
for (const name of AUDITORS) await benchOne(name, gateway.url);
await gateway.close();
