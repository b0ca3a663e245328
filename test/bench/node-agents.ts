// On the real node: time from `kubectl apply` of a workspace with 20 agents to
// all 20 agents Ready (pods Running, every sidecar ready), and the Gateway's
// added latency measured inside a real pod (its own histogram: total time less
// the slowest auditor) beside the end-to-end figures. For the loopback figure
// of the same quantity run `npm run bench -- gateway`.
// Run: npm run bench -- node-agents   (needs root and a node; starts its own system)
import { stringify } from 'yaml';
import { prepareLocalImages } from '../../hack/images/local.ts';
import { findBinary } from '../../hack/control-plane/paths.ts';
import { startSystem } from '../../hack/system/system.ts';
import { modelBaseUrl } from '../../hack/system/roles.ts';
import { spawnSync } from 'node:child_process';
import { k8s, loadKubeConfig } from '../../base/kube.ts';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 20);
const CALLS = Number(process.env.BENCH_CALLS ?? 40);
const NAMESPACE = 'bench';
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

function workspace(): string {
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } };
  const ws = {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformWorkspace',
    metadata: { name: 'bench', namespace: NAMESPACE },
    spec: {
      displayName: 'Bench',
      defaults: { owners: [{ subject: 'bench@example.com', role: 'Owner' }] },
      agents: Array.from({ length: AGENTS }, (_, i) => ({ name: `a${i}`, model: { id: 'local-echo' } })),
    },
  };
  return `${stringify(ns)}---\n${stringify(ws)}`;
}

async function readyAgents(custom: k8s.CustomObjectsApi): Promise<number> {
  const list = (await custom.listNamespacedCustomObject({
    group: 'platform.io',
    version: 'v1alpha1',
    plural: 'platformagents',
    namespace: NAMESPACE,
  })) as { items: { status?: { conditions?: { type: string; status: string }[] } }[] };
  return list.items.filter((a) =>
    a.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;
}

async function timed(call: () => Promise<Response>): Promise<number> {
  const t0 = performance.now();
  const res = await call();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return performance.now() - t0;
}

/** Mean of a Prometheus histogram over all its label sets, in ms. */
function histogramMean(metrics: string, name: string): { mean: number; count: number } {
  const total = (suffix: string): number =>
    metrics
      .split('\n')
      .filter((l) => l.startsWith(`${name}_${suffix}`))
      .reduce((acc, l) => acc + Number(l.split(' ').pop()), 0);
  const count = total('count');
  return { mean: count ? (total('sum') / count) * 1000 : NaN, count };
}

async function main(): Promise<void> {
  const system = await startSystem({
    prepareImages: () => prepareLocalImages(() => undefined),
    roleOutput: { dir: `/tmp/platform-bench-${process.pid}` },
  });
  try {
    if (!system.topology.node) throw new Error(`no node: ${system.noNodeReason}`);
    const kc = loadKubeConfig(system.kubeconfigPath);
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const t0 = Date.now();
    const apply = spawnSync(
      findBinary('kubectl')!,
      ['--kubeconfig', system.kubeconfigPath, 'apply', '-f', '-'],
      {
        input: workspace(),
        encoding: 'utf8',
      },
    );
    if (apply.status !== 0) throw new Error(apply.stderr);
    let ready = 0;
    while ((ready = await readyAgents(custom)) < AGENTS) {
      if (Date.now() - t0 > 900_000) throw new Error(`only ${ready}/${AGENTS} Ready after 15 min`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    console.log(`${AGENTS} agents: kubectl apply → all Ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const pod = await core.readNamespacedPod({ namespace: NAMESPACE, name: 'agent-a0' });
    const ip = pod.status?.podIP;
    const body = (prompt: string): string => JSON.stringify({ prompt });
    const direct = JSON.stringify({
      model: 'local-echo',
      messages: [{ role: 'user', content: 'What is 2+2?' }],
    });
    const viaAgent: number[] = [];
    const toModel: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      viaAgent.push(
        await timed(() =>
          fetch(`http://${ip}:8080/v1/ask`, {
            method: 'POST',
            body: body('What is 2+2?'),
            headers: { 'content-type': 'application/json' },
          }),
        ),
      );
      toModel.push(
        await timed(() =>
          fetch(`${modelBaseUrl(system.topology)}/chat/completions`, {
            method: 'POST',
            body: direct,
            headers: { 'content-type': 'application/json' },
          }),
        ),
      );
    }
    const metrics = await (await fetch(`http://${ip}:8099/metrics`)).text();
    const added = histogramMean(metrics, 'platform_gateway_added_seconds');
    const f = (xs: number[]): string => `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms`;
    console.log(`agent /v1/ask in a pod (redirect → gateway → 4 auditors ×2 phases → model): ${f(viaAgent)}`);
    console.log(`the model called directly from the host:                                   ${f(toModel)}`);
    console.log(
      `gateway added latency inside the pod (its histogram, total − slowest auditor): mean ${added.mean.toFixed(2)} ms over ${added.count} decisions`,
    );
  } finally {
    await system.stop();
  }
}

await main();
