// Wiring of the agent controller: the PlatformAgent informer (cluster-wide or
// one namespace) and the controller that runs AgentReconciler on its keys.
import * as k8s from '@kubernetes/client-node';
import type { Logger } from '../../operator/log.ts';
import { Controller } from '../runtime/controller.ts';
import { EventRecorder } from '../runtime/events.ts';
import { informerFactory, ResilientInformer } from '../runtime/informer.ts';
import type { ControllerMetrics } from '../runtime/metrics.ts';
import { StatusWriter, type CustomResourceRef } from '../runtime/status-writer.ts';
import { AgentReconciler } from './reconciler.ts';
import { AGENT_RESOURCE, type PlatformAgent } from './types.ts';

export const AGENT_CONTROLLER = 'platformagent';

export interface InformerTimings {
  relistIntervalMs: number;
  staleAfterMs: number;
}

/** Watch path and list call for a custom resource, cluster-wide or in one namespace. */
export function customResourceSource<T extends k8s.KubernetesObject>(
  kc: k8s.KubeConfig,
  ref: CustomResourceRef,
  namespace?: string,
): { watchPath: string; list: k8s.ListPromise<T> } {
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  const base = `/apis/${ref.group}/${ref.version}`;
  if (namespace) {
    return {
      watchPath: `${base}/namespaces/${namespace}/${ref.plural}`,
      list: () =>
        api.listNamespacedCustomObject({ ...ref, namespace }) as Promise<k8s.KubernetesListObject<T>>,
    };
  }
  return {
    watchPath: `${base}/${ref.plural}`,
    list: () => api.listClusterCustomObject({ ...ref }) as Promise<k8s.KubernetesListObject<T>>,
  };
}

export function agentInformer(
  kc: k8s.KubeConfig,
  log: Logger,
  timings: InformerTimings,
  metrics?: ControllerMetrics,
  namespace?: string,
): ResilientInformer<PlatformAgent> {
  const { watchPath, list } = customResourceSource<PlatformAgent>(kc, AGENT_RESOURCE, namespace);
  return new ResilientInformer<PlatformAgent>({
    resource: `${AGENT_RESOURCE.plural}.${AGENT_RESOURCE.group}`,
    factory: informerFactory(kc, watchPath, list),
    log,
    metrics,
    ...timings,
  });
}

export interface AgentControllerOptions {
  kc: k8s.KubeConfig;
  informer: ResilientInformer<PlatformAgent>;
  log: Logger;
  metrics?: ControllerMetrics;
  identity: string;
  workers: number;
  resyncIntervalMs: number;
}

export function createAgentController(options: AgentControllerOptions): Controller {
  const { kc, informer, log, metrics } = options;
  const statusWriter = new StatusWriter({
    api: kc.makeApiClient(k8s.CustomObjectsApi),
    resource: AGENT_RESOURCE,
    controller: AGENT_CONTROLLER,
    metrics,
  });
  const events = new EventRecorder({
    api: kc.makeApiClient(k8s.EventsV1Api),
    controller: AGENT_CONTROLLER,
    instance: options.identity,
    log,
    metrics,
  });
  const reconciler = new AgentReconciler({ getAgent: (key) => informer.get(key), statusWriter, events, log });
  return new Controller({
    name: AGENT_CONTROLLER,
    primary: informer,
    reconcile: reconciler.reconcile,
    log,
    metrics,
    workers: options.workers,
    resyncIntervalMs: options.resyncIntervalMs,
  });
}
