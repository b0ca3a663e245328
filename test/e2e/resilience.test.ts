// Bad days on a real node: a sidecar that stops answering makes its agent not
// Ready, named in the condition, and it recovers; the container runtime
// killed under running pods: the node and the agent show it meanwhile
// (NodeNotReady), and the same pods are Ready again once the runtime is back.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { pidsMatching } from '../../hack/control-plane/process-group.ts';
import { kubepodsCgroups } from '../../hack/node/cleanup.ts';
import { askAgent, condition, readAgent, readPod, waitAgentReady, type AgentRef } from './agents.ts';
import { eventually, kubectlOk } from './support.ts';

const STURDY: AgentRef = { namespace: 'e2e-sturdy', name: 'sturdy' };

/** Host pids of a container, found through its cgroup (named by the container id). */
function containerPids(containerId: string): number[] {
  const pidsRoot = kubepodsCgroups().find((d) => d.includes('/pids/')) ?? kubepodsCgroups()[0];
  const found: number[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const child = join(dir, entry);
      if (!statSync(child).isDirectory()) continue;
      if (entry.endsWith(containerId)) {
        found.push(
          ...readFileSync(join(child, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number),
        );
      } else walk(child);
    }
  };
  if (pidsRoot) walk(pidsRoot);
  return found;
}

function nodeReady(): { status: string; message?: string } | undefined {
  const node = JSON.parse(kubectlOk(['get', 'node', 'platform-node', '-o', 'json'])) as {
    status: { conditions: { type: string; status: string; message?: string }[] };
  };
  return node.status.conditions.find((c) => c.type === 'Ready');
}

describe('resilience on a real node', () => {
  beforeAll(async () => {
    kubectlOk(['apply', '-f', join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'sturdy.yaml')]);
    await waitAgentReady(STURDY);
  });

  it('names a sidecar that stops answering in the Ready condition, and recovers', async () => {
    const pod = (await readPod(STURDY))!;
    const status = pod.status?.initContainerStatuses?.find((s) => s.name === 'auditor-toxicity');
    const id = status?.containerID?.replace(/^containerd:\/\//, '') ?? '';
    const pids = containerPids(id);
    expect(pids.length, 'the toxicity sidecar has processes').toBeGreaterThan(0);
    // A hung process: it holds its port but answers nothing, so its probes fail.
    pids.forEach((pid) => process.kill(pid, 'SIGSTOP'));
    try {
      const ready = await eventually(async () => {
        const c = condition(await readAgent(STURDY), 'Ready');
        return c?.status === 'False' ? c : undefined;
      }, 'the agent not Ready');
      expect(ready.reason).toBe('SidecarNotReady');
      expect(ready.message).toContain('auditor-toxicity');
    } finally {
      pids.forEach((pid) => process.kill(pid, 'SIGCONT'));
    }
    await waitAgentReady(STURDY);
  });

  it('keeps the pods through a runtime that was killed; the node and the agent show it meanwhile', async () => {
    const before = (await readPod(STURDY))!;
    // A runtime that stays down: killed every time it comes back, until the
    // node reports it (kubelet's runtime check), for at most two minutes.
    const nodeDown = eventually(
      () => {
        const ready = nodeReady();
        return ready?.status === 'False' ? ready : undefined;
      },
      'the node NotReady while the runtime is down',
      120_000,
    );
    let settled = false;
    void nodeDown.finally(() => (settled = true)).catch(() => undefined);
    while (!settled) {
      for (const pid of pidsMatching(/^\/usr\/bin\/containerd --config=\/var\/lib\/agent-platform/))
        process.kill(pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 300));
    }
    const shown = await nodeDown;
    expect(shown.message).toMatch(/runtime/i);
    // Still down: the node's pods are marked not ready, and so is the agent.
    const agentDown = eventually(
      async () => {
        const c = condition(await readAgent(STURDY), 'Ready');
        return c?.status === 'False' ? c : undefined;
      },
      'the agent not Ready while its node is',
      90_000,
    );
    settled = false;
    void agentDown.finally(() => (settled = true)).catch(() => undefined);
    while (!settled) {
      for (const pid of pidsMatching(/^\/usr\/bin\/containerd --config=\/var\/lib\/agent-platform/))
        process.kill(pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 300));
    }
    const agentShown = await agentDown;
    expect(agentShown.reason).toBe('NodeNotReady');
    expect(agentShown.message).toMatch(/platform-node is not ready .*runtime/);
    // The runtime comes back (the node restarts it); the same pod is Ready again and answers.
    await eventually(
      () => (nodeReady()?.status === 'True' ? true : undefined),
      'the node Ready again',
      180_000,
    );
    const after = await waitAgentReady(STURDY, 300_000);
    expect(after.metadata?.uid).toBe(before.metadata?.uid);
    const { http, body } = await askAgent(after, 'What is 2+2?');
    expect(http).toBe(200);
    expect(body.decision).toBe('allow');
  });
});
