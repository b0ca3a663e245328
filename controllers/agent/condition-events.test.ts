import { describe, expect, it } from 'vitest';
import type { Condition } from '../../base/controller/conditions.ts';
import { conditionEvents, readyEvent } from './condition-events.ts';

const at = '2030-01-01T00:00:00Z';
const ready = (status: 'True' | 'False', reason: string, message = ''): Condition => ({
  type: 'Ready',
  status,
  reason,
  message,
  lastTransitionTime: at,
});

describe('readyEvent', () => {
  it('warns with the reason when a running pod stops being ready, and notes the recovery', () => {
    const crashed = ready(
      'False',
      'SidecarNotReady',
      'auditor-injection (injected): waiting: CrashLoopBackOff',
    );
    expect(readyEvent([ready('True', 'PodRunning')], [crashed])).toEqual({
      type: 'Warning',
      reason: 'SidecarNotReady',
      action: 'UpdateStatus',
      note: 'Ready=False: auditor-injection (injected): waiting: CrashLoopBackOff',
    });
    expect(readyEvent([crashed], [ready('True', 'PodRunning')])).toMatchObject({
      type: 'Normal',
      reason: 'PodRunning',
    });
  });

  it('says nothing when Ready keeps its status or is new', () => {
    expect(readyEvent([ready('False', 'PodPending')], [ready('False', 'PodNotReady')])).toBeUndefined();
    expect(readyEvent(undefined, [ready('True', 'PodRunning')])).toBeUndefined();
  });
});

describe('conditionEvents', () => {
  it('warns when SidecarsInjected turns False', () => {
    const c = (status: 'True' | 'False', reason: string): Condition => ({
      type: 'SidecarsInjected',
      status,
      reason,
      lastTransitionTime: at,
    });
    expect(conditionEvents([c('True', 'Injected')], [c('False', 'WebhookUnavailable')])).toEqual([
      {
        type: 'Warning',
        reason: 'WebhookUnavailable',
        action: 'UpdateStatus',
        note: 'SidecarsInjected=False',
      },
    ]);
  });
});
