// The pod flow with the cluster in memory: namespace label first, an
// un-injected secured pod deleted and re-created with a growing delay, an
// unreachable webhook reported, and no spinning.
import type * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { EventSpec } from '../../base/controller/events.ts';
import { createFailure, type PodProblem } from './injection.ts';
import type { CreateResult } from './owned.ts';
import { AgentPodSync, type PodObjects } from './pod-sync.ts';
import type { PlatformAgent } from './types.ts';

const RECORD = JSON.stringify({ chain: ['injection'], source: 'default', mode: 'enforce' });
const agent: PlatformAgent = {
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformAgent',
  metadata: { name: 'bot', namespace: 'team', uid: 'agent-uid', generation: 1 },
  spec: { owners: [{ subject: 'alice', role: 'Owner' }] },
};

/** The agent's namespace and pod in memory; `inject` is what the webhook would do on create. */
class FakeCluster implements PodObjects {
  pod: k8s.V1Pod | undefined;
  labelled = true;
  labelError = '';
  inject = true;
  createProblem: PodProblem | undefined;
  creates = 0;
  deletes: string[] = [];
  private uids = 0;

  existingPod = (): k8s.V1Pod | undefined => this.pod;
  desiredPod = (): k8s.V1Pod => ({
    metadata: {
      name: 'agent-bot',
      labels: { 'platform.io/secured': 'true' },
      annotations: { 'platform.io/spec-hash': 'h1' },
    },
  });
  deletePod = async (pod: k8s.V1Pod): Promise<void> => {
    this.deletes.push(pod.metadata?.uid ?? '');
    if (this.pod?.metadata?.uid === pod.metadata?.uid) this.pod = undefined;
  };
  createPod = async (_agent: PlatformAgent, body: k8s.V1Pod): Promise<CreateResult> => {
    this.creates++;
    if (this.createProblem) return { problem: this.createProblem };
    const annotations = {
      ...body.metadata?.annotations,
      ...(this.inject ? { 'platform.computing/injection-status': RECORD } : {}),
    };
    this.pod = { ...body, metadata: { ...body.metadata, uid: `pod-${++this.uids}`, annotations } };
    return { pod: this.pod };
  };
  ensureNamespaceEnabled = async (): Promise<{ labelled: boolean; error?: string }> => {
    if (this.labelError) return { labelled: false, error: this.labelError };
    const labelled = !this.labelled;
    this.labelled = true;
    return { labelled };
  };
}

function setup(requireInjection = true): {
  cluster: FakeCluster;
  sync: AgentPodSync;
  events: EventSpec[];
  clock: { ms: number };
} {
  const cluster = new FakeCluster();
  const events: EventSpec[] = [];
  const clock = { ms: Date.parse('2030-01-01T00:00:00Z') };
  const sync = new AgentPodSync({
    objects: cluster,
    events: { emit: async (_s, e) => void events.push(e) },
    requireInjection,
    clock: () => new Date(clock.ms),
  });
  return { cluster, sync, events, clock };
}

describe('the agent pod and its namespace', () => {
  it('labels the namespace first, waits a moment, then creates the injected pod', async () => {
    const { cluster, sync, events } = setup();
    cluster.labelled = false;
    const first = await sync.sync(agent, ['injection']);
    expect(cluster.creates).toBe(0);
    expect(first).toMatchObject({ problem: { reason: 'PodNotCreated' }, retryAfterMs: 1_000 });
    expect(events.map((e) => e.reason)).toEqual(['NamespaceEnabled']);
    const second = await sync.sync(agent, ['injection']);
    expect(cluster.creates).toBe(1);
    expect(second.injection).toMatchObject({
      type: 'SidecarsInjected',
      status: 'True',
      reason: 'Injected',
      message: 'the webhook injected auditors injection (mode enforce, chain from default)',
    });
  });

  it('creates no pod when the namespace cannot be labelled, and says why', async () => {
    const { cluster, sync } = setup();
    cluster.labelled = false;
    cluster.labelError = 'HTTP 403: namespaces "team" is forbidden';
    const result = await sync.sync(agent, ['injection']);
    expect(cluster.creates).toBe(0);
    expect(result.problem?.reason).toBe('NamespaceNotEnabled');
    expect(result.injection).toMatchObject({ status: 'False', reason: 'NamespaceNotEnabled' });
    expect(result.injection?.message).toMatch(
      /could not be set \(HTTP 403: .*forbidden\); the pod is not created/,
    );
  });
});

describe('a secured pod the webhook did not inject', () => {
  it('is deleted with a Warning Event and re-created at once the first time', async () => {
    const { cluster, sync, events } = setup();
    cluster.inject = false;
    await sync.sync(agent, ['injection']); // created before the namespace was selected
    expect(cluster.deletes).toEqual(['pod-1']);
    expect(events).toEqual([
      expect.objectContaining({ type: 'Warning', reason: 'InjectionMissing', action: 'DeletePod' }),
    ]);
    expect(events[0]?.note).toMatch(
      /^pod agent-bot is labelled platform.io\/secured=true but carries no platform.computing\/injection-status: .*; deleted it \(1 in a row\) and it is re-created now$/,
    );
    cluster.inject = true; // the namespace is selected now
    const again = await sync.sync(agent, ['injection']);
    expect(cluster.creates).toBe(2);
    expect(again.injection).toMatchObject({ status: 'True', reason: 'Injected' });
    expect(again.problem).toBeUndefined();
  });

  it('backs off when the re-created pod lacks injection again, keeping the condition and not spinning', async () => {
    const { cluster, sync, events, clock } = setup();
    cluster.inject = false;
    await sync.sync(agent, ['injection']); // 1st: deleted, re-created at once
    const second = await sync.sync(agent, ['injection']); // 2nd: deleted, 5 s
    expect(second).toMatchObject({ problem: { reason: 'InjectionMissing' }, retryAfterMs: 5_000 });
    expect(second.injection).toMatchObject({ status: 'False', reason: 'InjectionMissing' });
    for (let i = 0; i < 10; i++) {
      clock.ms += 400;
      const waiting = await sync.sync(agent, ['injection']);
      expect(waiting.injection).toMatchObject({ status: 'False', reason: 'InjectionMissing' });
    }
    expect(cluster.creates).toBe(2);
    clock.ms += 1_000;
    const third = await sync.sync(agent, ['injection']);
    expect(cluster.creates).toBe(3);
    expect(third.retryAfterMs).toBe(10_000);
    expect(events.filter((e) => e.reason === 'InjectionMissing')).toHaveLength(3);
  });

  it('does not count a pod twice while a stale cache still shows it', async () => {
    const { cluster, sync, events } = setup();
    cluster.inject = false;
    await sync.sync(agent, ['injection']);
    const deleted = { ...cluster.desiredPod(), metadata: { ...cluster.desiredPod().metadata, uid: 'pod-1' } };
    cluster.pod = deleted; // the cache has not seen the delete yet
    const stale = await sync.sync(agent, ['injection']);
    expect(stale.problem?.reason).toBe('InjectionMissing');
    expect(cluster.deletes).toEqual(['pod-1']);
    expect(events).toHaveLength(1);
  });

  it('starts over once an injected pod was seen', async () => {
    const { cluster, sync, clock } = setup();
    cluster.inject = false;
    await sync.sync(agent, ['injection']);
    await sync.sync(agent, ['injection']); // 2 in a row: the next waits 5 s
    clock.ms += 5_000;
    cluster.inject = true;
    expect((await sync.sync(agent, ['injection'])).injection?.status).toBe('True');
    const annotations = { 'platform.io/spec-hash': 'h1' }; // up to date, but no injection record
    cluster.pod = { ...cluster.pod, metadata: { ...cluster.pod?.metadata, uid: 'other', annotations } };
    const result = await sync.sync(agent, ['injection']);
    expect(result.problem?.message).toMatch(/\(1 in a row\) and it is re-created now$/);
  });

  it('is left alone where no platform webhook runs (requireInjection false)', async () => {
    const { cluster, sync, events } = setup(false);
    cluster.inject = false;
    const result = await sync.sync(agent, ['injection']);
    const again = await sync.sync(agent, ['injection']);
    expect(cluster.deletes).toEqual([]);
    expect(result.injection).toBeUndefined();
    expect(again.pod?.metadata?.uid).toBe('pod-1');
    expect(events).toEqual([]);
  });
});

describe('an unreachable webhook (failurePolicy Fail)', () => {
  it('reports the refused creation in Ready and SidecarsInjected and retries after 30 s', async () => {
    const { cluster, sync } = setup();
    cluster.createProblem = createFailure(
      500,
      'Internal error occurred: failed calling webhook "mutate.pods.platform.io": dial tcp 127.0.0.1:1: connect: connection refused',
    );
    const result = await sync.sync(agent, ['injection']);
    expect(result).toMatchObject({ problem: { reason: 'WebhookUnavailable' }, retryAfterMs: 30_000 });
    expect(result.injection).toMatchObject({ status: 'False', reason: 'WebhookUnavailable' });
    expect(result.injection?.message).toMatch(
      /^the pod was not created: the admission webhook could not be called \(Internal error occurred: failed calling webhook/,
    );
  });

  it('keeps other refusals as PodCreateFailed without an injection verdict', async () => {
    const { cluster, sync } = setup();
    cluster.createProblem = createFailure(403, 'pods "agent-bot" is forbidden: exceeded quota');
    const result = await sync.sync(agent, ['injection']);
    expect(result.problem).toEqual({
      reason: 'PodCreateFailed',
      message: 'the pod was refused (HTTP 403): pods "agent-bot" is forbidden: exceeded quota',
    });
    expect(result.injection).toBeUndefined();
  });
});
