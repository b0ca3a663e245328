// The samples under config/samples make cluster-wide objects (the org's home
// namespace, the Organization, registrations, catalog entries) and each test
// file that applies them removes them afterwards: two such files running side
// by side would delete each other's objects mid-test. They take this lock,
// one per control plane, held from before their first apply until their
// clean-up is done. A lock whose holder died is taken over.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function holder(dir: string): number {
  try {
    return Number(readFileSync(join(dir, 'pid'), 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/** Waits for the samples lock of this run's cluster; resolves to its release. */
export async function acquireSamplesLock(timeoutMs = 600_000): Promise<() => void> {
  const id = createHash('sha256').update(inject('kubeconfigPath')).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), `platform-samples-${id}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pid'), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = holder(dir);
    if (pid !== 0 && !alive(pid)) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(`the samples lock ${dir} is still held by ${pid} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
