// Benchmark of the injection and toxicity auditors: claims per second and
// p50/p99 latency at 1 KB and 16 KB inputs, and peak RSS. Prints figures;
// asserts nothing.
//   npx tsx test/bench/detectors.ts [--auditor injection|toxicity] [--n 500]
//   npx tsx test/bench/detectors.ts --auditor injection --url http://127.0.0.1:8090 [--pid PID] [--concurrency 4]
// In process it calls audit() directly; with --url it POSTs to a started
// auditor's /claims (peak RSS of that process from /proc/PID/status with --pid).
// Inputs mix ordinary prose, security discussion and attack-like text, varied
// per request so nothing is served from a cache.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { AuditContext, AuditorDefinition, SettingValue } from '../../auditors/sdk/types.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function defaults(def: AuditorDefinition): AuditContext {
  return {
    setting: <T extends SettingValue>(claim: string, key: string): T =>
      def.vocabulary.find((v) => v.name === claim)?.settings?.find((s) => s.key === key)?.default as T,
    signal: new AbortController().signal,
    emit: () => {},
  };
}

const SENTENCES = [
  'Please summarise the attached quarterly report and list the three main risks for the team.',
  'The deployment failed because the database migration timed out after thirty seconds.',
  'Our security training explains how prompt injection tries to override system instructions.',
  'Can you translate this paragraph into French and keep the formatting of the bullet points?',
  'When the tool result arrives, check the schema before passing it to the next step.',
  'Customers in the northern region reported slower delivery times during the holiday season.',
  'I disagree with the reviewer, but the argument about sample size deserves a careful answer.',
  'The recipe calls for two onions, a clove of garlic and a tin of chopped tomatoes.',
  'Note: the assistant should never reveal credentials; rotate the API key if it leaks.',
  'Meeting moved to Thursday at 10:00, room 4.2, bring the updated budget spreadsheet.',
];

function input(bytes: number, i: number): string {
  let out = `${i}.`;
  for (let k = 0; out.length < bytes; k++) out += ` ${SENTENCES[(i * 7 + k * 3) % SENTENCES.length]}`;
  return out.slice(0, bytes);
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
}

function summarise(lat: number[], seconds: number): Result {
  lat.sort((a, b) => a - b);
  const q = (p: number): number => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]!;
  return { rps: lat.length / seconds, p50: q(0.5), p99: q(0.99) };
}

async function inProcess(def: AuditorDefinition, bytes: number, n: number): Promise<Result> {
  const ctx = defaults(def);
  const lat: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await def.audit({ data: { input: input(bytes, i) }, phase: 'request' }, ctx);
    lat.push(performance.now() - s);
  }
  return summarise(lat, (performance.now() - t0) / 1000);
}

async function overHttp(url: string, bytes: number, n: number, concurrency: number): Promise<Result> {
  const lat: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      const body = JSON.stringify({ data: { input: input(bytes, i) }, phase: 'request' });
      const s = performance.now();
      const res = await fetch(new URL('/claims', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      lat.push(performance.now() - s);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return summarise(lat, (performance.now() - t0) / 1000);
}

function peakRssMb(pid: string | undefined): string {
  if (!pid) return `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (this process)`;
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return `${(Number(hwm) / 1024).toFixed(0)} MB (pid ${pid})`;
}

async function load(id: string): Promise<AuditorDefinition> {
  if (id === 'injection') return (await import('../../auditors/injection/index.ts')).injectionAuditor;
  return (await import('../../auditors/toxicity/index.ts')).toxicityAuditor;
}

const n = Number(arg('n') ?? 500);
const url = arg('url');
const concurrency = Number(arg('concurrency') ?? 1);
const ids = arg('auditor') ? [arg('auditor')!] : ['injection', 'toxicity'];
for (const id of ids) {
  const def = url ? undefined : await load(id);
  const run = (bytes: number, count: number): Promise<Result> =>
    def ? inProcess(def, bytes, count) : overHttp(url!, bytes, count, concurrency);
  await run(1024, 50); // warm-up
  for (const bytes of [1024, 16 * 1024]) {
    const r = await run(bytes, bytes > 1024 ? Math.ceil(n / 5) : n);
    console.log(
      `${id.padEnd(10)} ${String(bytes / 1024).padStart(3)} KB ${url ? `http c=${concurrency}` : 'in-process'}  ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms`,
    );
  }
}
console.log(`peak RSS ${peakRssMb(arg('pid'))}`);
