// Several operator replicas: exactly one leads and reconciles; when it is
// killed another takes over within lease duration + retry period + a margin;
// on SIGTERM the leader releases the lease so a standby takes over at once.
import { describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

const ns = useNamespace('leader-election');
const resource = { group: GROUP, version: VERSION, plural: 'platformagents' };

const LEASE_DURATION_MS = 3000;
const RETRY_PERIOD_MS = 500;
/** Process scheduling, metrics polling and the apiserver round trips on a shared 2-core machine. */
const MARGIN_MS = 3000;
const shortLease = {
  PLATFORM_LEADER_ELECTION_LEASE: 'short',
  PLATFORM_LEADER_ELECTION_LEASE_DURATION: `${LEASE_DURATION_MS}ms`,
  PLATFORM_LEADER_ELECTION_RENEW_DEADLINE: '2000ms',
  PLATFORM_LEADER_ELECTION_RETRY_PERIOD: `${RETRY_PERIOD_MS}ms`,
};

async function leaseHolder(name: string): Promise<string | undefined> {
  const lease = await kubeConfig()
    .makeApiClient(k8s.CoordinationV1Api)
    .readNamespacedLease({ name, namespace: ns.name });
  return lease.spec?.holderIdentity;
}

async function leaders(procs: OperatorProcess[]): Promise<OperatorProcess[]> {
  const flags = await Promise.all(procs.map((p) => p.isLeader().catch(() => false)));
  return procs.filter((_, i) => flags[i]);
}

async function createAgent(name: string, owners: { subject: string; role: string }[]): Promise<void> {
  await kubeConfig()
    .makeApiClient(k8s.CustomObjectsApi)
    .createNamespacedCustomObject({
      ...resource,
      namespace: ns.name,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'PlatformAgent',
        metadata: { name },
        spec: { owners },
      },
    });
}

async function phase(name: string): Promise<string | undefined> {
  const agent = (await kubeConfig()
    .makeApiClient(k8s.CustomObjectsApi)
    .getNamespacedCustomObject({ ...resource, namespace: ns.name, name })) as { status?: { phase?: string } };
  return agent.status?.phase;
}

describe('leader election between operator processes', () => {
  it('elects exactly one leader, and a standby takes over when the leader is killed', async () => {
    const procs = await Promise.all(
      ['replica-a', 'replica-b'].map((identity) =>
        startOperator({
          namespace: ns.name,
          identity,
          env: { ...shortLease, PLATFORM_API_NAMESPACE: ns.name },
        }),
      ),
    );
    const [leader] = await eventually(async () => {
      const found = await leaders(procs);
      return found.length > 0 ? found : undefined;
    }, 'a leader');
    expect((await leaders(procs)).map((p) => p.identity)).toEqual([leader!.identity]);
    expect(await leaseHolder('short')).toBe(leader!.identity);
    await createAgent('before-failover', [{ subject: 'alice@example.com', role: 'Owner' }]);
    await eventually(
      async () => ((await phase('before-failover')) === 'pending' ? true : undefined),
      'the leader to reconcile',
    );

    const standby = procs.find((p) => p !== leader)!;
    const killedAtMs = Date.now();
    leader!.kill('SIGKILL');
    await leader!.exited;
    await eventually(
      async () => ((await standby.isLeader()) ? true : undefined),
      'the standby to take over',
      LEASE_DURATION_MS + RETRY_PERIOD_MS + MARGIN_MS,
    );
    const takeoverMs = Date.now() - killedAtMs;
    console.log(
      `[leader-election] takeover after SIGKILL in ${takeoverMs} ms (lease ${LEASE_DURATION_MS} ms, retry ${RETRY_PERIOD_MS} ms)`,
    );
    expect(await leaseHolder('short')).toBe(standby.identity);

    await createAgent('after-failover', []);
    await eventually(
      async () => ((await phase('after-failover')) === 'suspended' ? true : undefined),
      'the new leader to reconcile',
    );
    await standby.stop();
  });

  it('releases the lease on SIGTERM so a standby takes over well before the lease would expire', async () => {
    const longLease = {
      PLATFORM_LEADER_ELECTION_LEASE: 'long',
      PLATFORM_LEADER_ELECTION_LEASE_DURATION: '30s',
      PLATFORM_LEADER_ELECTION_RENEW_DEADLINE: '20s',
      PLATFORM_LEADER_ELECTION_RETRY_PERIOD: `${RETRY_PERIOD_MS}ms`,
    };
    const first = await startOperator({ namespace: ns.name, identity: 'graceful-first', env: longLease });
    await eventually(async () => ((await first.isLeader()) ? true : undefined), 'the first replica to lead');
    const second = await startOperator({ namespace: ns.name, identity: 'graceful-second', env: longLease });
    await eventually(
      async () => ((await leaseHolder('long')) === 'graceful-first' ? true : undefined),
      'the lease',
    );
    expect(await second.isLeader()).toBe(false);

    const stoppedAtMs = Date.now();
    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.hasLogged('released lease')).toBe(true);
    // Bounded well below the 30 s lease: only a released lease is taken this fast.
    await eventually(
      async () => ((await second.isLeader()) ? true : undefined),
      'the second replica to lead',
      10_000,
    );
    console.log(
      `[leader-election] takeover after SIGTERM (released lease) in ${Date.now() - stoppedAtMs} ms`,
    );
    expect(await leaseHolder('long')).toBe('graceful-second');
  });
});
