// Child processes of the local control plane. Each PID is recorded in a state
// file so a run that was killed (SIGKILL, crashed test runner) is cleaned up
// by the next start instead of leaving a stray etcd holding a port.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  logPath: string;
  exited: Promise<number | null>;
}

/** A process to start: its name (for the log file), binary and arguments. */
export interface ManagedCommand {
  name: string;
  bin: string;
  args: string[];
}

export function spawnManaged(
  { name, bin, args }: ManagedCommand,
  dir: string,
  stateDir: string,
): ManagedProcess {
  const logPath = join(dir, `${name}.log`);
  // Appended: a restarted process keeps the log of the one before it.
  const log = createWriteStream(logPath, { flags: 'a' });
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (child.pid) {
    mkdirSync(stateDir, { recursive: true });
    // The owner is this Node process: a live owner means a concurrent run
    // (another test run on the same machine), never a stray.
    writeFileSync(join(stateDir, `${child.pid}.pid`), `${bin}\n${dir}\n${process.pid}\n`);
  }
  return { name, child, logPath, exited };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A zombie (killed, not yet reaped by its parent) is not alive.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Live processes whose command line matches, as pids. */
export function pidsMatching(pattern: RegExp): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => pid !== process.pid && pattern.test(commandLine(pid)) && alive(pid));
}

/**
 * Kills processes left by earlier runs whose owner died: the recorded PID is
 * still alive running the same binary, but the Node process that started it
 * is gone. Runs whose owner is alive are left alone.
 */
export function reapStale(stateDir: string): number {
  if (!existsSync(stateDir)) return 0;
  let reaped = 0;
  for (const file of readdirSync(stateDir)) {
    const record = readPidRecord(join(stateDir, file));
    if (ownerAlive(record.owner)) continue;
    if (strayProcess(record)) {
      killGroup(record.pid);
      reaped++;
    }
    if (record.dir?.includes('platform-cp-')) rmSync(record.dir, { recursive: true, force: true });
    rmSync(join(stateDir, file), { force: true });
  }
  return reaped;
}

/** A state file's record: the PID (from the file name), its binary, its directory and the owning Node process. */
interface PidRecord {
  pid: number;
  bin?: string;
  dir?: string;
  owner: number;
}

function readPidRecord(path: string): PidRecord {
  const [bin, dir, ownerText] = readFileSync(path, 'utf8').split('\n');
  return { pid: Number(basename(path).replace(/\.pid$/, '')), bin, dir, owner: Number(ownerText) };
}

/** A live owner other than this process: a concurrent run, whose processes are not strays. */
const ownerAlive = (owner: number): boolean => Boolean(owner) && owner !== process.pid && alive(owner);

/** The recorded PID is still alive and still runs the recorded binary (not a reused PID). */
function strayProcess({ pid, bin }: PidRecord): boolean {
  return Boolean(pid) && alive(pid) && bin !== undefined && bin !== '' && commandLine(pid).startsWith(bin);
}

/** Kills the process group, or the process alone when it leads none. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    process.kill(pid, 'SIGKILL');
  }
}

export async function stopManaged(proc: ManagedProcess, stateDir: string, graceMs = 5000): Promise<void> {
  const pid = proc.child.pid;
  if (pid && proc.child.exitCode === null && proc.child.signalCode === null) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, graceMs);
    await proc.exited;
    clearTimeout(timer);
  }
  if (pid) rmSync(join(stateDir, `${pid}.pid`), { force: true });
}

/** Synchronous last resort for process 'exit': no awaiting possible there. */
export function killNow(proc: ManagedProcess): void {
  const pid = proc.child.pid;
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
