// Informers for the kinds the controllers read: custom resources (all
// namespaces or one) and the core objects the operator owns, listed by the
// managed-by label so the cache holds only the operator's own objects.
import * as k8s from '@kubernetes/client-node';
import type { Logger } from '../../base/log.ts';
import { informerFactory, ResilientInformer } from '../../base/controller/informer.ts';
import type { ControllerMetrics } from '../../base/controller/metrics.ts';
import type { CustomResourceRef } from '../../base/controller/status-writer.ts';
import { MANAGED_SELECTOR } from './meta.ts';

export interface InformerContext {
  kc: k8s.KubeConfig;
  log: Logger;
  metrics?: ControllerMetrics;
  relistIntervalMs: number;
  staleAfterMs: number;
  /** Watch one namespace (PLATFORM_WATCH_NAMESPACE); all when undefined. */
  namespace?: string;
}

type AnyList = Promise<k8s.KubernetesListObject<k8s.KubernetesObject>>;

function build<T extends k8s.KubernetesObject>(
  ctx: InformerContext,
  resource: string,
  watchPath: string,
  list: () => AnyList,
  labelSelector?: string,
): ResilientInformer<T> {
  return new ResilientInformer<T>({
    resource,
    factory: informerFactory(ctx.kc, watchPath, list as k8s.ListPromise<T>, { labelSelector }),
    log: ctx.log,
    metrics: ctx.metrics,
    relistIntervalMs: ctx.relistIntervalMs,
    staleAfterMs: ctx.staleAfterMs,
  });
}

/** A custom resource; cluster-scoped kinds ignore the namespace. */
export function customInformer<T extends k8s.KubernetesObject>(
  ctx: InformerContext,
  ref: CustomResourceRef,
  clusterScoped = false,
): ResilientInformer<T> {
  const api = ctx.kc.makeApiClient(k8s.CustomObjectsApi);
  const base = `/apis/${ref.group}/${ref.version}`;
  const ns = clusterScoped ? undefined : ctx.namespace;
  const name = `${ref.plural}.${ref.group}`;
  if (ns) {
    return build<T>(
      ctx,
      name,
      `${base}/namespaces/${ns}/${ref.plural}`,
      () => api.listNamespacedCustomObject({ ...ref, namespace: ns }) as AnyList,
    );
  }
  return build<T>(
    ctx,
    name,
    `${base}/${ref.plural}`,
    () => api.listClusterCustomObject({ ...ref }) as AnyList,
  );
}

export type CoreKind = 'pods' | 'serviceaccounts' | 'secrets' | 'configmaps' | 'services' | 'deployments';

function coreList(kc: k8s.KubeConfig, kind: CoreKind, ns: string | undefined): () => AnyList {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  const labelSelector = MANAGED_SELECTOR;
  const namespaced: Record<CoreKind, (namespace: string) => AnyList> = {
    pods: (namespace) => core.listNamespacedPod({ namespace, labelSelector }) as AnyList,
    serviceaccounts: (namespace) =>
      core.listNamespacedServiceAccount({ namespace, labelSelector }) as AnyList,
    secrets: (namespace) => core.listNamespacedSecret({ namespace, labelSelector }) as AnyList,
    configmaps: (namespace) => core.listNamespacedConfigMap({ namespace, labelSelector }) as AnyList,
    services: (namespace) => core.listNamespacedService({ namespace, labelSelector }) as AnyList,
    deployments: (namespace) => apps.listNamespacedDeployment({ namespace, labelSelector }) as AnyList,
  };
  const all: Record<CoreKind, () => AnyList> = {
    pods: () => core.listPodForAllNamespaces({ labelSelector }) as AnyList,
    serviceaccounts: () => core.listServiceAccountForAllNamespaces({ labelSelector }) as AnyList,
    secrets: () => core.listSecretForAllNamespaces({ labelSelector }) as AnyList,
    configmaps: () => core.listConfigMapForAllNamespaces({ labelSelector }) as AnyList,
    services: () => core.listServiceForAllNamespaces({ labelSelector }) as AnyList,
    deployments: () => apps.listDeploymentForAllNamespaces({ labelSelector }) as AnyList,
  };
  return ns ? () => namespaced[kind](ns) : all[kind];
}

/** Nodes (cluster-scoped, all of them): an agent's pod is only as ready as its node. */
export function nodeInformer(ctx: InformerContext): ResilientInformer<k8s.V1Node> {
  const core = ctx.kc.makeApiClient(k8s.CoreV1Api);
  return build<k8s.V1Node>(ctx, 'nodes', '/api/v1/nodes', () => core.listNode() as AnyList);
}

/** Owned core objects of one kind (only those with the managed-by label). */
export function ownedInformer<T extends k8s.KubernetesObject>(
  ctx: InformerContext,
  kind: CoreKind,
): ResilientInformer<T> {
  const prefix = kind === 'deployments' ? '/apis/apps/v1' : '/api/v1';
  const watchPath = ctx.namespace ? `${prefix}/namespaces/${ctx.namespace}/${kind}` : `${prefix}/${kind}`;
  return build<T>(ctx, kind, watchPath, coreList(ctx.kc, kind, ctx.namespace), MANAGED_SELECTOR);
}
