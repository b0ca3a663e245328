import { describe, expect, it } from 'vitest';
import { buildEvent } from './events.ts';
import { REPORTING } from '../../contract/kube.ts';

describe('buildEvent', () => {
  it('builds an events.k8s.io/v1 Event regarding the object', () => {
    const subject = {
      apiVersion: 'platform.io/v1alpha1',
      kind: 'PlatformAgent',
      metadata: { name: 'bot', namespace: 'team', uid: 'u1', resourceVersion: '7' },
    };
    const event = buildEvent(
      subject,
      { type: 'Warning', reason: 'OwnersMissing', action: 'UpdateStatus', note: 'n' },
      'op-1',
      new Date(0),
    );
    expect(event).toMatchObject({
      metadata: { namespace: 'team' },
      reportingController: REPORTING.operator,
      reportingInstance: 'op-1',
      type: 'Warning',
      reason: 'OwnersMissing',
      regarding: { kind: 'PlatformAgent', name: 'bot', namespace: 'team', uid: 'u1' },
    });
    expect(event.metadata?.name).toMatch(/^bot\.[0-9a-f]+$/);
    expect(JSON.parse(JSON.stringify(event)).eventTime).toBe('1970-01-01T00:00:00.000000Z');
  });
});
