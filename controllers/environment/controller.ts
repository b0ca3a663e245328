// The PlatformEnvironment controller: keeps the model Deployment and its
// Service in line (a differing spec hash is patched; a headless Service from
// an earlier version is replaced, a cluster IP cannot be added in place) and
// publishes the endpoint in status. Owner references garbage-collect both.
import * as k8s from '@kubernetes/client-node';
import type { PlatformEnvironment } from '../../crds/generated/types.ts';
import { byLabel, toolkit, type ControllerContext } from '../common/toolkit.ts';
import { mergePatch } from '../../base/controller/writer.ts';
import { mergeConditions, type Condition } from '../../base/controller/conditions.ts';
import { Controller } from '../../base/controller/controller.ts';
import {
  desiredDeployment,
  desiredService,
  environmentEndpoint,
  environmentObjectName,
  environmentSettings,
  type EnvironmentSettings,
} from './desired.ts';
import { API_VERSION, LABEL, RESOURCES, ANNOTATION } from '../../contract/kube.ts';

export const ENVIRONMENT_CONTROLLER = 'platformenvironment';

export function createEnvironmentController(
  ctx: ControllerContext,
  settings: EnvironmentSettings,
): Controller {
  const c = ctx.caches;
  const kit = toolkit(ctx, ENVIRONMENT_CONTROLLER, RESOURCES.environment);
  const core = ctx.kc.makeApiClient(k8s.CoreV1Api);
  const apps = ctx.kc.makeApiClient(k8s.AppsV1Api);
  const hashOf = (o?: k8s.KubernetesObject): string | undefined =>
    o?.metadata?.annotations?.[ANNOTATION.specHash];

  const syncDeployment = async (env: PlatformEnvironment, namespace: string, name: string): Promise<void> => {
    const body = desiredDeployment(env, settings);
    const current = c.deployments.get(`${namespace}/${name}`);
    if (!current)
      await kit.writer.create('Deployment', () => apps.createNamespacedDeployment({ namespace, body }));
    else if (hashOf(current) !== hashOf(body)) {
      const patch = { metadata: { annotations: body.metadata?.annotations }, spec: body.spec };
      await kit.writer.patch('Deployment', () =>
        apps.patchNamespacedDeployment({ namespace, name, body: patch }, mergePatch),
      );
    }
  };
  const syncService = async (env: PlatformEnvironment, namespace: string, name: string): Promise<void> => {
    const body = desiredService(env);
    const current = c.services.get(`${namespace}/${name}`);
    if (!current) await kit.writer.create('Service', () => core.createNamespacedService({ namespace, body }));
    else if (current.spec?.clusterIP === 'None') {
      await kit.writer.delete('Service', () => core.deleteNamespacedService({ namespace, name }));
    } else if (hashOf(current) !== hashOf(body)) {
      const patch = {
        metadata: { annotations: body.metadata?.annotations },
        spec: { selector: body.spec?.selector, ports: body.spec?.ports },
      };
      await kit.writer.patch('Service', () =>
        core.patchNamespacedService({ namespace, name, body: patch }, mergePatch),
      );
    }
  };

  const reconcile = async (key: string): Promise<void> => {
    const env = c.environments.get(key);
    if (!env || env.metadata.deletionTimestamp || env.spec.deploymentType !== 'model') return;
    const namespace = env.metadata.namespace ?? '';
    const name = environmentObjectName(env);
    // Settings an auditor would refuse keep the running Deployment (decision 44).
    const { problems } = environmentSettings(env);
    if (problems.length === 0) await syncDeployment(env, namespace, name);
    await syncService(env, namespace, name);
    const deployment = c.deployments.get(`${namespace}/${name}`);
    const available = (deployment?.status?.availableReplicas ?? 0) > 0;
    const g = env.metadata.generation !== undefined ? { observedGeneration: env.metadata.generation } : {};
    const conditions = mergeConditions(
      env.status?.conditions as Condition[] | undefined,
      [
        problems.length === 0
          ? { type: 'GatewayConfigured', status: 'True', reason: 'Resolved', ...g }
          : {
              type: 'GatewayConfigured',
              status: 'False',
              reason: 'InvalidAuditorSettings',
              message: `${problems.join('; ')}; the running Deployment is kept`,
              ...g,
            },
        available
          ? { type: 'Ready', status: 'True', reason: 'ModelAvailable', ...g }
          : {
              type: 'Ready',
              status: 'False',
              reason: 'ModelStarting',
              message: `waiting for Deployment ${name}`,
              ...g,
            },
      ],
      new Date(),
      ['Ready', 'GatewayConfigured'],
    );
    const status = { ...env.status, ...g, endpoint: environmentEndpoint(env), conditions };
    const subject = { ...env, apiVersion: API_VERSION, kind: 'PlatformEnvironment' };
    await kit.statusWriter.write(subject, status);
  };
  return new Controller({
    name: ENVIRONMENT_CONTROLLER,
    primary: c.environments,
    watches: [
      { informer: c.deployments, mapToKeys: byLabel(LABEL.environment) },
      { informer: c.services, mapToKeys: byLabel(LABEL.environment) },
    ],
    reconcile,
    log: ctx.log,
    metrics: ctx.metrics,
    workers: ctx.workers,
    resyncIntervalMs: ctx.resyncIntervalMs,
  });
}
