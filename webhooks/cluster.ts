// What the webhook reads from and writes to the cluster on the request path:
// namespace labels, the chain ConfigMap (both with a short cache) and Events.
// Interfaces first, so handlers and tests use plain objects.
import { randomBytes } from 'node:crypto';
import * as k8s from '@kubernetes/client-node';
import { orUndefinedOn404 } from '../operator/kube.ts';
import type { Logger } from '../operator/log.ts';
import { CHAIN_CONFIGMAP } from './constants.ts';

export interface ClusterView {
  /** Labels of a namespace; undefined when it does not exist. Throws when unreadable. */
  namespaceLabels(namespace: string): Promise<Record<string, string> | undefined>;
  /** `data` of the namespace's chain ConfigMap; undefined when absent. Throws when unreadable. */
  chainConfig(namespace: string): Promise<Record<string, string> | undefined>;
}

export interface PodEventSink {
  /** Fire-and-forget: records a Warning Event about a pod that was admitted without injection. */
  invalidAnnotations(namespace: string, podName: string, note: string): void;
}

interface Cached<T> {
  value: T;
  expiresAtMs: number;
}

/** A tiny TTL cache; `ttlMs` 0 disables it (tests read their own writes at once). */
export function cached<T>(ttlMs: number, load: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const entries = new Map<string, Cached<T>>();
  return async (key) => {
    const hit = entries.get(key);
    const now = Date.now();
    if (hit && hit.expiresAtMs > now) return hit.value;
    const value = await load(key);
    if (ttlMs > 0) {
      if (entries.size > 5000) entries.clear();
      entries.set(key, { value, expiresAtMs: now + ttlMs });
    }
    return value;
  };
}

export function kubeClusterView(kc: k8s.KubeConfig, cacheTtlMs: number): ClusterView {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  return {
    namespaceLabels: cached(cacheTtlMs, async (name) => {
      const ns = await orUndefinedOn404(core.readNamespace({ name }));
      return ns ? (ns.metadata?.labels ?? {}) : undefined;
    }),
    chainConfig: cached(cacheTtlMs, async (namespace) => {
      const cm = await orUndefinedOn404(core.readNamespacedConfigMap({ namespace, name: CHAIN_CONFIGMAP }));
      return cm?.data;
    }),
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
        reportingComponent: 'platform.io/webhook',
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
