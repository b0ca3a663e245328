// The whole system on one machine, as `npm start` runs it and the end-to-end
// tests use it: the cluster in $KUBECONFIG, or a local control plane with a
// real node when this machine can run one (else the control plane alone, and
// one line saying why); the CRDs; the operator, webhook, api and model roles
// as child processes, each waited for until its /readyz answers.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { installCrds } from '../../crds/install.ts';
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from '../control-plane/control-plane.ts';
import { HACK_DIR, REPO_ROOT, cacheRoot, findBinary } from '../control-plane/paths.ts';
import { reapStale } from '../control-plane/process-group.ts';
import { findNodeBinary, NodeUnavailable } from '../node/node.ts';
import { gatherHostFacts, nodeProblems } from '../node/preflight.ts';
import { createUnlessExists, k8s, loadKubeConfig } from '../../base/kube.ts';
import { registerLocalWebhooks } from './local-webhooks.ts';
import { DEFAULT_PORTS, readinessUrl, roleEnv, type LocalPorts, type LocalTopology } from './roles.ts';

/** A problem a person fixes before starting again (exit code 2). */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefused';
  }
}

export interface SystemOptions {
  kubeconfig?: string;
  roles?: readonly string[];
  /** 'auto': a node when this machine can run one; 'off': never. */
  node?: 'auto' | 'off';
  leaderElection?: boolean;
  namespace?: string;
  ports?: Partial<LocalPorts>;
  /** Builds the images and returns a function that imports them into containerd. */
  prepareImages?: () => Promise<(containerdSocket: string) => Promise<void>>;
  /** Where role output goes: the terminal, or one log file per role in this directory. */
  roleOutput?: 'inherit' | { dir: string };
  log?: (line: string) => void;
  onRoleExit?: (role: string, code: number | null, signal: string | null) => void;
  readyTimeoutMs?: number;
}

export interface RunningSystem {
  kubeconfigPath: string;
  topology: LocalTopology;
  plane?: ControlPlane;
  roles: Map<string, ChildProcess>;
  /** Why no node runs, when none does. */
  noNodeReason?: string;
  stop(): Promise<void>;
}

export const SYSTEM_ROLES = ['operator', 'webhook', 'api', 'model'] as const;

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '0.0.0.0', () => srv.close(() => resolve(true)));
  });
}

async function checkPorts(ports: LocalPorts): Promise<void> {
  for (const [name, port] of Object.entries(ports)) {
    if (!(await portFree(port)))
      throw new StartRefused(`port ${port} (${name}) is in use: stop what holds it, or another npm start`);
  }
}

function ensurePrerequisites(log: (l: string) => void): void {
  const r = spawnSync('bash', [join(HACK_DIR, 'prereqs.sh')], { stdio: ['ignore', 'inherit', 'pipe'] });
  if (r.status !== 0) log(r.stderr.toString().trim() || 'hack/prereqs.sh failed');
  if (findBinary('kube-apiserver') && findBinary('kubelet') && findBinary('kube-controller-manager')) return;
  log('building the local cluster binaries (first run only; needs Go)...');
  const b = spawnSync('bash', [join(HACK_DIR, 'build-control-plane.sh')], { stdio: 'inherit' });
  if (b.status !== 0)
    throw new StartRefused(
      'the local control plane could not be built; set KUBECONFIG to an existing cluster',
    );
}

async function startLocalCluster(
  o: SystemOptions,
  log: (l: string) => void,
): Promise<{ plane: ControlPlane; noNodeReason?: string }> {
  let noNodeReason = o.node === 'off' ? 'node off' : undefined;
  if (!noNodeReason) {
    const problems = nodeProblems(await gatherHostFacts(findNodeBinary));
    if (problems.length) noNodeReason = problems.join('; ');
  }
  if (!noNodeReason) {
    try {
      const loadImages = await o.prepareImages?.();
      return { plane: await startControlPlane({ log, node: loadImages ? { loadImages } : {} }) };
    } catch (err) {
      if (!(err instanceof NodeUnavailable)) throw err;
      noNodeReason = err.message;
    }
  }
  log(`no local node (${noNodeReason}): running the control plane alone; pods stay Pending`);
  return { plane: await startControlPlane({ log }), noNodeReason };
}

/** Role pid files: a run killed outright leaves its roles holding ports; the next run reaps them. */
const rolesStateDir = (): string => join(cacheRoot(), 'roles');

function recordRole(child: ChildProcess): void {
  if (!child.pid) return;
  const file = join(rolesStateDir(), `${child.pid}.pid`);
  mkdirSync(rolesStateDir(), { recursive: true });
  writeFileSync(file, `${process.execPath}\n-\n${process.pid}\n`);
  child.once('exit', () => rmSync(file, { force: true }));
}

function spawnRole(
  role: string,
  env: Record<string, string>,
  output: SystemOptions['roleOutput'],
): ChildProcess {
  const child = spawnRoleProcess(role, env, output);
  recordRole(child);
  return child;
}

function spawnRoleProcess(
  role: string,
  env: Record<string, string>,
  output: SystemOptions['roleOutput'],
): ChildProcess {
  const args = [join(REPO_ROOT, 'bin', 'platform.js'), 'run', role];
  if (output === undefined || output === 'inherit')
    return spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  mkdirSync(output.dir, { recursive: true });
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const file = createWriteStream(join(output.dir, `${role}.log`), { flags: 'a' });
  child.stdout?.pipe(file);
  child.stderr?.pipe(file);
  return child;
}

const hasExited = (c: ChildProcess): boolean => c.exitCode !== null || c.signalCode !== null;

/** Whether the role answers its readiness URL; a role that already exited fails the start. */
async function roleReady(role: string, url: string, child: ChildProcess | undefined): Promise<boolean> {
  if (child && hasExited(child))
    throw new Error(`role ${role} exited (${child.exitCode ?? child.signalCode}) before it was ready`);
  return fetch(url, { signal: AbortSignal.timeout(2000) })
    .then((r) => r.ok)
    .catch(() => false);
}

async function waitReady(
  urls: Map<string, string>,
  roles: Map<string, ChildProcess>,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(urls.keys());
  while (pending.size > 0) {
    for (const role of pending) {
      if (await roleReady(role, urls.get(role) ?? '', roles.get(role))) pending.delete(role);
    }
    if (pending.size === 0) return;
    if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms: ${[...pending].join(', ')}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

function stopChild(c: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (hasExited(c)) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGTERM');
    setTimeout(() => c.kill('SIGKILL'), 10_000).unref();
  });
}

function reapStaleRoles(log: (line: string) => void): void {
  const reaped = reapStale(rolesStateDir());
  if (reaped) log(`stopped ${reaped} role process(es) left by an earlier run that was killed`);
}

/** The cluster in KUBECONFIG when given, else a local control plane (with a node when it can run one). */
async function connectCluster(
  o: SystemOptions,
  log: (line: string) => void,
): Promise<{ plane?: ControlPlane; noNodeReason?: string; kubeconfigPath: string }> {
  if (o.kubeconfig) return { noNodeReason: 'the cluster in KUBECONFIG', kubeconfigPath: o.kubeconfig };
  ensurePrerequisites(log);
  const { plane, noNodeReason } = await startLocalCluster(o, log);
  return { plane, noNodeReason, kubeconfigPath: plane.kubeconfigPath };
}

function topologyOf(o: SystemOptions, ports: LocalTopology['ports'], node: boolean): LocalTopology {
  return {
    namespace: o.namespace ?? 'platform-system',
    ports,
    node,
    leaderElection: o.leaderElection ?? true,
  };
}

async function registerWebhooks(
  kc: k8s.KubeConfig,
  port: number,
  log: (line: string) => void,
): Promise<void> {
  const names = await registerLocalWebhooks(kc, join(REPO_ROOT, 'config'), port);
  log(`registered ${names.join(', ')} at https://127.0.0.1:${port}`);
}

export async function startSystem(o: SystemOptions = {}): Promise<RunningSystem> {
  const log = o.log ?? (() => undefined);
  const ports = { ...DEFAULT_PORTS, ...o.ports };
  reapStaleRoles(log);
  await checkPorts(ports);
  const { plane, noNodeReason, kubeconfigPath } = await connectCluster(o, log);
  const topology = topologyOf(o, ports, Boolean(plane?.node));
  const roles = new Map<string, ChildProcess>();
  let stopping = false;
  const stop = async (): Promise<void> => {
    stopping = true;
    await Promise.all([...roles.values()].map(stopChild));
    await plane?.stop();
  };
  try {
    const kc = loadKubeConfig(kubeconfigPath);
    const crds = await installCrds(kc);
    log(`installed ${crds.length} CRDs`);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await createUnlessExists(core.createNamespace({ body: { metadata: { name: topology.namespace } } }));
    const wanted = [...(o.roles ?? SYSTEM_ROLES)];
    // Only a local cluster reaches webhooks at 127.0.0.1.
    if (plane && wanted.includes('webhook')) await registerWebhooks(kc, ports.webhook, log);
    for (const role of wanted) {
      const child = spawnRole(role, roleEnv(role, topology, kubeconfigPath), o.roleOutput);
      child.on('exit', (code, signal) => {
        if (!stopping) o.onRoleExit?.(role, code, signal);
      });
      roles.set(role, child);
    }
    const urls = new Map(wanted.map((r) => [r, readinessUrl(r, topology)]));
    await waitReady(urls, roles, o.readyTimeoutMs);
  } catch (err) {
    await stop();
    throw err;
  }
  return { kubeconfigPath, topology, plane, roles, ...(noNodeReason ? { noNodeReason } : {}), stop };
}
