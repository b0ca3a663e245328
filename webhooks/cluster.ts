// What the webhook reads from and writes to the cluster on the request path:
// namespace labels, the chain ConfigMap and AuditorRegistrations, answered from informer caches
// (decision 96) with a live read only where the cache cannot settle the
// answer, and Events. Interfaces first, so handlers and tests use plain objects.
import { randomBytes } from 'node:crypto';
import * as k8s from '@kubernetes/client-node';
import { orUndefinedOn404 } from '../base/kube.ts';
import type { Logger } from '../base/log.ts';
import { CONFIGMAP, LABEL, PLURAL, REPORTING, resourceOf } from '../contract/kube.ts';
import type { RegisteredAuditor } from './mutate/directory.ts';

/** What the webhook reads of an AuditorRegistration. */
export type RegistrationObject = k8s.KubernetesObject & { spec?: RegisteredAuditor };

export interface ClusterView {
  /** Labels of a namespace; undefined when it does not exist. Throws when unreadable. */
  namespaceLabels(namespace: string): Promise<Record<string, string> | undefined>;
  /** `data` of the namespace's chain ConfigMap; undefined when absent. Throws when unreadable. */
  chainConfig(namespace: string): Promise<Record<string, string> | undefined>;
  /** The spec of the AuditorRegistration named `id`; undefined when none. Throws when unreadable. */
  registeredAuditor(id: string): Promise<RegisteredAuditor | undefined>;
}

export interface PodEventSink {
  /** Fire-and-forget: records a Warning Event about a pod that was admitted without injection. */
  invalidAnnotations(namespace: string, podName: string, note: string): void;
}

/** What the cache-first view needs of an informer. */
export interface CacheSource<T> {
  isSynced(): boolean;
  get(key: string): T | undefined;
  on(handler: (type: 'add' | 'update' | 'delete', obj: T) => void): void;
}

interface Remembered<T> {
  value: T;
  expiresAtMs: number;
}

/** Live answers kept for `ttlMs` (0: not kept) or until `forget(key)`; one read in flight per key. */
export function rememberedLive<T>(
  ttlMs: number,
  load: (key: string) => Promise<T>,
): { read(key: string): Promise<T>; forget(key: string): void } {
  const entries = new Map<string, Remembered<T>>();
  const inFlight = new Map<string, Promise<T>>();
  const loadOnce = (key: string): Promise<T> => {
    const running = inFlight.get(key);
    if (running) return running;
    const started = load(key).finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  };
  return {
    async read(key) {
      const hit = entries.get(key);
      if (hit && hit.expiresAtMs > Date.now()) return hit.value;
      const value = await loadOnce(key);
      if (ttlMs > 0) {
        if (entries.size > 5000) entries.clear();
        entries.set(key, { value, expiresAtMs: Date.now() + ttlMs });
      }
      return value;
    },
    forget: (key) => void entries.delete(key),
  };
}

/** Live reads, one GET each (the fallback of the cache-first view). */
export function kubeClusterView(kc: k8s.KubeConfig): ClusterView {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  return {
    registeredAuditor: async (name) => {
      const found = (await orUndefinedOn404(
        custom.getClusterCustomObject({ ...resourceOf(PLURAL.auditor), name }),
      )) as RegistrationObject | undefined;
      return found?.spec;
    },
    namespaceLabels: async (name) => {
      const ns = await orUndefinedOn404(core.readNamespace({ name }));
      return ns ? (ns.metadata?.labels ?? {}) : undefined;
    },
    chainConfig: async (namespace) => {
      const cm = await orUndefinedOn404(
        core.readNamespacedConfigMap({ namespace, name: CONFIGMAP.auditorChain }),
      );
      return cm?.data;
    },
  };
}

export interface ClusterCaches {
  namespaces: CacheSource<k8s.V1Namespace>;
  /** ConfigMaps named `platform-auditor-chain` only. */
  chainConfigs: CacheSource<k8s.V1ConfigMap>;
  registrations: CacheSource<RegistrationObject>;
}

/**
 * Answers from the caches. The cache settles an enabled namespace and a
 * present chain ConfigMap; a namespace missing or not enabled there, or a
 * ConfigMap missing there, may have been created or labelled a moment ago
 * (an agent's namespace is labelled just before its pod): those are read
 * live, and a live answer is kept for `liveAnswerTtlMs` or until a watch
 * event about that object arrives.
 */
export function cacheFirstClusterView(
  caches: ClusterCaches,
  live: ClusterView,
  liveAnswerTtlMs: number,
): ClusterView {
  const labels = rememberedLive(liveAnswerTtlMs, (ns) => live.namespaceLabels(ns));
  const chain = rememberedLive(liveAnswerTtlMs, (ns) => live.chainConfig(ns));
  const registered = rememberedLive(liveAnswerTtlMs, (id) => live.registeredAuditor(id));
  caches.namespaces.on((_, ns) => labels.forget(ns.metadata?.name ?? ''));
  caches.chainConfigs.on((_, cm) => chain.forget(cm.metadata?.namespace ?? ''));
  caches.registrations.on((_, r) => registered.forget(r.metadata?.name ?? ''));
  return {
    // A registration made a moment before the pod may not be cached yet: a miss is read live.
    registeredAuditor: async (id) => {
      const cached = caches.registrations.isSynced() ? caches.registrations.get(id) : undefined;
      return cached?.spec ?? registered.read(id);
    },
    namespaceLabels: async (namespace) => {
      const cached = caches.namespaces.isSynced() ? caches.namespaces.get(namespace) : undefined;
      const found = cached?.metadata?.labels;
      if (found?.[LABEL.namespaceEnabled] === 'true') return found;
      return labels.read(namespace);
    },
    chainConfig: async (namespace) => {
      const synced = caches.chainConfigs.isSynced();
      const cached = synced ? caches.chainConfigs.get(`${namespace}/${CONFIGMAP.auditorChain}`) : undefined;
      if (cached) return cached.data;
      return chain.read(namespace);
    },
  };
}

export function kubeEventSink(kc: k8s.KubeConfig, log: Logger, instance: string): PodEventSink {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  return {
    invalidAnnotations(namespace, podName, note) {
      const now = new Date();
      const body: k8s.CoreV1Event = {
        metadata: {
          name: `${podName.replace(/[^a-z0-9.-]/g, '')}.${now.getTime().toString(16)}${randomBytes(2).toString('hex')}`,
          namespace,
        },
        involvedObject: { kind: 'Pod', apiVersion: 'v1', namespace, name: podName },
        reason: 'InvalidAuditAnnotations',
        message: note.slice(0, 1024),
        type: 'Warning',
        source: { component: 'platform-webhook' },
        reportingComponent: REPORTING.webhook,
        reportingInstance: instance.slice(0, 128),
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      };
      core.createNamespacedEvent({ namespace, body }).catch((err: unknown) => {
        log.warn({ err: String(err), namespace, pod: podName }, 'could not record event');
      });
    },
  };
}
