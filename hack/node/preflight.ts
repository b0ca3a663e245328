// Can this machine run the local node? Each problem is one line a person can
// act on; none means go. Pure over the facts it is given, so it is tested
// without root.
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { CNI_BIN_DIR, KUBELET_PORT } from './layout.ts';

export interface HostFacts {
  platform: string;
  uid: number;
  /** Binary name → absolute path, or undefined when missing. */
  binaries: Record<string, string | undefined>;
  cniPlugins: Record<string, boolean>;
  kubeletPortInUse: boolean;
}

export const HOST_BINARIES = ['containerd', 'containerd-shim-runc-v2', 'runc', 'ctr', 'nft', 'ip', 'umount'];
export const KUBE_BINARIES = ['kubelet', 'kube-scheduler', 'kube-proxy'];
export const CNI_PLUGINS = ['bridge', 'host-local', 'loopback'];

/** Problems in the order a person would fix them. */
export function nodeProblems(f: HostFacts): string[] {
  if (f.platform !== 'linux') return [`a node needs Linux (this is ${f.platform})`];
  if (f.uid !== 0) return ['a node needs root (containerd, cgroups, network namespaces)'];
  const problems: string[] = [];
  const missingHost = HOST_BINARIES.filter((b) => !f.binaries[b]);
  if (missingHost.length)
    problems.push(`missing ${missingHost.join(', ')}: run hack/prereqs.sh (installs the Debian packages)`);
  const missingKube = KUBE_BINARIES.filter((b) => !f.binaries[b]);
  if (missingKube.length)
    problems.push(`missing ${missingKube.join(', ')}: run npm run control-plane:build (needs Go)`);
  const missingCni = CNI_PLUGINS.filter((p) => !f.cniPlugins[p]);
  if (missingCni.length)
    problems.push(`missing CNI plugins ${missingCni.join(', ')} in ${CNI_BIN_DIR}: run hack/prereqs.sh`);
  if (f.kubeletPortInUse)
    problems.push(`port ${KUBELET_PORT} is in use: another kubelet runs on this machine`);
  return problems;
}

/** Whether something accepts a connection there (a TCP port or a unix socket). */
export function answers(target: { port: number } | { path: string }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection('path' in target ? target : { host: '127.0.0.1', port: target.port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function gatherHostFacts(findBinary: (name: string) => string | undefined): Promise<HostFacts> {
  const binaries: Record<string, string | undefined> = {};
  for (const b of [...HOST_BINARIES, ...KUBE_BINARIES]) binaries[b] = findBinary(b);
  const cniPlugins = Object.fromEntries(CNI_PLUGINS.map((p) => [p, existsSync(`${CNI_BIN_DIR}/${p}`)]));
  return {
    platform: process.platform,
    uid: process.getuid?.() ?? -1,
    binaries,
    cniPlugins,
    kubeletPortInUse: await answers({ port: KUBELET_PORT }),
  };
}
