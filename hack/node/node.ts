// A real Kubernetes node beside the local control plane: containerd + runc +
// CNI, kubelet, kube-proxy and kube-scheduler, so pods really start. Needs
// Linux and root; everything it changes on the host is undone by stop() and by
// the next start after a killed run (see cleanup.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueCertificate, type ControlPlaneCerts } from '../control-plane/certs.ts';
import { buildKubeconfig } from '../control-plane/kubeconfig.ts';
import { findBinary } from '../control-plane/paths.ts';
import {
  alive,
  reapStale,
  spawnManaged,
  stopManaged,
  type ManagedProcess,
} from '../control-plane/process-group.ts';
import { cleanupNode } from './cleanup.ts';
import { startClusterDns, type ClusterDns } from './cluster-dns.ts';
import {
  cniConfig,
  containerdConfig,
  kubeProxyConfig,
  kubeletArgs,
  kubeletConfig,
  schedulerArgs,
} from './configs.ts';
import { BRIDGE, NODE_IP, NODE_IP_PREFIX, NODE_NAME, nodePaths, type NodePaths } from './layout.ts';
import { answers, gatherHostFacts, nodeProblems } from './preflight.ts';
import { waitNodeReady } from './ready.ts';
import { supervise, type Supervisor } from './supervise.ts';

export class NodeUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeUnavailable';
  }
}

export interface LocalNode {
  name: string;
  ip: string;
  containerdSocket: string;
  paths: NodePaths;
  stop(): Promise<void>;
}

export interface NodeOptions {
  server: string;
  certs: ControlPlaneCerts;
  /** Admin kubeconfig (scheduler, kube-proxy, readiness checks). */
  kubeconfigPath: string;
  /** Called once containerd answers, before kubelet starts: import images here. */
  loadImages?: (containerdSocket: string) => Promise<void>;
  readyTimeoutMs?: number;
  log?: (line: string) => void;
  paths?: NodePaths;
  /**
   * Serve cluster DNS on the node IP and make it the pods' nameserver, so pods
   * resolve Service names (what an in-cluster install of the platform needs).
   */
  clusterDns?: boolean;
}

const SBIN = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

export function findNodeBinary(name: string): string | undefined {
  return findBinary(name) ?? SBIN.map((d) => join(d, name)).find((p) => existsSync(p));
}

/** One run owns the node at a time; a dead owner's claim is taken over. */
function claimNode(p: NodePaths): void {
  if (existsSync(p.ownerFile)) {
    const owner = Number(readFileSync(p.ownerFile, 'utf8').trim());
    if (owner && owner !== process.pid && alive(owner))
      throw new NodeUnavailable(
        `the local node is in use by process ${owner} (another npm start or test run)`,
      );
  }
  mkdirSync(join(p.ownerFile, '..'), { recursive: true });
  writeFileSync(p.ownerFile, `${process.pid}\n`);
}

function sh(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${(r.stderr || r.stdout || '').trim()}`);
}

/** Host sysctls the pod network needs; their old values come back on stop. */
const SYSCTLS: Record<string, string> = {
  '/proc/sys/net/ipv4/ip_forward': '1',
  // Pod → Service → pod on the same bridge: replies must pass kube-proxy's NAT.
  '/proc/sys/net/bridge/bridge-nf-call-iptables': '1',
};

function setSysctls(): () => void {
  const saved: [string, string][] = [];
  for (const [path, value] of Object.entries(SYSCTLS)) {
    if (!existsSync(path)) continue;
    saved.push([path, readFileSync(path, 'utf8').trim()]);
    writeFileSync(path, value);
  }
  return () => saved.forEach(([path, value]) => writeFileSync(path, value));
}

function createBridge(): void {
  sh('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
  sh('ip', ['addr', 'add', `${NODE_IP}/${NODE_IP_PREFIX}`, 'dev', BRIDGE]);
  sh('ip', ['link', 'set', BRIDGE, 'up']);
}

function writeNodeFiles(p: NodePaths, o: NodeOptions): { kubeletKubeconfig: string } {
  const nameservers = o.clusterDns ? [NODE_IP] : [];
  for (const d of [p.root, p.certDir, p.cniConfDir, p.cniIpamDir, p.kubeletRoot, p.logDir, p.containerdState])
    mkdirSync(d, { recursive: true });
  const serving = issueCertificate(
    { commonName: NODE_NAME, dnsNames: [NODE_NAME], ipAddresses: [NODE_IP], serverAuth: true, validDays: 30 },
    o.certs.ca,
  );
  const client = issueCertificate(
    { commonName: `system:node:${NODE_NAME}`, organization: 'system:nodes', clientAuth: true, validDays: 30 },
    o.certs.ca,
  );
  const files = {
    caCert: join(p.certDir, 'ca.crt'),
    cert: join(p.certDir, 'kubelet.crt'),
    key: join(p.certDir, 'kubelet.key'),
  };
  writeFileSync(files.caCert, o.certs.ca.certPem);
  writeFileSync(files.cert, serving.certPem);
  writeFileSync(files.key, serving.keyPem, { mode: 0o600 });
  const kubeletKubeconfig = join(p.certDir, 'kubelet.kubeconfig');
  const nodeCerts = { ...o.certs, admin: client };
  writeFileSync(kubeletKubeconfig, buildKubeconfig(o.server, nodeCerts, 'platform-node'), { mode: 0o600 });
  writeFileSync(p.containerdConfig, containerdConfig(p));
  writeFileSync(join(p.cniConfDir, '10-platform.conflist'), cniConfig(p));
  writeFileSync(p.kubeletConfig, kubeletConfig(p, files, nameservers));
  writeFileSync(p.kubeProxyConfig, kubeProxyConfig(o.kubeconfigPath));
  return { kubeletKubeconfig };
}

async function waitSocket(path: string, proc: ManagedProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new NodeUnavailable(`containerd exited; see ${proc.logPath}`);
    if (await answers({ path })) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new NodeUnavailable(`containerd did not answer on ${path} in ${timeoutMs} ms; see ${proc.logPath}`);
}

function requireBin(name: string): string {
  const bin = findNodeBinary(name);
  if (!bin) throw new NodeUnavailable(`${name} not found`);
  return bin;
}

/** The pods' nameserver on the node IP, when asked for (the bridge must exist). */
async function clusterDnsOf(o: NodeOptions, log: (line: string) => void): Promise<ClusterDns | undefined> {
  if (!o.clusterDns) return undefined;
  return startClusterDns({ address: NODE_IP, kubeconfigPath: o.kubeconfigPath, log });
}

/** Starts containerd, kubelet, kube-proxy and kube-scheduler and waits for the node to be Ready. */
export async function startNode(o: NodeOptions): Promise<LocalNode> {
  const log = o.log ?? (() => undefined);
  const p = o.paths ?? nodePaths();
  const problems = nodeProblems(await gatherHostFacts(findNodeBinary));
  if (problems.length) throw new NodeUnavailable(problems.join('; '));
  claimNode(p);
  const reaped = reapStale(p.stateDir);
  const leftover = await cleanupNode(p);
  if (reaped || leftover.podProcesses || leftover.mounts)
    log(
      `cleaned up an earlier node run (${reaped} processes, ${leftover.podProcesses} pod processes, ${leftover.mounts} mounts)`,
    );
  const procs: ManagedProcess[] = [];
  const argsOf = new Map<string, string[]>();
  let supervisor: Supervisor | undefined;
  let dns: ClusterDns | undefined;
  let restoreSysctls = (): void => undefined;
  const stop = async (): Promise<void> => {
    supervisor?.halt();
    for (const proc of [...procs].reverse()) await stopManaged(proc, p.stateDir);
    await dns?.close();
    await cleanupNode(p);
    restoreSysctls();
    rmSync(p.ownerFile, { force: true });
  };
  try {
    const { kubeletKubeconfig } = writeNodeFiles(p, o);
    restoreSysctls = setSysctls();
    createBridge();
    dns = await clusterDnsOf(o, log);
    const spawnNamed = (name: string): ManagedProcess =>
      spawnManaged({ name, bin: requireBin(name), args: argsOf.get(name) ?? [] }, p.logDir, p.stateDir);
    const start = (name: string, args: string[]): ManagedProcess => {
      argsOf.set(name, args);
      const proc = spawnNamed(name);
      procs.push(proc);
      return proc;
    };
    const containerd = start('containerd', [`--config=${p.containerdConfig}`]);
    await waitSocket(p.containerdSocket, containerd, 30_000);
    await o.loadImages?.(p.containerdSocket);
    start('kubelet', kubeletArgs(p, kubeletKubeconfig));
    start('kube-proxy', [`--config=${p.kubeProxyConfig}`, '--v=1']);
    start('kube-scheduler', schedulerArgs(o.kubeconfigPath));
    await waitNodeReady(o.kubeconfigPath, NODE_NAME, procs, o.readyTimeoutMs ?? 120_000);
    supervisor = supervise(procs, spawnNamed, log);
  } catch (err) {
    await stop();
    throw err;
  }
  return { name: NODE_NAME, ip: NODE_IP, containerdSocket: p.containerdSocket, paths: p, stop };
}
