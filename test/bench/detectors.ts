// Benchmark of the injection and toxicity auditors in one process: claims
// per second and p50/p99 latency at 1 KB and 16 KB inputs, and peak RSS.
// Prints figures; asserts nothing.  npx tsx test/bench/detectors.ts
import { performance } from 'node:perf_hooks';
import type { AuditContext, AuditorDefinition, SettingValue } from '../../auditors/sdk/types.ts';
import { injectionAuditor } from '../../auditors/injection/index.ts';
import { toxicityAuditor } from '../../auditors/toxicity/index.ts';

function defaults(def: AuditorDefinition): AuditContext {
  return {
    setting: <T extends SettingValue>(claim: string, key: string): T =>
      def.vocabulary.find((v) => v.name === claim)?.settings?.find((s) => s.key === key)?.default as T,
    signal: new AbortController().signal,
    emit: () => {},
  };
}

const SENTENCE =
  'Please summarise the attached quarterly report and list the three main risks for the team. ';

function input(bytes: number, i: number): string {
  return `${i} ${SENTENCE.repeat(Math.ceil(bytes / SENTENCE.length))}`.slice(0, bytes);
}

async function bench(def: AuditorDefinition, bytes: number, iterations: number): Promise<void> {
  const ctx = defaults(def);
  const lat: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) {
    const s = performance.now();
    await def.audit({ data: { input: input(bytes, i) }, phase: 'request' }, ctx);
    lat.push(performance.now() - s);
  }
  const total = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const q = (p: number): string => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]!.toFixed(2);
  console.log(
    `${def.id.padEnd(10)} ${String(bytes / 1024).padStart(3)} KB  ${(iterations / total).toFixed(0).padStart(6)} claims-requests/s  p50 ${q(0.5)} ms  p99 ${q(0.99)} ms`,
  );
}

for (const def of [injectionAuditor, toxicityAuditor]) {
  await bench(def, 1024, 20); // warm-up
  await bench(def, 1024, 500);
  await bench(def, 16 * 1024, 100);
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
