// An operator killed (SIGKILL) in the middle of reconciling a workspace of
// many agents: a fresh operator converges to the same end state, without
// duplicating or regenerating what the first one already made, and with one
// gateway key per agent.
import type * as k8s from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, useNamespace } from './harness.ts';
import { startOperator } from './operator-process.ts';
import { Platform } from './platform-client.ts';

const ns = useNamespace('operator-restart');
const p = new Platform(() => ns.name);
const AGENTS = 40;

const env = (): Record<string, string> => ({
  PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
  PLATFORM_API_NAMESPACE: ns.name,
  PLATFORM_LEADER_ELECTION_LEASE_DURATION: '3s',
  PLATFORM_LEADER_ELECTION_RENEW_DEADLINE: '2s',
  PLATFORM_LEADER_ELECTION_RETRY_PERIOD: '500ms',
  PLATFORM_CONTROLLER_WORKERS: '1',
});

const secretsWith = (labelSelector: string) =>
  p.core.listNamespacedSecret({ namespace: ns.name, labelSelector });

/** The agents' OAuth client Secrets (their gateway key Secrets carry the agent label too). */
async function oauthSecrets(): Promise<{ items: Awaited<ReturnType<typeof secretsWith>>['items'] }> {
  const all = await secretsWith('platform.io/agent');
  return { items: all.items.filter((s) => s.metadata?.name?.endsWith('-oauth-client')) };
}

async function podCount(): Promise<number> {
  const pods = await p.core.listNamespacedPod({ namespace: ns.name, labelSelector: 'platform.io/agent' });
  return pods.items.length;
}

beforeAll(async () => {
  await p.create('PlatformWorkspace', 'big', {
    defaults: { owners: [{ subject: 'alice@example.com', role: 'Owner' }] },
    agents: Array.from({ length: AGENTS }, (_, i) => ({ name: `agent-${i}`, model: { id: 'gpt-4o' } })),
  });
});

interface AgentItem {
  metadata: { name: string };
  status?: { phase?: string; oauthClientId?: string };
}

async function listAgents(): Promise<AgentItem[]> {
  const list = (await p.custom.listNamespacedCustomObject({
    group: 'platform.io',
    version: 'v1alpha1',
    plural: 'platformagents',
    namespace: ns.name,
  })) as { items: AgentItem[] };
  return list.items;
}

const pendingWithClient = (a: AgentItem): boolean =>
  a.status?.phase === 'pending' && Boolean(a.status.oauthClientId);

/** Every OAuth client Secret made before the kill is the same object, with the same client secret, after it. */
function expectKept(before: k8s.V1Secret[], after: k8s.V1Secret[]): void {
  for (const b of before) {
    const a = after.find((s) => s.metadata?.name === b.metadata?.name);
    expect(a?.metadata?.uid).toBe(b.metadata?.uid);
    expect(a?.data?.client_secret).toBe(b.data?.client_secret);
  }
}

/** Each Secret's client id is the one its agent's status names. */
function expectClientIdsOf(agents: AgentItem[], secrets: k8s.V1Secret[]): void {
  const byName = new Map(agents.map((a) => [a.metadata.name, a.status?.oauthClientId]));
  for (const s of secrets) {
    const agent = s.metadata?.labels?.['platform.io/agent'] ?? '';
    expect(Buffer.from(s.data?.client_id ?? '', 'base64').toString()).toBe(byName.get(agent));
  }
}

describe('operator killed mid-reconcile', () => {
  it('converges after a restart: every agent gets its pod, and existing OAuth clients are kept', async () => {
    const first = await startOperator({ namespace: ns.name, identity: 'restart-a', env: env() });
    await eventually(async () => ((await podCount()) >= 3 ? true : undefined), 'the first pods', 30_000);
    first.kill('SIGKILL');
    await first.exited;
    const secretsBefore = await oauthSecrets();
    const madeBefore = await podCount();
    console.log(
      `[operator-restart] killed after ${madeBefore}/${AGENTS} pods, ${secretsBefore.items.length} Secrets`,
    );
    expect(madeBefore).toBeLessThan(AGENTS);

    const second = await startOperator({ namespace: ns.name, identity: 'restart-b', env: env() });
    await eventually(async () => ((await podCount()) === AGENTS ? true : undefined), 'every pod', 60_000);
    const agents = await eventually(
      async () => {
        const items = await listAgents();
        return items.length === AGENTS && items.every(pendingWithClient) ? items : undefined;
      },
      'every agent pending with its OAuth client',
      60_000,
    );
    const secretsAfter = await oauthSecrets();
    expect(secretsAfter.items).toHaveLength(AGENTS);
    // One gateway key per agent: a record a kill left without its Secret was removed before a new mint.
    const keys = await eventually(async () => {
      const list = await secretsWith('platform.io/api-key=true');
      return list.items.length === AGENTS ? list : undefined;
    }, 'one gateway key record per agent');
    expect(new Set(keys.items.map((k) => k.metadata?.labels?.['platform.io/agent-uid'])).size).toBe(AGENTS);
    expectKept(secretsBefore.items, secretsAfter.items);
    expectClientIdsOf(agents, secretsAfter.items);
    expect(second.child.exitCode).toBeNull();
  }, 180_000);
});
