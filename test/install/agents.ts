// Agents and their pods on the installed cluster, and one call to an agent's
// reference runtime inside its pod (the same calls as test/e2e/agents.ts, on
// this project's cluster).
import { expect } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { eventually, kubeConfig } from './support.ts';

export interface AgentRef {
  namespace: string;
  name: string;
}

interface Condition {
  type: string;
  status: string;
}
export interface AgentObject {
  metadata: { name: string; namespace: string };
  status?: { conditions?: Condition[] };
}

const AGENTS = { group: 'platform.io', version: 'v1alpha1', plural: 'platformagents' } as const;

export async function listAgents(): Promise<AgentObject[]> {
  const custom = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  return ((await custom.listClusterCustomObject(AGENTS)) as { items: AgentObject[] }).items;
}

async function readAgent(a: AgentRef): Promise<AgentObject> {
  const custom = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  return (await custom.getNamespacedCustomObject({ ...AGENTS, ...a })) as AgentObject;
}

/** Every container the pod declares, init containers (native sidecars) first. */
export const containerNames = (pod: k8s.V1Pod): string[] =>
  [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);

/** Waits until the agent says Ready (its pod Running, every container and sidecar ready). */
export async function waitAgentReady(a: AgentRef, timeoutMs = 300_000): Promise<k8s.V1Pod> {
  await eventually(
    async () => {
      const agent = await readAgent(a);
      return agent.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')
        ? agent
        : undefined;
    },
    `agent ${a.namespace}.${a.name} Ready`,
    timeoutMs,
  ).catch(async (err: unknown) => {
    const agent = await readAgent(a).catch(() => undefined);
    throw new Error(`${String(err)}; conditions: ${JSON.stringify(agent?.status?.conditions)}`);
  });
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  const pod = await core.readNamespacedPod({ namespace: a.namespace, name: `agent-${a.name}` });
  expect(pod.status?.phase).toBe('Running');
  return pod;
}

export { askAgent, type AskAnswer } from '../fixtures/ask-agent.ts';
