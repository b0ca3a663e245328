// The embedded audit log file: append rate (group commit, with and without
// fdatasync), a first and an incremental verify, paging into the file, and
// the heap the log holds (bounded by its window, not by its length).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAuditLog } from '../../api/audit/file.ts';
import { auditInput } from '../process/fixtures/audit-log-contract.ts';

const N = Number(process.env.BENCH_AUDIT_ENTRIES ?? 165_000);

async function timed<T>(label: string, count: number, run: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await run();
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(38)} ${ms.toFixed(0).padStart(7)} ms  ${((count / ms) * 1000).toFixed(0)}/s`);
  return out;
}

async function appendAll(log: FileAuditLog, n: number, concurrency: number): Promise<void> {
  for (let i = 0; i < n; i += concurrency) {
    const size = Math.min(concurrency, n - i);
    await Promise.all(Array.from({ length: size }, (_, j) => log.append(auditInput(`user-${(i + j) % 50}`))));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'bench-audit-'));
try {
  const synced = await FileAuditLog.open({ path: join(dir, 'synced.jsonl') });
  await timed('append, fdatasync, 64 concurrent', 5000, () => appendAll(synced, 5000, 64));
  await synced.close();

  const log = await FileAuditLog.open({ path: join(dir, 'audit.jsonl'), sync: false });
  await timed(`append ${N}, no sync, 1000 concurrent`, N, () => appendAll(log, N, 1000));
  await timed(`verify ${N} (first)`, N, () => log.verify());
  await appendAll(log, 1000, 1000);
  await timed('verify 1000 new (incremental)', 1000, () => log.verify());
  await timed('query limit 100 before seq 1000', 100, () => log.query({ limit: 100, beforeSeq: 1000 }));
  await log.close();
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const reopened = await timed(`reopen (walk) ${N + 1000}`, N + 1000, () =>
    FileAuditLog.open({ path: join(dir, 'audit.jsonl') }),
  );
  global.gc?.();
  console.log(
    `heap held after reopen: ${((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20).toFixed(1)} MiB`,
    reopened.memory(),
  );
  await reopened.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
