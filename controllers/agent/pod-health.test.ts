import type * as k8s from '@kubernetes/client-node';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  injectionProblem,
  injectionSummary,
  nodeNotReady,
  notReadyContainers,
  podReadiness,
} from './pod-health.ts';

const RECORD = JSON.stringify({ chain: ['injection', 'llm-judge'], source: 'annotation', mode: 'enforce' });

function securedPod(annotations: Record<string, string> = {}): V1Pod {
  return {
    metadata: { name: 'agent-bot', labels: { 'platform.io/secured': 'true' }, annotations },
    spec: { containers: [{ name: 'agent' }] },
  };
}

const status = (
  name: string,
  ready: boolean,
  state: V1ContainerStatus['state'],
  restarts = 0,
): V1ContainerStatus => ({
  name,
  ready,
  state,
  restartCount: restarts,
  image: 'x',
  imageID: '',
});

/** A pod injected with native sidecars, the redirect init container done. */
function nativePod(sidecar: V1ContainerStatus, podReady: boolean): V1Pod {
  return {
    metadata: { name: 'agent-bot' },
    spec: {
      initContainers: [
        { name: 'platform-init' },
        { name: 'auditor-injection', restartPolicy: 'Always' },
        { name: 'platform-gateway', restartPolicy: 'Always' },
      ],
      containers: [{ name: 'agent' }],
    },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: podReady ? 'True' : 'False', reason: 'ContainersNotReady' }],
      initContainerStatuses: [
        status('platform-init', false, { terminated: { exitCode: 0, reason: 'Completed' } }),
        sidecar,
        status('platform-gateway', true, { running: {} }),
      ],
      containerStatuses: [status('agent', true, { running: {} })],
    },
  };
}

const crashLoop = status(
  'auditor-injection',
  false,
  { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } },
  5,
);

describe('injectionProblem', () => {
  it('finds a secured pod without the injection record, and says what that means', () => {
    expect(injectionProblem(securedPod())).toBe(
      'pod agent-bot is labelled platform.io/secured=true but carries no platform.computing/injection-status: ' +
        'the mutating webhook did not inject it (it was not called for the pod, or admitted it without injection)',
    );
  });

  it('has nothing to say about an injected pod, an unsecured pod or a pod on its way out', () => {
    expect(injectionProblem(securedPod({ 'platform.computing/injection-status': RECORD }))).toBe('');
    expect(injectionProblem({ metadata: { name: 'plain' } })).toBe('');
    const going = securedPod();
    going.metadata!.deletionTimestamp = new Date();
    expect(injectionProblem(going)).toBe('');
  });

  it('summarises the record for the condition', () => {
    expect(injectionSummary(securedPod({ 'platform.computing/injection-status': RECORD }))).toBe(
      'auditors injection, llm-judge (mode enforce, chain from annotation)',
    );
    expect(injectionSummary(securedPod({ 'platform.computing/injection-status': '{' }))).toBe(
      'an unreadable injection record',
    );
  });
});

describe('notReadyContainers', () => {
  it('names a crashing native sidecar, not the completed init container', () => {
    expect(notReadyContainers(nativePod(crashLoop, false))).toEqual([
      {
        name: 'auditor-injection',
        injected: true,
        state: 'waiting: CrashLoopBackOff (back-off 5m0s restarting failed container), 5 restarts',
      },
    ]);
  });

  it('names a classic sidecar and the agent container from containerStatuses', () => {
    const pod: V1Pod = {
      metadata: { name: 'agent-bot' },
      status: {
        phase: 'Running',
        containerStatuses: [
          status('agent', false, { running: {} }),
          status('auditor-toxicity', false, { terminated: { exitCode: 137, reason: 'OOMKilled' } }, 1),
        ],
      },
    };
    expect(notReadyContainers(pod)).toEqual([
      { name: 'agent', injected: false, state: 'running, not ready' },
      { name: 'auditor-toxicity', injected: true, state: 'terminated: OOMKilled, exit code 137, 1 restart' },
    ]);
  });

  it('counts a classic init container until it has succeeded', () => {
    const pod: V1Pod = {
      metadata: { name: 'agent-bot' },
      spec: { initContainers: [{ name: 'platform-init' }], containers: [{ name: 'agent' }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [
          status('platform-init', false, { terminated: { exitCode: 1, reason: 'Error' } }),
        ],
      },
    };
    expect(notReadyContainers(pod).map((p) => p.name)).toEqual(['platform-init']);
  });
});

describe('podReadiness', () => {
  it('is ready when the pod runs, its Ready condition is True and every container is ready', () => {
    const healthy = nativePod(status('auditor-injection', true, { running: {} }), true);
    expect(podReadiness(healthy)).toEqual({
      ready: true,
      reason: 'PodRunning',
      message: 'the agent pod is running and ready',
    });
  });

  it('names the sidecar that crashes', () => {
    expect(podReadiness(nativePod(crashLoop, false))).toEqual({
      ready: false,
      reason: 'SidecarNotReady',
      message:
        'the agent pod is running but not ready: auditor-injection (injected): waiting: CrashLoopBackOff ' +
        '(back-off 5m0s restarting failed container), 5 restarts',
    });
  });

  it('trusts a False Ready condition over stale container statuses (node or container runtime down)', () => {
    const pod = nativePod(status('auditor-injection', true, { running: {} }), true);
    pod.status!.conditions = [
      { type: 'Ready', status: 'False', reason: 'NodeNotReady', message: 'node gone' },
    ];
    expect(podReadiness(pod)).toMatchObject({
      ready: false,
      reason: 'PodNotReady',
      message:
        'the agent pod is running but not ready: its Ready condition is False (NodeNotReady: node gone)',
    });
  });

  it('is not ready without a Ready condition, and reports other phases as Pod<Phase>', () => {
    expect(podReadiness({ status: { phase: 'Running' } })).toMatchObject({
      reason: 'PodNotReady',
      message: 'the agent pod is running but not ready: it reports no Ready condition yet',
    });
    expect(podReadiness({ status: { phase: 'Failed' } })).toEqual({
      ready: false,
      reason: 'PodFailed',
      message: 'the agent pod is Failed',
    });
  });
});

describe('node readiness', () => {
  const node = (status: string, message?: string): k8s.V1Node => ({
    metadata: { name: 'n1' },
    status: { conditions: [{ type: 'Ready', status, ...(message ? { message } : {}) }] },
  });
  const runningReady: k8s.V1Pod = {
    spec: { containers: [{ name: 'agent' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [{ name: 'agent', ready: true, image: 'i', imageID: 'i', restartCount: 0 }],
    },
  };
  it('a pod that says ready on a node that is not is not ready, and the reason names the node', () => {
    expect(podReadiness(runningReady, node('True')).ready).toBe(true);
    expect(podReadiness(runningReady, node('False', 'container runtime is down'))).toEqual({
      ready: false,
      reason: 'NodeNotReady',
      message: "the agent pod's node n1 is not ready (False: container runtime is down)",
    });
    expect(nodeNotReady(undefined)).toBeUndefined();
  });
});
