// Writes to owned objects, each counted in
// `platform_controller_object_writes_total` so "a no-op resync performs zero
// writes" can be checked from outside. Creating an object that already
// exists (a stale cache) and deleting one already gone are not errors.
import * as k8s from '@kubernetes/client-node';
import { apiStatus } from '../kube.ts';
import type { ControllerMetrics } from './metrics.ts';

export type WriteVerb = 'create' | 'patch' | 'delete';

export class ObjectWriter {
  writes = 0;
  constructor(
    private readonly controller: string,
    private readonly metrics?: ControllerMetrics,
  ) {}

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
