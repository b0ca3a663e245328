// What every controller factory needs: the kube config, shared caches, logs,
// metrics and this replica's identity; and the per-kind status writer, event
// recorder and object writer built from it.
import * as k8s from '@kubernetes/client-node';
import type { Logger } from '../../base/log.ts';
import { EventRecorder } from '../../base/controller/events.ts';
import type { ControllerMetrics } from '../../base/controller/metrics.ts';
import { StatusWriter, type CustomResourceRef } from '../../base/controller/status-writer.ts';
import type { Caches } from './caches.ts';
import { ObjectWriter } from '../../base/controller/writer.ts';
import { ANNOTATION } from '../../contract/kube.ts';

export interface ControllerContext {
  kc: k8s.KubeConfig;
  caches: Caches;
  log: Logger;
  metrics?: ControllerMetrics;
  identity: string;
  workers: number;
  resyncIntervalMs: number;
}

export interface Toolkit {
  statusWriter: StatusWriter;
  events: EventRecorder;
  writer: ObjectWriter;
}

export function toolkit(ctx: ControllerContext, controller: string, resource: CustomResourceRef): Toolkit {
  return {
    statusWriter: new StatusWriter({
      api: ctx.kc.makeApiClient(k8s.CustomObjectsApi),
      resource,
      controller,
      metrics: ctx.metrics,
    }),
    events: new EventRecorder({
      api: ctx.kc.makeApiClient(k8s.EventsV1Api),
      controller,
      instance: ctx.identity,
      log: ctx.log,
      metrics: ctx.metrics,
    }),
    writer: new ObjectWriter({ controller, specHashAnnotation: ANNOTATION.specHash, metrics: ctx.metrics }),
  };
}
