// The PlatformEnvironment controller: labels the namespace for the webhook,
// keeps the model Deployment and its
// Service in line (a differing spec hash is patched; a headless Service from
// an earlier version is replaced, a cluster IP cannot be added in place) and
// publishes the endpoint in status. Owner references garbage-collect both.
import * as k8s from '@kubernetes/client-node';
import { API_VERSION, LABEL, RESOURCES } from '../../contract/kube.ts';
import type { PlatformEnvironment } from '../../crds/generated/types.ts';
import type { Caches } from '../common/caches.ts';
import { defineController } from '../common/define.ts';
import type { ControllerContext, Toolkit } from '../common/toolkit.ts';
import { mergePatch } from '../../base/controller/writer.ts';
import { mergeConditions, type Condition } from '../../base/controller/conditions.ts';
import type { Controller, Reconcile } from '../../base/controller/controller.ts';
import { ownerKeys } from '../../base/controller/owners.ts';
import { ensureNamespaceEnabled } from '../common/namespace.ts';
import {
  desiredDeployment,
  desiredService,
  environmentConditions,
  environmentEndpoint,
  environmentObjectName,
  environmentPodSelector,
  environmentSettings,
  uninjectedPods,
  type EnvironmentSettings,
} from './desired.ts';

export const ENVIRONMENT_CONTROLLER = 'platformenvironment';

interface EnvironmentWrites {
  caches: Caches;
  kit: Toolkit;
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  settings: EnvironmentSettings;
}

async function syncDeployment(w: EnvironmentWrites, env: PlatformEnvironment): Promise<void> {
  const namespace = env.metadata.namespace ?? '';
  const name = environmentObjectName(env);
  const body = desiredDeployment(env, w.settings);
  const patch = { metadata: { annotations: body.metadata?.annotations }, spec: body.spec };
  await w.kit.writer.createOrPatch({
    kind: 'Deployment',
    current: w.caches.deployments.get(`${namespace}/${name}`),
    desired: body,
    create: () => w.apps.createNamespacedDeployment({ namespace, body }),
    patch: () => w.apps.patchNamespacedDeployment({ namespace, name, body: patch }, mergePatch),
  });
}

async function syncService(w: EnvironmentWrites, env: PlatformEnvironment): Promise<void> {
  const namespace = env.metadata.namespace ?? '';
  const name = environmentObjectName(env);
  const body = desiredService(env);
  const current = w.caches.services.get(`${namespace}/${name}`);
  if (current?.spec?.clusterIP === 'None') {
    await w.kit.writer.delete('Service', () => w.core.deleteNamespacedService({ namespace, name }));
    return;
  }
  const patch = {
    metadata: { annotations: body.metadata?.annotations },
    spec: { selector: body.spec?.selector, ports: body.spec?.ports },
  };
  await w.kit.writer.createOrPatch({
    kind: 'Service',
    current,
    desired: body,
    create: () => w.core.createNamespacedService({ namespace, body }),
    patch: () => w.core.patchNamespacedService({ namespace, name, body: patch }, mergePatch),
  });
}

/**
 * The webhook must see the model pods: the namespace is labelled before the Deployment is made
 * (decision 303). Pods made before the label (an older version, a namespace labelled by hand
 * later) are deleted so their ReplicaSet makes them again, through the webhook.
 */
async function secureNamespace(w: EnvironmentWrites, env: PlatformEnvironment): Promise<void> {
  const namespace = env.metadata.namespace ?? '';
  const label = await ensureNamespaceEnabled(w.core, w.kit.writer, namespace);
  if (label.error) {
    throw new Error(`namespace ${namespace} could not be labelled for the admission webhook: ${label.error}`);
  }
  if (!label.labelled) return;
  const pods = await w.core.listNamespacedPod({ namespace, labelSelector: environmentPodSelector(env) });
  for (const pod of uninjectedPods(pods.items)) {
    const name = pod.metadata?.name ?? '';
    await w.kit.writer.delete('Pod', () => w.core.deleteNamespacedPod({ namespace, name }));
  }
}

function environmentReconciler(w: EnvironmentWrites): Reconcile {
  return async (key) => {
    const env = w.caches.environments.get(key);
    if (!env || env.metadata.deletionTimestamp || env.spec.deploymentType !== 'model') return;
    // Settings an auditor would refuse keep the running Deployment (decision 44).
    const { problems } = environmentSettings(env);
    if (problems.length === 0) {
      await secureNamespace(w, env);
      await syncDeployment(w, env);
    }
    await syncService(w, env);
    const deployment = w.caches.deployments.get(`${env.metadata.namespace}/${environmentObjectName(env)}`);
    const available = (deployment?.status?.availableReplicas ?? 0) > 0;
    const conditions = mergeConditions(
      env.status?.conditions as Condition[] | undefined,
      environmentConditions(env, problems, available),
      new Date(),
      ['Ready', 'GatewayConfigured'],
    );
    const status = { ...env.status, endpoint: environmentEndpoint(env), conditions };
    const subject = { ...env, apiVersion: API_VERSION, kind: 'PlatformEnvironment' };
    await w.kit.statusWriter.write(subject, status);
  };
}

export function createEnvironmentController(
  ctx: ControllerContext,
  settings: EnvironmentSettings,
): Controller {
  const c = ctx.caches;
  const toOwner = ownerKeys({ label: LABEL.environment });
  return defineController(ctx, {
    name: ENVIRONMENT_CONTROLLER,
    resource: RESOURCES.environment,
    primary: c.environments,
    watches: [
      { informer: c.deployments, mapToKeys: toOwner },
      { informer: c.services, mapToKeys: toOwner },
    ],
    reconciler: (kit) =>
      environmentReconciler({
        caches: c,
        kit,
        core: ctx.kc.makeApiClient(k8s.CoreV1Api),
        apps: ctx.kc.makeApiClient(k8s.AppsV1Api),
        settings,
      }),
  });
}
