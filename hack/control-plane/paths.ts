// Where the pinned Kubernetes release lives: the version from hack/versions.env
// and the binaries in a cache outside the repository.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HACK_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = join(HACK_DIR, '..');

export function kubernetesVersion(): string {
  const text = readFileSync(join(HACK_DIR, 'versions.env'), 'utf8');
  const m = /^K8S_VERSION=(\S+)$/m.exec(text);
  if (!m?.[1]) throw new Error('hack/versions.env does not define K8S_VERSION');
  return m[1];
}

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.PLATFORM_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agent-platform');
}

export function binaryDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), `k8s-${kubernetesVersion()}`);
}

/** Finds a binary in the cache, then on PATH; undefined when absent. */
export function findBinary(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const cached = join(binaryDir(env), name);
  if (existsSync(cached)) return cached;
  for (const dir of (env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}
