// Writes a custom resource's status through the `/status` subresource with a
// JSON merge patch, and only when it changed: the desired status is compared
// with the cached one first, so a no-op reconcile performs no write. The patch
// carries the resourceVersion the status was computed from (optimistic
// concurrency: a stale computation gets 409 and is retried with backoff).
import * as k8s from '@kubernetes/client-node';
import { jsonEqual } from './conditions.ts';
import type { ControllerMetrics } from './metrics.ts';

export interface CustomResourceRef {
  group: string;
  version: string;
  plural: string;
}

export type Status = Record<string, unknown>;

export interface StatusSubject {
  metadata?: k8s.V1ObjectMeta;
  status?: Status;
}

const isMap = (v: unknown): v is Status => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A JSON merge patch merges nested objects, so keys gone from a nested map
 * (a passport's trust tier of an auditor no longer in the chain) are nulled
 * at every depth; otherwise the stored status would never match.
 */
function mergePatchOf(current: Status, desired: Status): Status {
  const patch: Status = {};
  for (const [key, value] of Object.entries(desired)) {
    if (value === undefined) continue;
    const before = current[key];
    patch[key] = isMap(value) && isMap(before) ? mergePatchOf(before, value) : value;
  }
  for (const key of Object.keys(current)) {
    if (!(key in desired) || desired[key] === undefined) patch[key] = null;
  }
  return patch;
}

/** The merge patch turning `current` into `desired`, or undefined when they are equal. */
export function statusMergePatch(current: Status | undefined, desired: Status): Status | undefined {
  if (jsonEqual(current ?? {}, desired)) return undefined;
  return mergePatchOf(current ?? {}, desired);
}

/**
 * The status as written: `observedGeneration` (top level) is the object's
 * generation, and so is each condition's unless the reconciler kept one it
 * did not set this time (a condition it does not own keeps its own).
 */
export function withObservedGeneration(desired: Status, generation: number | undefined): Status {
  if (generation === undefined) return desired;
  const conditions = desired.conditions;
  if (!Array.isArray(conditions)) return { ...desired, observedGeneration: generation };
  return {
    ...desired,
    observedGeneration: generation,
    conditions: conditions.map((c: unknown) =>
      isMap(c) && c.observedGeneration === undefined ? { ...c, observedGeneration: generation } : c,
    ),
  };
}

export interface StatusWriterOptions {
  api: k8s.CustomObjectsApi;
  resource: CustomResourceRef;
  controller: string;
  metrics?: ControllerMetrics;
}

export class StatusWriter {
  /** Writes performed and writes avoided, for tests and metrics. */
  writes = 0;
  unchanged = 0;

  constructor(private readonly options: StatusWriterOptions) {}

  /** Patches the status (generation stamped) when it differs; returns whether a write happened. */
  async write(obj: StatusSubject, desired: Status): Promise<boolean> {
    const controller = this.options.controller;
    const patch = statusMergePatch(obj.status, withObservedGeneration(desired, obj.metadata?.generation));
    if (!patch) {
      this.unchanged++;
      this.options.metrics?.statusWrites.inc({ controller, outcome: 'unchanged' });
      return false;
    }
    const { group, version, plural } = this.options.resource;
    const meta = obj.metadata ?? {};
    const body = { metadata: { resourceVersion: meta.resourceVersion }, status: patch };
    const options = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
    if (meta.namespace) {
      await this.options.api.patchNamespacedCustomObjectStatus(
        { group, version, plural, namespace: meta.namespace, name: meta.name ?? '', body },
        options,
      );
    } else {
      // Cluster-scoped kinds (Organization).
      await this.options.api.patchClusterCustomObjectStatus(
        { group, version, plural, name: meta.name ?? '', body },
        options,
      );
    }
    this.writes++;
    this.options.metrics?.statusWrites.inc({ controller, outcome: 'written' });
    return true;
  }
}
