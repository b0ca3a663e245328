// The one shape of a controller: the kind it reconciles (its informer and
// custom-resource coordinates), the watches that map other objects' events to
// its keys (with change filters), and a reconciler built from the toolkit.
// The runtime options (logs, metrics, workers, resync) come from the context.
import type * as k8s from '@kubernetes/client-node';
import { Controller, type Reconcile, type WatchSource } from '../../base/controller/controller.ts';
import type { ResilientInformer } from '../../base/controller/informer.ts';
import type { CustomResourceRef } from '../../base/controller/status-writer.ts';
import { toolkit, type ControllerContext, type Toolkit } from './toolkit.ts';

export interface ControllerDefinition<T extends k8s.KubernetesObject> {
  name: string;
  resource: CustomResourceRef;
  primary: ResilientInformer<T>;
  watches?: WatchSource[];
  reconciler: (kit: Toolkit) => Reconcile;
}

export function defineController<T extends k8s.KubernetesObject>(
  ctx: ControllerContext,
  definition: ControllerDefinition<T>,
): Controller {
  const { name, resource, primary } = definition;
  return new Controller({
    name,
    primary,
    watches: definition.watches ?? [],
    reconcile: definition.reconciler(toolkit(ctx, name, resource)),
    log: ctx.log,
    metrics: ctx.metrics,
    workers: ctx.workers,
    resyncIntervalMs: ctx.resyncIntervalMs,
  });
}
