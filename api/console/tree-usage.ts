// The agent's pod and its resource usage for the subagent tree: the pod by
// its agent label, the usage from the kubelet's stats summary through the
// apiserver (`GET /api/v1/nodes/{node}/proxy/stats/summary`), one summary per
// node cached for a few seconds, each call bounded. Whatever cannot be read
// (no pod, no RBAC, kubelet unreachable) is a reason, never an error.
import * as k8s from '@kubernetes/client-node';
import { LABEL } from '../../contract/kube.ts';
import type { Logger } from '../../base/log.ts';
import type { AgentPod, PodResources, PodSummary } from './tree.ts';

export interface PodUsageSource {
  summary(namespace: string, agentName: string): Promise<PodSummary>;
}

/** The kubelet's summary is this old at most when served again. */
export const STATS_TTL_MS = 10_000;
/** The longest a pod lookup or a stats read may take. */
export const KUBE_TIMEOUT_MS = 3_000;

const unavailable = (reason: string): PodResources => ({
  cpu_millicores: null,
  memory_bytes: null,
  reason,
});

interface PodLike {
  metadata?: { name?: string; creationTimestamp?: Date | string; deletionTimestamp?: Date | string };
  spec?: { nodeName?: string };
  status?: { phase?: string };
}

/** The agent's pod: not being deleted, Running first, then the newest. */
export function pickPod(pods: readonly PodLike[]): (AgentPod & { node: string | null }) | undefined {
  const live = pods.filter((p) => p.metadata?.name && !p.metadata.deletionTimestamp);
  const rank = (p: PodLike): string =>
    `${p.status?.phase === 'Running' ? 1 : 0}|${new Date(p.metadata?.creationTimestamp ?? 0).toISOString()}`;
  const pod = [...live].sort((a, b) => rank(b).localeCompare(rank(a)))[0];
  if (!pod) return undefined;
  return {
    name: pod.metadata?.name ?? '',
    phase: pod.status?.phase ?? 'Unknown',
    node: pod.spec?.nodeName ?? null,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;

/** The pod's CPU (millicores) and memory (working set, bytes) in a kubelet stats summary. */
export function podResourcesOf(summary: unknown, namespace: string, pod: string): PodResources {
  const pods = isObject(summary) && Array.isArray(summary.pods) ? (summary.pods as unknown[]) : undefined;
  if (!pods) return unavailable('the kubelet answered no pod stats');
  const entry = pods.find(
    (p) => isObject(p) && isObject(p.podRef) && p.podRef.name === pod && p.podRef.namespace === namespace,
  ) as Record<string, Record<string, unknown> | undefined> | undefined;
  if (!entry) return unavailable('the kubelet has no stats for the pod yet');
  const nanoCores = count(entry.cpu?.usageNanoCores);
  const bytes = count(entry.memory?.workingSetBytes);
  if (nanoCores === null && bytes === null) return unavailable('the kubelet reported no usage for the pod');
  return {
    cpu_millicores: nanoCores === null ? null : Math.round(nanoCores / 1e6),
    memory_bytes: bytes,
    reason: null,
  };
}

/** Why a Kubernetes call failed, in a few words (never a body: it could echo anything). */
export function problemOf(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === 403) return 'forbidden';
  if (code === 404) return 'not found';
  if (typeof code === 'number') return `HTTP ${code}`;
  if (err instanceof Error && err.message === 'timeout') return `no answer within ${KUBE_TIMEOUT_MS} ms`;
  return 'unreachable';
}

function bounded<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const parsed = (body: unknown): unknown => {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
};

export interface KubePodUsageOptions {
  log: Logger;
  now?: () => number;
  timeoutMs?: number;
}

/** The cluster's pods and kubelet summaries, through the apiserver the API already talks to. */
export function kubePodUsage(kc: k8s.KubeConfig, o: KubePodUsageOptions): PodUsageSource {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const now = o.now ?? Date.now;
  const timeoutMs = o.timeoutMs ?? KUBE_TIMEOUT_MS;
  const cache = new Map<string, { at: number; summary: Promise<unknown> }>();

  const nodeSummary = (node: string): Promise<unknown> => {
    const hit = cache.get(node);
    if (hit && now() - hit.at < STATS_TTL_MS) return hit.summary;
    const summary = bounded(
      core.connectGetNodeProxyWithPath({ name: node, path: 'stats/summary' }),
      timeoutMs,
    )
      .then(parsed)
      .catch((err: unknown) => {
        cache.delete(node);
        throw err;
      });
    // Bounded by the nodes the agents run on; entries past their time are replaced.
    cache.set(node, { at: now(), summary });
    return summary;
  };

  const resources = async (namespace: string, pod: AgentPod, node: string | null): Promise<PodResources> => {
    if (!node) return unavailable('the pod is not scheduled to a node');
    if (pod.phase !== 'Running') return unavailable(`the pod is ${pod.phase}`);
    try {
      return podResourcesOf(await nodeSummary(node), namespace, pod.name);
    } catch (err) {
      o.log.debug({ node, problem: problemOf(err) }, 'kubelet stats unavailable');
      return unavailable(`kubelet stats: ${problemOf(err)}`);
    }
  };

  return {
    async summary(namespace, agentName) {
      let pods: PodLike[];
      try {
        const list = await bounded(
          core.listNamespacedPod({ namespace, labelSelector: `${LABEL.agent}=${agentName}` }),
          timeoutMs,
        );
        pods = list.items;
      } catch (err) {
        const problem = `pods: ${problemOf(err)}`;
        return { pod: null, lookupProblem: problem, resources: unavailable(problem) };
      }
      const found = pickPod(pods);
      if (!found) return { pod: null, resources: unavailable('the agent has no pod') };
      const { node, ...pod } = found;
      return { pod, resources: await resources(namespace, pod, node) };
    },
  };
}
