// Reading agents and their pods on the e2e cluster, and asking an agent's
// reference runtime (inside its pod) to make one model call now.
import { expect } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { eventually, kubeConfig } from './support.ts';

export interface AgentRef {
  namespace: string;
  name: string;
}

export const agentId = (a: AgentRef): string => `${a.namespace}.${a.name}`;
export const podName = (a: AgentRef): string => `agent-${a.name}`;

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
export interface AgentObject {
  metadata: { name: string; namespace: string; deletionTimestamp?: string };
  spec: { owners?: { subject: string; role: string }[]; auditMode?: string };
  status?: { phase?: string; conditions?: Condition[] };
}

const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const core = (): k8s.CoreV1Api => kubeConfig().makeApiClient(k8s.CoreV1Api);

export async function listAgents(): Promise<AgentObject[]> {
  const list = (await custom().listClusterCustomObject({
    group: 'platform.io',
    version: 'v1alpha1',
    plural: 'platformagents',
  })) as { items: AgentObject[] };
  return list.items;
}

export async function readAgent(a: AgentRef): Promise<AgentObject> {
  return (await custom().getNamespacedCustomObject({
    group: 'platform.io',
    version: 'v1alpha1',
    plural: 'platformagents',
    namespace: a.namespace,
    name: a.name,
  })) as AgentObject;
}

export const condition = (agent: AgentObject, type: string): Condition | undefined =>
  agent.status?.conditions?.find((c) => c.type === type);

export async function readPod(a: AgentRef): Promise<k8s.V1Pod | undefined> {
  return core()
    .readNamespacedPod({ namespace: a.namespace, name: podName(a) })
    .catch(() => undefined);
}

/** Waits until the agent says Ready (its pod Running, every container and sidecar ready). */
export async function waitAgentReady(a: AgentRef, timeoutMs = 240_000): Promise<k8s.V1Pod> {
  await eventually(
    async () => {
      const agent = await readAgent(a);
      const ready = condition(agent, 'Ready');
      return ready?.status === 'True' ? agent : undefined;
    },
    `agent ${agentId(a)} Ready`,
    timeoutMs,
  ).catch(async (err: unknown) => {
    const agent = await readAgent(a).catch(() => undefined);
    throw new Error(`${String(err)}; conditions: ${JSON.stringify(agent?.status?.conditions)}`);
  });
  const pod = await readPod(a);
  expect(pod?.status?.phase).toBe('Running');
  return pod!;
}

export { askAgent, type AskAnswer } from '../fixtures/ask-agent.ts';
