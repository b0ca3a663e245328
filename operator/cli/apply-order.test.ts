import { describe, expect, it } from 'vitest';
import { applyOrder, kindRank, objectRef, PLATFORM_KIND_ORDER } from './apply-order.ts';
import { ALL_KINDS } from '../../crds/index.ts';

const obj = (apiVersion: string, kind: string, index: number) => ({ apiVersion, kind, index });

describe('apply order', () => {
  it('puts namespaces first, other core kinds next, then the platform kinds from the organization down', () => {
    const input = [
      obj('platform.io/v1alpha1', 'PlatformAgent', 0),
      obj('platform.io/v1alpha1', 'PlatformWorkspace', 1),
      obj('v1', 'Secret', 2),
      obj('platform.io/v1alpha1', 'AuditorRegistration', 3),
      obj('v1', 'Namespace', 4),
      obj('platform.io/v1alpha1', 'Organization', 5),
      obj('platform.io/v1alpha1', 'AgentInstalledApp', 6),
    ];
    expect(applyOrder(input).map((o) => o.kind)).toEqual([
      'Namespace',
      'Secret',
      'Organization',
      'AuditorRegistration',
      'PlatformWorkspace',
      'PlatformAgent',
      'AgentInstalledApp',
    ]);
  });

  it('keeps the input order within one kind (a stable sort)', () => {
    const input = [5, 3, 9, 1].map((i) => obj('platform.io/v1alpha1', 'PlatformAgent', i));
    const shuffled = [input[2]!, input[0]!, input[3]!, input[1]!];
    expect(applyOrder(shuffled).map((o) => o.index)).toEqual([1, 3, 5, 9]);
  });

  it('ranks every platform kind, and an unknown one after them all', () => {
    expect([...PLATFORM_KIND_ORDER].sort()).toEqual(ALL_KINDS.map((k) => k.kind).sort());
    const last = kindRank('platform.io/v1alpha1', 'Workflow');
    expect(kindRank('platform.io/v1alpha1', 'SomethingNew')).toBeGreaterThan(last);
    expect(kindRank('apps/v1', 'Deployment')).toBeLessThan(kindRank('platform.io/v1alpha1', 'Organization'));
    expect(kindRank('v1', 'Namespace')).toBeLessThan(
      kindRank('apiextensions.k8s.io/v1', 'CustomResourceDefinition'),
    );
  });

  it('names objects as kubectl does', () => {
    expect(objectRef('platform.io/v1alpha1', 'PlatformAgent', 'release-bot')).toBe(
      'platformagent.platform.io/release-bot',
    );
    expect(objectRef('v1', 'Namespace', 'acme')).toBe('namespace/acme');
    expect(objectRef('apps/v1', 'Deployment', 'web')).toBe('deployment.apps/web');
  });
});
