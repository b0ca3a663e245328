// Operator scale: 1,000 PlatformAgents in 10 workspaces reconciled from
// scratch on a local control plane (etcd + kube-apiserver +
// kube-controller-manager, no kubelet). Prints the time until every agent
// pod exists, apiserver requests per agent made by the operator (counted by
// the apiserver, the operator authenticating as its own ServiceAccount) and
// the operator's peak RSS. Figures only; no assertions.
//
// A workspace lists at most 64 agents (schema), so each workspace lists 50
// in spec.agents (created by the workspace controller) and 50 more are
// applied as PlatformAgents naming the workspace. The operator runs as the
// compiled JavaScript the image ships, under its ServiceAccount and
// config/rbac/operator.yaml. BENCH_NODE_ARGS passes V8 flags (e.g. --cpu-prof);
// BENCH_OPERATOR_ENV (JSON) extra settings.
import { spawn, spawnSync } from 'node:child_process';
import { installCrds } from '../../crds/install.ts';
import { appendFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startControlPlane } from '../../hack/control-plane/control-plane.ts';
import { k8s, loadKubeConfig } from '../../base/kube.ts';
import { OPERATOR_NAMESPACE, cpuSeconds, operatorIdentity, peakRssMb } from './operator-scale/cluster.ts';
import { API_VERSION } from '../../contract/kube.ts';

const WORKSPACES = 10;
const PER_WORKSPACE = 100;
const LISTED = 50;
const TOTAL = WORKSPACES * PER_WORKSPACE;
const ROOT = join(import.meta.dirname, '..', '..');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const owners = [{ subject: 'owner@example.com', role: 'Owner' }];

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/**
 * Compiles the sources as the container image does (`tsc -p tsconfig.build.json`) into a
 * cache directory, so the figures are those of the shipped JavaScript, not of tsx.
 */
function compileOperator(): string {
  const outDir = join(ROOT, 'node_modules', '.cache', 'platform-bench', 'dist');
  spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      outDir,
      '--sourceMap',
      'false',
    ],
    {
      cwd: ROOT,
      stdio: 'ignore',
    },
  );
  const main = join(outDir, 'operator', 'main.js');
  if (!existsSync(main)) throw new Error(`compiling the operator produced no ${main}`);
  return main;
}

function startOperator(
  main: string,
  kubeconfig: string,
  logPath: string,
): { pid: number; port: Promise<number>; stop: () => void } {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, main, 'run', 'operator'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      KUBECONFIG: kubeconfig,
      LOG_LEVEL: 'info',
      PLATFORM_OPERATOR_METRICS_PORT: '0',
      PLATFORM_LEADER_ELECTION: 'false',
      PLATFORM_AGENT_REQUIRE_INJECTION: 'false', // no webhook runs in the benchmark
      PLATFORM_KEYRING_SECRET: `${OPERATOR_NAMESPACE}/platform-keyring`,
      ...(process.env.BENCH_OPERATOR_ENV
        ? (JSON.parse(process.env.BENCH_OPERATOR_ENV) as Record<string, string>)
        : {}),
    },
  });
  const port = new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the operator exited with ${code}; see ${logPath}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      appendFileSync(logPath, `${line}\n`);
      if (line.includes('ops endpoints listening'))
        resolve(Number((JSON.parse(line) as { port: number }).port));
    });
  });
  return { pid: child.pid ?? 0, port, stop: () => child.kill('SIGTERM') };
}

async function waitReady(port: number): Promise<void> {
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    if (res?.status === 200) return;
    await sleep(100);
  }
}

async function createAll(kc: k8s.KubeConfig): Promise<void> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const group = { group: 'platform.io', version: 'v1alpha1' };
  const names = Array.from({ length: WORKSPACES }, (_, i) => `bench-ws-${i}`);
  await Promise.all(names.map((name) => core.createNamespace({ body: { metadata: { name } } })));
  await Promise.all(
    names.map((ns) =>
      custom.createNamespacedCustomObject({
        ...group,
        plural: 'platformworkspaces',
        namespace: ns,
        body: {
          apiVersion: API_VERSION,
          kind: 'PlatformWorkspace',
          metadata: { name: ns },
          spec: {
            defaults: { owners },
            agents: Array.from({ length: LISTED }, (_, i) => ({
              name: `listed-${i}`,
              model: { id: 'gpt-4o' },
            })),
          },
        },
      }),
    ),
  );
  const standalone = names.flatMap((ns) =>
    Array.from({ length: PER_WORKSPACE - LISTED }, (_, i) => ({ ns, name: `applied-${i}` })),
  );
  await inBatches(standalone, 25, ({ ns, name }) =>
    custom.createNamespacedCustomObject({
      ...group,
      plural: 'platformagents',
      namespace: ns,
      body: {
        apiVersion: API_VERSION,
        kind: 'PlatformAgent',
        metadata: { name },
        spec: { owners, workspace: ns, model: { id: 'gpt-4o' } },
      },
    }),
  );
}

/** The operator's own count of API requests, by method. */
async function operatorRequests(port: number): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(
    /^platform_operator_api_requests_total\{[^}]*method="(\w+)",resource="(\w+)"[^}]*\} (\d+)/gm,
  )) {
    const key = `${m[1]} ${m[2]}`;
    out[key] = (out[key] ?? 0) + Number(m[3]);
  }
  return out;
}

/** A gauge of the operator's default Node metrics, in MB. */
async function operatorGaugeMb(port: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return Number(line?.slice(line.lastIndexOf(' ') + 1) ?? 0) / 1024 / 1024;
}

const sum = (r: Record<string, number>): number => Object.values(r).reduce((a, b) => a + b, 0);

async function countPods(core: k8s.CoreV1Api): Promise<number> {
  const list = await core.listPodForAllNamespaces({ labelSelector: 'platform.io/agent' });
  return list.items.length;
}

async function main(): Promise<void> {
  const plane = await startControlPlane({ log: () => undefined });
  const operator = { stop: (): void => undefined } as ReturnType<typeof startOperator>;
  try {
    const kc = loadKubeConfig(plane.kubeconfigPath);
    await installCrds(kc);
    const logPath = join(tmpdir(), `platform-bench-operator-${process.pid}.log`);
    const started = startOperator(compileOperator(), await operatorIdentity(kc, plane), logPath);
    Object.assign(operator, started);
    const port = await started.port;
    await waitReady(port);
    const before = await operatorRequests(port);
    const idleRssMb = peakRssMb(started.pid);
    const cpuBefore = cpuSeconds(started.pid);
    const t0 = Date.now();
    await createAll(kc);
    const createdMs = Date.now() - t0;
    const core = kc.makeApiClient(k8s.CoreV1Api);
    let pods = 0;
    while ((pods = await countPods(core)) < TOTAL) {
      if (Date.now() - t0 > 600_000) throw new Error(`only ${pods}/${TOTAL} pods after 600 s`);
      await sleep(250);
    }
    const allPodsMs = Date.now() - t0;
    const cpuUsed = cpuSeconds(started.pid) - cpuBefore;
    await sleep(5000); // let trailing status writes land before counting
    const after = await operatorRequests(port);
    const byMethod = Object.entries(after)
      .map(([m, n]) => [m, n - (before[m] ?? 0)] as const)
      .filter(([, n]) => n > 0)
      .map(([m, n]) => `${m} ${n}`)
      .join(', ');
    const requests = sum(after) - sum(before);
    console.log(
      `agents: ${TOTAL} in ${WORKSPACES} workspaces (${LISTED} listed + ${PER_WORKSPACE - LISTED} applied per workspace)`,
    );
    console.log(`resources created by the benchmark in: ${(createdMs / 1000).toFixed(1)} s`);
    console.log(`time until every agent pod exists: ${(allPodsMs / 1000).toFixed(1)} s (target < 60 s)`);
    console.log(
      `operator API requests: ${requests} total (${byMethod}), ${(requests / TOTAL).toFixed(2)} per agent`,
    );
    console.log(`operator CPU until every pod existed: ${cpuUsed.toFixed(1)} s`);
    console.log(`operator log: ${logPath}`);
    const heapUsedMb = await operatorGaugeMb(port, 'nodejs_heap_size_used_bytes');
    const rssNowMb = await operatorGaugeMb(port, 'process_resident_memory_bytes');
    console.log(
      `operator after settling: heap used ${heapUsedMb.toFixed(0)} MB, RSS ${rssNowMb.toFixed(0)} MB`,
    );
    console.log(
      `operator peak RSS: ${peakRssMb(started.pid).toFixed(0)} MB (target < 250 MB; ${idleRssMb.toFixed(0)} MB before the first agent)`,
    );
  } finally {
    operator.stop();
    await sleep(500);
    await plane.stop();
  }
}

await main();
