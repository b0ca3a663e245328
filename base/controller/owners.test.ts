import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ownerKeys } from './owners.ts';

const owned: KubernetesObject = {
  metadata: {
    name: 'bot-pod',
    namespace: 'team',
    labels: { 'platform.io/agent': 'bot' },
    ownerReferences: [
      { apiVersion: 'v1', kind: 'Other', name: 'unrelated', uid: '1', controller: false },
      { apiVersion: 'platform.io/v1alpha1', kind: 'PlatformAgent', name: 'bot', uid: '2', controller: true },
    ],
  },
};

describe('ownerKeys', () => {
  it("maps an owned object to its owner's key through a label", () => {
    expect(ownerKeys({ label: 'platform.io/agent' })(owned)).toEqual(['team/bot']);
    expect(ownerKeys({ label: 'platform.io/missing' })(owned)).toEqual([]);
  });

  it('maps through the controller owner reference of the given kind', () => {
    expect(ownerKeys({ ownerKind: 'PlatformAgent' })(owned)).toEqual(['team/bot']);
    expect(ownerKeys({ ownerKind: 'Other' })(owned)).toEqual([]);
  });

  it('maps an object without a namespace to nothing', () => {
    const clusterScoped = { metadata: { ...owned.metadata, namespace: undefined } };
    expect(ownerKeys({ label: 'platform.io/agent' })(clusterScoped)).toEqual([]);
  });
});
