// Writes to owned objects, each counted in
// `platform_controller_object_writes_total` so "a no-op resync performs zero
// writes" can be checked from outside. Creating an object that already
// exists (a stale cache) and deleting one already gone are not errors.
import * as k8s from '@kubernetes/client-node';
import { apiStatus } from '../kube.ts';
import type { ControllerMetrics } from './metrics.ts';

export type WriteVerb = 'create' | 'patch' | 'delete';

/** One owned object to bring in line with what the controller wants. */
export interface OwnedObjectSync<T extends k8s.KubernetesObject> {
  kind: string;
  /** From the cache; undefined when the object does not exist. */
  current: T | undefined;
  desired: T;
  create: () => Promise<unknown>;
  /** Omitted: an existing object is never changed (created once). */
  patch?: () => Promise<unknown>;
  /** Default: the spec-hash annotations are equal. */
  upToDate?: (current: T, desired: T) => boolean;
}

export type SyncOutcome = 'created' | 'patched' | 'unchanged';

export interface ObjectWriterOptions {
  controller: string;
  /** The annotation holding the hash of what the operator last wrote (see hash.ts). */
  specHashAnnotation: string;
  metrics?: ControllerMetrics;
}

export class ObjectWriter {
  writes = 0;
  private readonly controller: string;
  private readonly metrics?: ControllerMetrics;
  constructor(private readonly options: ObjectWriterOptions) {
    this.controller = options.controller;
    this.metrics = options.metrics;
  }

  /** Creates the object when missing, patches it when out of date, and otherwise writes nothing. */
  async createOrPatch<T extends k8s.KubernetesObject>(sync: OwnedObjectSync<T>): Promise<SyncOutcome> {
    const { kind, current, desired } = sync;
    if (!current) {
      await this.create(kind, sync.create);
      return 'created';
    }
    const upToDate = sync.upToDate ?? ((a: T, b: T) => this.specHashOf(a) === this.specHashOf(b));
    if (!sync.patch || upToDate(current, desired)) return 'unchanged';
    await this.patch(kind, sync.patch);
    return 'patched';
  }

  private specHashOf(obj: k8s.KubernetesObject): string | undefined {
    return obj.metadata?.annotations?.[this.options.specHashAnnotation];
  }

  /** Runs one write call and counts it; `tolerate` lists HTTP codes that count as done. */
  async run<T>(
    kind: string,
    verb: WriteVerb,
    call: () => Promise<T>,
    tolerate: number[] = [],
  ): Promise<T | undefined> {
    this.writes++;
    this.metrics?.objectWrites.inc({ controller: this.controller, kind, verb });
    try {
      return await call();
    } catch (err) {
      if (tolerate.includes(apiStatus(err) ?? 0)) return undefined;
      throw err;
    }
  }

  create<T>(kind: string, call: () => Promise<T>): Promise<T | undefined> {
    return this.run(kind, 'create', call, [409]);
  }

  patch<T>(kind: string, call: () => Promise<T>): Promise<T | undefined> {
    return this.run(kind, 'patch', call);
  }

  delete<T>(kind: string, call: () => Promise<T>): Promise<T | undefined> {
    return this.run(kind, 'delete', call, [404]);
  }
}

export const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
export const applyPatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
