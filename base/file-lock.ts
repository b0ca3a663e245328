// One writer per hash-chained file (the audit log, the evidence store): two
// processes appending to one chain would fork it. `<file>.lock` holds the owner's pid; a lock whose process is gone (a
// crash, or a restarted container whose new process has the same pid) is
// taken over.
import { open, readFile, rm } from 'node:fs/promises';

const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class FileBusyError extends Error {}

/**
 * Takes the lock of `file`; the returned function releases it. `setting`
 * names the variable that gives each process its own file (for the message).
 */
export async function lockFile(file: string, setting: string): Promise<() => Promise<void>> {
  const lockPath = `${file}.lock`;
  if (heldHere.has(lockPath)) throw new FileBusyError(`${file} is already open in this process`);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      heldHere.add(lockPath);
      return async () => {
        heldHere.delete(lockPath);
        await rm(lockPath, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const pid = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
      if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new FileBusyError(`${file} is in use by process ${pid}; give each process its own ${setting}`);
      }
      await rm(lockPath, { force: true });
    }
  }
}
