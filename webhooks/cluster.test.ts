// The cache-first view: what the cache settles, what it reads live, and when
// a kept live answer is dropped (decision 96).
import type * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  cacheFirstClusterView,
  type CacheSource,
  type ClusterView,
  type RegistrationObject,
} from './cluster.ts';

class Source<T extends { metadata?: { name?: string; namespace?: string } }> implements CacheSource<T> {
  readonly items = new Map<string, T>();
  private readonly handlers: ((type: 'add' | 'update' | 'delete', obj: T) => void)[] = [];
  constructor(private synced = true) {}
  isSynced = (): boolean => this.synced;
  get = (key: string): T | undefined => this.items.get(key);
  on(handler: (type: 'add' | 'update' | 'delete', obj: T) => void): void {
    this.handlers.push(handler);
  }
  put(obj: T): void {
    const m = obj.metadata ?? {};
    this.items.set(m.namespace ? `${m.namespace}/${m.name}` : (m.name ?? ''), obj);
    for (const h of this.handlers) h('update', obj);
  }
}

function liveView(): ClusterView & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    namespaceLabels: async (ns) => (reads.push(`ns ${ns}`), { live: 'yes' }),
    chainConfig: async (ns) => (reads.push(`cm ${ns}`), undefined),
    registeredAuditor: async (id) => (
      reads.push(`reg ${id}`),
      id === 'late' ? { auditorId: 'late', deploymentMode: 'external', endpoint: 'http://x' } : undefined
    ),
  };
}

const enabled = (name: string): k8s.V1Namespace => ({
  metadata: { name, labels: { 'platform.computing/enabled': 'true' } },
});

describe('cacheFirstClusterView', () => {
  it('answers an enabled namespace and a present chain ConfigMap from the cache, with no live read', async () => {
    const namespaces = new Source<k8s.V1Namespace>();
    const chainConfigs = new Source<k8s.V1ConfigMap>();
    namespaces.put(enabled('a'));
    chainConfigs.put({
      metadata: { name: 'platform-auditor-chain', namespace: 'a' },
      data: { preRequest: 'x' },
    });
    const live = liveView();
    const view = cacheFirstClusterView(
      { namespaces, chainConfigs, registrations: new Source<RegistrationObject>() },
      live,
      60_000,
    );
    expect(await view.namespaceLabels('a')).toEqual({ 'platform.computing/enabled': 'true' });
    expect(await view.chainConfig('a')).toEqual({ preRequest: 'x' });
    expect(live.reads).toEqual([]);
  });

  it('reads live what the cache cannot settle, keeps it, and drops it on a watch event about it', async () => {
    const namespaces = new Source<k8s.V1Namespace>();
    const chainConfigs = new Source<k8s.V1ConfigMap>();
    namespaces.put({ metadata: { name: 'b', labels: {} } }); // not enabled in the cache: maybe labelled a moment ago
    const live = liveView();
    const view = cacheFirstClusterView(
      { namespaces, chainConfigs, registrations: new Source<RegistrationObject>() },
      live,
      60_000,
    );
    expect(await view.namespaceLabels('b')).toEqual({ live: 'yes' });
    expect(await view.chainConfig('b')).toBeUndefined();
    await view.namespaceLabels('b');
    await view.chainConfig('b');
    expect(live.reads).toEqual(['ns b', 'cm b']); // kept
    namespaces.put({ metadata: { name: 'b', labels: { team: 'x' } } });
    chainConfigs.put({ metadata: { name: 'other', namespace: 'b' } });
    await view.namespaceLabels('b');
    await view.chainConfig('b');
    expect(live.reads).toEqual(['ns b', 'cm b', 'ns b', 'cm b']);
  });

  it('reads live every time with a TTL of 0, and while the caches have not synced', async () => {
    const namespaces = new Source<k8s.V1Namespace>(false);
    const chainConfigs = new Source<k8s.V1ConfigMap>(false);
    namespaces.put(enabled('c'));
    const live = liveView();
    const view = cacheFirstClusterView(
      { namespaces, chainConfigs, registrations: new Source<RegistrationObject>() },
      live,
      0,
    );
    await view.namespaceLabels('c');
    await view.namespaceLabels('c');
    expect(live.reads).toEqual(['ns c', 'ns c']);
  });

  it('answers a cached AuditorRegistration, reads a missing one live, and drops the kept answer on its event', async () => {
    const registrations = new Source<RegistrationObject>();
    registrations.put({
      metadata: { name: 'cached' },
      spec: { auditorId: 'cached', deploymentMode: 'in-cluster', endpoint: 'http://cached.svc:8080' },
    });
    const live = liveView();
    const caches = { namespaces: new Source<k8s.V1Namespace>(), chainConfigs: new Source<k8s.V1ConfigMap>() };
    const view = cacheFirstClusterView({ ...caches, registrations }, live, 60_000);
    expect(await view.registeredAuditor('cached')).toMatchObject({ endpoint: 'http://cached.svc:8080' });
    expect(await view.registeredAuditor('late')).toMatchObject({ auditorId: 'late' });
    await view.registeredAuditor('late');
    expect(live.reads).toEqual(['reg late']); // a registration made a moment ago: read live once, kept
    registrations.put({ metadata: { name: 'late' } });
    await view.registeredAuditor('late');
    expect(live.reads).toEqual(['reg late', 'reg late']);
  });
});
