// Waits for the node to register and report Ready, failing early (with the
// log to read) when one of its processes exits.
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { ManagedProcess } from '../control-plane/process-group.ts';

export class NodeNotReady extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeNotReady';
  }
}

function readyCondition(node: {
  status?: { conditions?: { type: string; status: string; message?: string }[] };
}): { status: string; message?: string } | undefined {
  return node.status?.conditions?.find((c) => c.type === 'Ready');
}

export async function waitNodeReady(
  kubeconfigPath: string,
  name: string,
  procs: readonly ManagedProcess[],
  timeoutMs: number,
): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const core = kc.makeApiClient(CoreV1Api);
  const deadline = Date.now() + timeoutMs;
  let last = 'not registered';
  while (Date.now() < deadline) {
    const dead = procs.find((p) => p.child.exitCode !== null || p.child.signalCode !== null);
    if (dead)
      throw new NodeNotReady(
        `${dead.name} exited (${dead.child.exitCode ?? dead.child.signalCode}); see ${dead.logPath}`,
      );
    try {
      const ready = readyCondition(await core.readNode({ name }));
      if (ready?.status === 'True') return;
      last = ready?.message ?? 'no Ready condition yet';
    } catch {
      last = 'not registered';
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new NodeNotReady(`node ${name} not Ready after ${timeoutMs} ms: ${last}`);
}
