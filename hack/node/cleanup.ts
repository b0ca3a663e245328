// Leaves the machine as it was: kills every pod process (through the kubepods
// cgroups, so nothing orphaned survives), the runtime shims, unmounts what the
// runtime and kubelet mounted, removes pod network namespaces, the bridge, the
// nft tables of kube-proxy, the cgroups and the files. Run on every stop and
// before every start (a killed earlier run never breaks the next).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, pidsMatching } from '../control-plane/process-group.ts';
import { kubeletLeftoverCommands } from './nft.ts';
import { BRIDGE, KUBELET_FIXED_PATHS, KUBEPODS_CGROUP, NETNS_DIR, type NodePaths } from './layout.ts';

const CGROUP_ROOT = '/sys/fs/cgroup';

function run(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

/** Every cgroup directory named kubepods, one per mounted hierarchy (v1) or the unified one (v2). */
export function kubepodsCgroups(root = CGROUP_ROOT): string[] {
  const found: string[] = [];
  if (existsSync(join(root, KUBEPODS_CGROUP))) found.push(join(root, KUBEPODS_CGROUP));
  for (const entry of safeReaddir(root)) {
    const dir = join(root, entry, KUBEPODS_CGROUP);
    if (existsSync(dir)) found.push(dir);
  }
  return found;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function cgroupTree(dir: string): string[] {
  const dirs = [dir];
  for (const entry of safeReaddir(dir)) {
    const child = join(dir, entry);
    try {
      if (statSync(child).isDirectory()) dirs.push(...cgroupTree(child));
    } catch {
      /* gone meanwhile */
    }
  }
  return dirs;
}

function pidsIn(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** SIGKILLs every process under kubepods, until none is left (or a few rounds pass). */
export async function killPodProcesses(): Promise<number> {
  let killed = 0;
  for (let round = 0; round < 20; round++) {
    const pids = kubepodsCgroups().flatMap((d) => cgroupTree(d).flatMap(pidsIn));
    if (pids.length === 0) break;
    for (const pid of new Set(pids)) {
      try {
        process.kill(pid, 'SIGKILL');
        killed++;
      } catch {
        /* already gone */
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return killed;
}

/** Removes the kubepods cgroups, deepest first (rmdir only works on empty cgroups). */
export function removeKubepodsCgroups(): void {
  for (const top of kubepodsCgroups()) {
    for (const dir of cgroupTree(top).reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        /* busy or gone: the next start retries */
      }
    }
  }
}

/** containerd shims outlive containerd (they are reparented to init): kill ours by their address. */
export function killShims(socket: string): number {
  let killed = 0;
  for (const pid of pidsMatching(/containerd-shim/).filter((p) => commandLine(p).includes(socket))) {
    try {
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      /* gone */
    }
  }
  return killed;
}

/** Mount points under any of the prefixes, deepest first. */
export function mountsUnder(prefixes: readonly string[], mountinfo: string): string[] {
  const points = mountinfo
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .map((p) => p.replace(/\\040/g, ' '))
    .filter((p) => prefixes.some((prefix) => p === prefix || p.startsWith(`${prefix}/`)));
  return [...new Set(points)].sort((a, b) => b.split('/').length - a.split('/').length || b.localeCompare(a));
}

export function unmountUnder(prefixes: readonly string[]): number {
  let count = 0;
  for (let round = 0; round < 3; round++) {
    const points = mountsUnder(prefixes, readFileSync('/proc/self/mountinfo', 'utf8'));
    if (points.length === 0) break;
    for (const p of points) if (run('umount', ['-l', p])) count++;
  }
  return count;
}

/** Pod network namespaces containerd pinned under /run/netns (cni-<uuid>). */
export function removePodNetns(): number {
  let count = 0;
  for (const name of safeReaddir(NETNS_DIR).filter((n) => n.startsWith('cni-'))) {
    const path = join(NETNS_DIR, name);
    run('umount', ['-l', path]);
    rmSync(path, { force: true });
    count++;
  }
  return count;
}

export function removeNetwork(): void {
  if (existsSync(`/sys/class/net/${BRIDGE}`)) run('ip', ['link', 'del', BRIDGE]);
  for (const family of ['ip', 'ip6']) run('nft', ['delete', 'table', family, 'kube-proxy']);
  const ruleset = spawnSync('nft', ['-j', 'list', 'ruleset'], { encoding: 'utf8' });
  if (ruleset.status !== 0) return;
  for (const args of kubeletLeftoverCommands(ruleset.stdout)) run('nft', args);
}

function removeFixedPaths(): void {
  for (const p of KUBELET_FIXED_PATHS) rmSync(p, { recursive: true, force: true });
}

export interface CleanupReport {
  podProcesses: number;
  shims: number;
  mounts: number;
  netns: number;
}

/** Everything a run of the node leaves behind, removed. Processes must be stopped first (see node.ts). */
export async function cleanupNode(p: NodePaths): Promise<CleanupReport> {
  const podProcesses = await killPodProcesses();
  const shims = killShims(p.containerdSocket);
  const netns = removePodNetns();
  const mounts = unmountUnder([p.root, p.containerdState, ...KUBELET_FIXED_PATHS]);
  removeKubepodsCgroups();
  removeNetwork();
  removeFixedPaths();
  rmSync(p.root, { recursive: true, force: true });
  rmSync(p.containerdState, { recursive: true, force: true });
  return { podProcesses, shims, mounts, netns };
}
