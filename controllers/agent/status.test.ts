import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { findCondition, jsonEqual } from '../../base/controller/conditions.ts';
import type { PlatformWorkspace } from '../../crds/generated/types.ts';
import { computeAgentStatus, workspaceOwnerGoing } from './status.ts';
import type { AgentOwner, PlatformAgent } from './types.ts';

const now = new Date('2026-03-01T12:00:00Z');
const later = new Date('2026-03-01T13:00:00Z');

function agent(owners: AgentOwner[]): PlatformAgent {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformAgent',
    metadata: { name: 'bot', namespace: 'team', generation: 3 },
    spec: { owners },
  };
}

function runningPod(ready: boolean): V1Pod {
  return {
    metadata: { name: 'agent-bot' },
    status: {
      phase: 'Running',
      conditions: [
        ready
          ? { type: 'Ready', status: 'True' }
          : { type: 'Ready', status: 'False', reason: 'NodeNotReady' },
      ],
      containerStatuses: [{ name: 'agent', ready: true, restartCount: 0, image: 'x', imageID: '' }],
    },
  };
}

describe('computeAgentStatus', () => {
  it('suspends an agent without owners, with condition OwnersMissing', () => {
    const { status, phase } = computeAgentStatus(agent([]), {}, now);
    expect(phase).toBe('suspended');
    expect(findCondition(status.conditions, 'OwnersMissing')).toMatchObject({
      status: 'True',
      reason: 'NoOwner',
    });
    expect(findCondition(status.conditions, 'Ready')).toMatchObject({ status: 'False' });
  });

  it('suspends an agent whose owners are only Editors and Viewers', () => {
    const { phase } = computeAgentStatus(
      agent([
        { subject: 'ed', role: 'Editor' },
        { subject: 'vi', role: 'Viewer' },
      ]),
      {},
      now,
    );
    expect(phase).toBe('suspended');
  });

  it('keeps an agent with an Owner pending while no pod exists', () => {
    const { status, phase } = computeAgentStatus(agent([{ subject: 'alice', role: 'Owner' }]), {}, now);
    expect(phase).toBe('pending');
    expect(findCondition(status.conditions, 'OwnersMissing')).toMatchObject({
      status: 'False',
      reason: 'OwnerPresent',
    });
    expect(findCondition(status.conditions, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'PodNotCreated',
    });
  });

  it('suspends on request even with an Owner, and counts Owners in status', () => {
    const a = agent([
      { subject: 'alice', role: 'Owner' },
      { subject: 'bob', role: 'Owner' },
      { subject: 'v', role: 'Viewer' },
    ]);
    const { status, phase, reason } = computeAgentStatus(
      { ...a, spec: { ...a.spec, suspend: true } },
      {},
      now,
    );
    expect({ phase, reason, ownerCount: status.ownerCount }).toEqual({
      phase: 'suspended',
      reason: 'SuspendRequested',
      ownerCount: 2,
    });
    expect(findCondition(status.conditions, 'OwnersMissing')).toMatchObject({ status: 'False' });
  });

  it('is running and Ready when its pod runs and is ready', () => {
    const { status, phase } = computeAgentStatus(
      agent([{ subject: 'alice', role: 'Owner' }]),
      { pod: runningPod(true) },
      now,
    );
    expect(phase).toBe('running');
    expect(findCondition(status.conditions, 'Ready')).toMatchObject({ status: 'True', reason: 'PodRunning' });
  });

  it('is running but not Ready while its running pod is not ready, and Ready again when it is', () => {
    const a = agent([{ subject: 'alice', role: 'Owner' }]);
    const stale = computeAgentStatus(a, { pod: runningPod(false) }, now);
    expect(stale.phase).toBe('running');
    expect(findCondition(stale.status.conditions, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'PodNotReady',
      message: 'the agent pod is running but not ready: its Ready condition is False (NodeNotReady)',
    });
    const back = computeAgentStatus({ ...a, status: stale.status }, { pod: runningPod(true) }, later);
    expect(findCondition(back.status.conditions, 'Ready')).toMatchObject({ status: 'True' });
  });

  it('is pending while the webhook did not inject its pod, whatever the old pod does', () => {
    const { status, phase } = computeAgentStatus(
      agent([{ subject: 'alice', role: 'Owner' }]),
      { pod: runningPod(true), podProblem: { reason: 'InjectionMissing', message: 'no record' } },
      now,
    );
    expect(phase).toBe('pending');
    expect(findCondition(status.conditions, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'InjectionMissing',
    });
  });

  it('yields an equal status when recomputed later on an unchanged agent (no write on resync)', () => {
    const a = agent([{ subject: 'alice', role: 'Owner' }]);
    const first = computeAgentStatus(a, {}, now).status;
    const second = computeAgentStatus({ ...a, status: first }, {}, later).status;
    expect(jsonEqual(first, second)).toBe(true);
  });

  it('reports a pod that admission refused as pending with reason PodCreateFailed', () => {
    const { status, phase } = computeAgentStatus(
      agent([{ subject: 'alice', role: 'Owner' }]),
      { podProblem: { reason: 'PodCreateFailed', message: 'RuntimeClass "tee" not found' } },
      now,
    );
    expect(phase).toBe('pending');
    expect(findCondition(status.conditions, 'Ready')).toMatchObject({
      reason: 'PodCreateFailed',
      message: 'RuntimeClass "tee" not found',
    });
  });

  it('keeps status fields it does not compute', () => {
    const a = {
      ...agent([{ subject: 'alice', role: 'Owner' }]),
      status: { spiffeId: 'spiffe://x/agent/team.bot' },
    };
    expect(computeAgentStatus(a, {}, now).status.spiffeId).toBe('spiffe://x/agent/team.bot');
  });
});

describe('workspaceOwnerGoing', () => {
  const owned = (uid: string): PlatformAgent => ({
    ...agent([{ subject: 'alice', role: 'Owner' }]),
    metadata: {
      name: 'bot',
      namespace: 'team',
      ownerReferences: [
        { apiVersion: 'platform.io/v1alpha1', kind: 'PlatformWorkspace', name: 'ws', uid, controller: true },
      ],
    },
  });
  const ws = (deleting = false): PlatformWorkspace => ({
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformWorkspace',
    metadata: { name: 'ws', namespace: 'team', uid: 'ws-1', ...(deleting ? { deletionTimestamp: now } : {}) },
    spec: {},
  });

  it('says nothing for a standalone agent or one whose workspace lives', () => {
    expect(workspaceOwnerGoing(agent([]), () => undefined)).toBe('');
    expect(workspaceOwnerGoing(owned('ws-1'), () => ws())).toBe('');
  });

  it('says why when the owning workspace is being deleted, gone, or a different one of the same name', () => {
    const why = 'workspace ws that owns the agent is being deleted; the agent goes with it';
    expect(workspaceOwnerGoing(owned('ws-1'), () => ws(true))).toBe(why);
    expect(workspaceOwnerGoing(owned('ws-1'), () => undefined)).toBe(why);
    expect(workspaceOwnerGoing(owned('ws-0'), () => ws())).toBe(why);
  });
});
