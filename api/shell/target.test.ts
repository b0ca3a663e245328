import { describe, expect, it } from 'vitest';
import type * as k8s from '@kubernetes/client-node';
import { pickTarget } from './target.ts';

const pod = (name: string, phase: string, containers: string[], deleting = false): k8s.V1Pod => ({
  metadata: { name, namespace: 'ns', ...(deleting ? { deletionTimestamp: new Date() } : {}) },
  spec: { containers: containers.map((c) => ({ name: c })) },
  status: { phase },
});

describe('where a shell opens', () => {
  it('is the first container of a running pod that is not a platform sidecar', () => {
    const pods = [pod('agent-a', 'Running', ['platform-gateway', 'agent', 'platform-proxy'])];
    expect(pickTarget(pods)).toEqual({ namespace: 'ns', pod: 'agent-a', container: 'agent' });
  });

  it('skips pods that are not running or are being deleted', () => {
    const pods = [
      pod('pending', 'Pending', ['agent']),
      pod('leaving', 'Running', ['agent'], true),
      pod('only-sidecars', 'Running', ['platform-gateway']),
      pod('live', 'Running', ['worker']),
    ];
    expect(pickTarget(pods)?.pod).toBe('live');
  });

  it('finds none without a running pod', () => {
    expect(pickTarget([pod('done', 'Succeeded', ['agent'])])).toBeUndefined();
    expect(pickTarget([])).toBeUndefined();
  });
});
