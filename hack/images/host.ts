// The host side of image building: running tools, finding them on PATH,
// `ldd`, and turning host files and directories into tar entries (stat and
// readlink only; contents are read later, while the layer is written).
import { execFile } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { lstat, readdir, readlink, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { normalizedMode, parseLdd, type PlanItem } from './rootfs.ts';
import type { FileEntry, ReadFile, TarEntry } from './tar.ts';

const execFileAsync = promisify(execFile);

/** A tool or service the build needs is absent: the CLI prints the message and exits 2. */
export class MissingPrerequisite extends Error {
  override name = 'MissingPrerequisite';
}

export function which(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Runs a command; on failure the error names it and carries its stderr. */
export async function run(cmd: string, args: readonly string[], options: RunOptions = {}): Promise<string> {
  try {
    const { stdout } = await execFileAsync(cmd, args, {
      cwd: options.cwd,
      env: options.env,
      timeout: options.timeoutMs ?? 0,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    const detail = (e.stderr ?? '').trim() || e.message;
    throw new Error(`${cmd} ${args.join(' ')} failed: ${detail}`, { cause: err });
  }
}

/** The shared libraries (loader included) that any of `binaries` loads, each once, sorted. */
export async function libraries(binaries: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const binary of binaries)
    for (const lib of parseLdd(await run('ldd', [binary]), binary)) found.add(lib);
  return [...found].sort();
}

/** Reads a host file for the tar writer. */
export const readHostFile: ReadFile = (hostPath) => createReadStream(hostPath, { highWaterMark: 1 << 20 });

async function fileEntry(hostPath: string, to: string): Promise<FileEntry> {
  const s = await stat(hostPath);
  if (!s.isFile()) throw new Error(`${hostPath} is not a regular file`);
  return {
    type: 'file',
    path: to,
    size: s.size,
    mode: normalizedMode(s.mode),
    // The cache key sees size, mtime and inode: a replaced or rewritten file gives a new key.
    source: { hostPath, version: `${s.mtimeMs}:${s.ino}` },
  };
}

/** Every file, directory and symlink under `from`, placed under `to` (owned by root). */
export async function walkTree(from: string, to: string): Promise<TarEntry[]> {
  const out: TarEntry[] = [{ type: 'dir', path: to }];
  for (const name of (await readdir(from)).sort()) {
    const src = join(from, name);
    const dst = posix.join(to, name);
    const s = await lstat(src);
    if (s.isSymbolicLink()) out.push({ type: 'symlink', path: dst, target: await readlink(src) });
    else if (s.isDirectory()) out.push(...(await walkTree(src, dst)));
    else if (s.isFile()) out.push(await fileEntry(src, dst));
    // Sockets, fifos and devices have no place in an image layer.
  }
  return out;
}

export async function resolvePlan(plan: readonly PlanItem[]): Promise<TarEntry[]> {
  const out: TarEntry[] = [];
  for (const item of plan) {
    if (item.kind === 'entry') out.push(item.entry);
    else if (item.kind === 'copy') out.push(await fileEntry(item.from, item.to));
    else out.push(...(await walkTree(item.from, item.to)));
  }
  return out;
}
