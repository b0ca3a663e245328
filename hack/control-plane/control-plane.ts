// A real local Kubernetes control plane: etcd + kube-apiserver +
// kube-controller-manager on loopback, with free ports, generated certificates
// and a kubeconfig. Optionally a real node beside it (hack/node: containerd,
// kubelet, kube-proxy, kube-scheduler) so pods run; without it pods stay
// Pending, which is enough for an operator and its admission webhooks.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateControlPlaneCerts, type ControlPlaneCerts } from './certs.ts';
import { binaryDir, cacheRoot, findBinary, kubernetesVersion } from './paths.ts';
import {
  killNow,
  reapStale,
  spawnManaged,
  stopManaged,
  type ManagedCommand,
  type ManagedProcess,
} from './process-group.ts';
import { buildKubeconfig } from './kubeconfig.ts';
import { NODE_IP } from '../node/layout.ts';
import { startNode, type LocalNode, type NodeOptions } from '../node/node.ts';

export interface ControlPlane {
  server: string;
  kubeconfigPath: string;
  dir: string;
  version: string;
  certs: ControlPlaneCerts;
  /** The local node, when one was asked for and could start. */
  node?: LocalNode;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Also run kube-controller-manager (namespace deletion, GC, service-account tokens). Default true. */
  controllerManager?: boolean;
  readyTimeoutMs?: number;
  log?: (line: string) => void;
  /** Also start a real node (needs Linux and root); its failure fails the start. */
  node?: Pick<NodeOptions, 'loadImages' | 'readyTimeoutMs' | 'paths'>;
  /**
   * With `node`: pods are in-cluster clients, as the platform's own pods are once installed into
   * the cluster: the apiserver also listens on the node IP and is the `kubernetes` Service's
   * endpoint there, and the node serves cluster DNS (Service names resolve in pods).
   */
  inClusterClients?: boolean;
  /** Extra kube-apiserver flags, after the defaults (e.g. `--audit-log-path=…`). */
  apiserverArgs?: string[];
}

export class ControlPlaneUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ControlPlaneUnavailable';
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function requireBinary(name: string): string {
  const bin = findBinary(name);
  if (bin) return bin;
  throw new ControlPlaneUnavailable(
    `${name} not found in ${binaryDir()} or on PATH. Build the local control plane with ` +
      '`npm run control-plane:build` (needs Go), or set KUBECONFIG to an existing cluster.',
  );
}

function stateDir(): string {
  return join(cacheRoot(), 'run');
}

function getReadyz(server: string, certs: ControlPlaneCerts): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      `${server}/readyz`,
      { ca: certs.ca.certPem, cert: certs.admin.certPem, key: certs.admin.keyPem, timeout: 2000 },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

async function waitReady(
  server: string,
  certs: ControlPlaneCerts,
  procs: ManagedProcess[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dead = procs.find((p) => p.child.exitCode !== null);
    if (dead)
      throw new ControlPlaneUnavailable(
        `${dead.name} exited early (code ${dead.child.exitCode}); see ${dead.logPath}`,
      );
    if ((await getReadyz(server, certs)) === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new ControlPlaneUnavailable(
    `kube-apiserver not ready after ${timeoutMs} ms; logs in ${procs.find((p) => p.name === 'kube-apiserver')?.logPath ?? ''}`,
  );
}

function writeFiles(dir: string, certs: ControlPlaneCerts): Record<string, string> {
  const files: Record<string, string> = {
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    servingCert: join(dir, 'apiserver.crt'),
    servingKey: join(dir, 'apiserver.key'),
    saPub: join(dir, 'sa.pub'),
    saKey: join(dir, 'sa.key'),
    adminCert: join(dir, 'admin.crt'),
    adminKey: join(dir, 'admin.key'),
  };
  writeFileSync(files.adminCert as string, certs.admin.certPem);
  writeFileSync(files.adminKey as string, certs.admin.keyPem, { mode: 0o600 });
  writeFileSync(files.caCert as string, certs.ca.certPem);
  writeFileSync(files.caKey as string, certs.ca.keyPem, { mode: 0o600 });
  writeFileSync(files.servingCert as string, certs.serving.certPem);
  writeFileSync(files.servingKey as string, certs.serving.keyPem, { mode: 0o600 });
  writeFileSync(files.saPub as string, certs.serviceAccount.publicPem);
  writeFileSync(files.saKey as string, certs.serviceAccount.privatePem, { mode: 0o600 });
  return files;
}

/**
 * Where the apiserver listens and what the `kubernetes` Service points at: loopback only with no
 * endpoint, or, for in-cluster clients, every address (pods reach the host at the node IP; the
 * bridge does not exist yet when the apiserver starts) with the node IP as the Service's endpoint.
 */
export function apiserverAddressArgs(inClusterClients: boolean): string[] {
  if (!inClusterClients)
    return ['--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', '--endpoint-reconciler-type=none'];
  return ['--bind-address=0.0.0.0', `--advertise-address=${NODE_IP}`, '--endpoint-reconciler-type=lease'];
}

function apiserverArgs(
  f: Record<string, string>,
  etcdPort: number,
  securePort: number,
  inClusterClients: boolean,
): string[] {
  return [
    `--etcd-servers=http://127.0.0.1:${etcdPort}`,
    ...apiserverAddressArgs(inClusterClients),
    `--secure-port=${securePort}`,
    `--tls-cert-file=${f.servingCert}`,
    `--tls-private-key-file=${f.servingKey}`,
    `--client-ca-file=${f.caCert}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${f.saPub}`,
    `--service-account-signing-key-file=${f.saKey}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    // Node: kubelets may only touch their own node and pods (with NodeRestriction).
    '--authorization-mode=Node,RBAC',
    '--enable-admission-plugins=NodeRestriction',
    '--allow-privileged=true',
    // logs/exec: the apiserver dials the kubelet by the node's InternalIP.
    `--kubelet-client-certificate=${f.adminCert}`,
    `--kubelet-client-key=${f.adminKey}`,
    '--kubelet-preferred-address-types=InternalIP',
    '--enable-priority-and-fairness=false',
    '--v=1',
  ];
}

function etcdArgs(dir: string, etcdPort: number, peerPort: number): string[] {
  return [
    `--data-dir=${join(dir, 'etcd')}`,
    `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
    `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
    `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
    '--log-level=warn',
    '--logger=zap',
  ];
}

const BASE_CONTROLLERS = [
  'namespace-controller',
  'garbage-collector-controller',
  'serviceaccount-controller',
  'serviceaccount-token-controller',
  'root-ca-certificate-publisher-controller',
];
/** What pods on a node need: the not-ready taint lifted, Services' endpoints, workloads. */
const NODE_CONTROLLERS = [
  'node-lifecycle-controller',
  'taint-eviction-controller',
  'endpointslice-controller',
  'replicaset-controller',
  'deployment-controller',
  'pod-garbage-collector-controller',
];

function controllerManagerArgs(f: Record<string, string>, kubeconfigPath: string, node: boolean): string[] {
  const controllers = node ? [...BASE_CONTROLLERS, ...NODE_CONTROLLERS] : BASE_CONTROLLERS;
  return [
    `--kubeconfig=${kubeconfigPath}`,
    `--controllers=${controllers.join(',')}`,
    `--service-account-private-key-file=${f.saKey}`,
    `--root-ca-file=${f.caCert}`,
    '--secure-port=0',
    '--leader-elect=false',
    '--concurrent-gc-syncs=10',
    '--v=1',
  ];
}

const inClusterClients = (o: StartOptions): boolean => o.node !== undefined && o.inClusterClients === true;
const extraApiserverArgs = (options: StartOptions): string[] => options.apiserverArgs ?? [];

/** Starts etcd + kube-apiserver (+ kube-controller-manager) and waits for /readyz. */
export async function startControlPlane(options: StartOptions = {}): Promise<ControlPlane> {
  const log = options.log ?? (() => undefined);
  const withKcm = options.controllerManager !== false;
  const etcdBin = requireBinary('etcd');
  const apiserverBin = requireBinary('kube-apiserver');
  const kcmBin = withKcm ? requireBinary('kube-controller-manager') : '';
  const reaped = reapStale(stateDir());
  if (reaped > 0) log(`killed ${reaped} stray control-plane process(es) from an earlier run`);

  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const dir = mkdtempSync(join(base, 'platform-cp-'));
  const certs = generateControlPlaneCerts();
  const files = writeFiles(dir, certs);
  const [etcdPort, peerPort, securePort] = [await freePort(), await freePort(), await freePort()];
  const server = `https://127.0.0.1:${securePort}`;
  const kubeconfigPath = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigPath, buildKubeconfig(server, certs), { mode: 0o600 });

  const procs: ManagedProcess[] = [];
  let node: LocalNode | undefined;
  const onExit = (): void => procs.forEach(killNow);
  process.once('exit', onExit);
  const stop = async (): Promise<void> => {
    await node?.stop();
    for (const p of [...procs].reverse()) await stopManaged(p, stateDir());
    process.removeListener('exit', onExit);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const spawnIn = (command: ManagedCommand): number => procs.push(spawnManaged(command, dir, stateDir()));
    spawnIn({ name: 'etcd', bin: etcdBin, args: etcdArgs(dir, etcdPort, peerPort) });
    const inCluster = inClusterClients(options);
    spawnIn({
      name: 'kube-apiserver',
      bin: apiserverBin,
      args: apiserverArgs(files, etcdPort, securePort, inCluster).concat(extraApiserverArgs(options)),
    });
    await waitReady(server, certs, procs, options.readyTimeoutMs ?? 60_000);
    if (withKcm) {
      const args = controllerManagerArgs(files, kubeconfigPath, Boolean(options.node));
      spawnIn({ name: 'kube-controller-manager', bin: kcmBin, args });
    }
    if (options.node) {
      const started = Date.now();
      node = await startNode({ ...options.node, server, certs, kubeconfigPath, log, clusterDns: inCluster });
      log(`node ${node.name} Ready in ${Date.now() - started} ms at ${node.ip}`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { server, kubeconfigPath, dir, version: kubernetesVersion(), certs, node, stop };
}
