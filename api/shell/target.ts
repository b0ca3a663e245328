// Where a shell runs: the agent's running pod (selected by LABEL.agent in its
// namespace) and, in it, the agent's own container (the first whose name does
// not start with `platform-`: those are the sidecars the webhook injects).
import type * as k8s from '@kubernetes/client-node';
import { conflict } from '../../base/http-error.ts';
import { LABEL } from '../../contract/kube.ts';

export interface ShellTarget {
  namespace: string;
  pod: string;
  container: string;
}

const SIDECAR_PREFIX = 'platform-';

const isLive = (pod: k8s.V1Pod): boolean =>
  pod.status?.phase === 'Running' && !pod.metadata?.deletionTimestamp && Boolean(pod.metadata?.name);

/** The pod and container a shell opens in, or undefined when no pod of the agent runs. Pure. */
export function pickTarget(pods: readonly k8s.V1Pod[]): ShellTarget | undefined {
  for (const pod of pods.filter(isLive)) {
    const container = pod.spec?.containers.find((c) => !c.name.startsWith(SIDECAR_PREFIX));
    if (!container) continue;
    return {
      namespace: pod.metadata?.namespace ?? '',
      pod: pod.metadata?.name ?? '',
      container: container.name,
    };
  }
  return undefined;
}

/** Lists the agent's pods and picks the target; 409 `agent_not_running` when none runs. */
export async function findShellTarget(
  core: k8s.CoreV1Api,
  namespace: string,
  agent: string,
): Promise<ShellTarget> {
  const pods = await core.listNamespacedPod({ namespace, labelSelector: `${LABEL.agent}=${agent}` });
  const target = pickTarget(pods.items);
  if (!target) throw conflict(`agent ${namespace}.${agent} has no running pod`, 'agent_not_running');
  return { ...target, namespace };
}
