// Reading the agent's pod and its usage out of what the apiserver answers.
import { describe, expect, it } from 'vitest';
import { pickPod, podResourcesOf, problemOf } from './tree-usage.ts';

const SUMMARY = {
  node: { nodeName: 'n1' },
  pods: [
    { podRef: { name: 'bot-1', namespace: 'other' }, cpu: { usageNanoCores: 1 } },
    {
      podRef: { name: 'bot-1', namespace: 'team' },
      cpu: { usageNanoCores: 12_400_000 },
      memory: { workingSetBytes: 52_428_800 },
    },
    { podRef: { name: 'bot-2', namespace: 'team' } },
  ],
};

describe('podResourcesOf', () => {
  it("reads the pod's CPU in millicores and its working set in bytes", () => {
    expect(podResourcesOf(SUMMARY, 'team', 'bot-1')).toEqual({
      cpu_millicores: 12,
      memory_bytes: 52_428_800,
      reason: null,
    });
  });

  it('says why when the summary has no usable entry for the pod', () => {
    expect(podResourcesOf(SUMMARY, 'team', 'gone').reason).toBe('the kubelet has no stats for the pod yet');
    expect(podResourcesOf(SUMMARY, 'team', 'bot-2').reason).toBe('the kubelet reported no usage for the pod');
    for (const junk of [undefined, 'text', { pods: 'x' }, []])
      expect(podResourcesOf(junk, 'team', 'bot-1')).toEqual({
        cpu_millicores: null,
        memory_bytes: null,
        reason: 'the kubelet answered no pod stats',
      });
  });
});

describe('pickPod', () => {
  it('prefers a running pod, then the newest, and skips pods being deleted', () => {
    const pods = [
      {
        metadata: { name: 'old', creationTimestamp: '2030-01-01T00:00:00Z' },
        status: { phase: 'Running' },
        spec: { nodeName: 'n1' },
      },
      { metadata: { name: 'new', creationTimestamp: '2030-01-02T00:00:00Z' }, status: { phase: 'Pending' } },
      {
        metadata: {
          name: 'dying',
          creationTimestamp: '2030-01-03T00:00:00Z',
          deletionTimestamp: '2030-01-04T00:00:00Z',
        },
        status: { phase: 'Running' },
      },
    ];
    expect(pickPod(pods)).toEqual({ name: 'old', phase: 'Running', node: 'n1' });
    expect(pickPod(pods.slice(1))).toEqual({ name: 'new', phase: 'Pending', node: null });
    expect(pickPod([])).toBeUndefined();
  });
});

describe('problemOf', () => {
  it('names a refusal by its status, never by its body', () => {
    expect(problemOf({ code: 403, body: 'secret' })).toBe('forbidden');
    expect(problemOf({ code: 503 })).toBe('HTTP 503');
    expect(problemOf(new Error('timeout'))).toBe('no answer within 3000 ms');
    expect(problemOf(new Error('ECONNREFUSED'))).toBe('unreachable');
  });
});
