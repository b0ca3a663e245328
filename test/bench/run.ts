// `npm run bench [-- name...]`: runs every benchmark in test/bench (or the
// named ones) one after another, each in its own process so figures and peak
// RSS are not shared. Benchmarks print figures; they never fail on speed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

const dir = import.meta.dirname;
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.endsWith('.test.ts'))
  .map((f) => basename(f, '.ts'))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${all.join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  console.log(`\n=== ${name} ===`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(dir, `${name}.ts`)], { stdio: 'inherit' });
  if (res.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
