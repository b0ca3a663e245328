import { describe, expect, it } from 'vitest';
import { findCondition, jsonEqual } from '../runtime/conditions.ts';
import { computeAgentStatus } from './status.ts';
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

describe('computeAgentStatus', () => {
  it('suspends an agent without owners, with condition OwnersMissing', () => {
    const { status, phase } = computeAgentStatus(agent([]), {}, now);
    expect(phase).toBe('suspended');
    expect(findCondition(status.conditions, 'OwnersMissing')).toMatchObject({
      status: 'True',
      reason: 'NoOwner',
      observedGeneration: 3,
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
    expect(status.observedGeneration).toBe(3);
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

  it('is running and Ready when its pod runs', () => {
    const { status, phase } = computeAgentStatus(
      agent([{ subject: 'alice', role: 'Owner' }]),
      { podPhase: 'Running' },
      now,
    );
    expect(phase).toBe('running');
    expect(findCondition(status.conditions, 'Ready')).toMatchObject({ status: 'True', reason: 'PodRunning' });
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
      { podError: 'RuntimeClass "tee" not found' },
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
