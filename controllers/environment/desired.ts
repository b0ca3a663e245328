// A PlatformEnvironment with `deploymentType: model`, pure: the model server
// as a Deployment whose pods carry the auditor chain (the webhook injects the
// auditors and the gateway, whose model is the server beside it on
// loopback), and a Service in front of it whose port leads to the gateway,
// never to the model directly: a headless API backend (no UI), every call
// audited. The Service has a cluster IP, so an agent's pod can redirect that
// one address to its own gateway too.
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import { ANNOTATION, API_VERSION, LABEL, MANAGED_BY } from '../../contract/kube.ts';
import type * as k8s from '@kubernetes/client-node';
import { canonicalize } from '../../base/canonical.ts';
import type { PlatformEnvironment } from '../../crds/generated/types.ts';
import { auditorSettingsProblems, type AuditorSettingValues } from '../../auditors/catalog/settings.ts';
import { effectiveSettings, resolveSettings } from '../../policy/settings-cascade.ts';
import { chainIds, chainLists, composeChain } from '../chain/compose.ts';
import { specHash } from '../../base/controller/hash.ts';
import { ownerReference } from '../common/meta.ts';
import { CONTAINER } from '../../webhooks/constants.ts';

/** The Service port callers use (and the model server's own port inside the pod). */
export const MODEL_PORT = 8080;
/** The injected gateway's port (webhooks/constants.ts `PORT.gateway`): where the Service sends callers. */
export const GATEWAY_PORT = 8099;

export interface EnvironmentSettings {
  image: string;
  /** Arguments of the model server container (the platform image: `run model`). */
  args?: readonly string[];
  runtimeClassName?: string;
}

export const environmentObjectName = (env: PlatformEnvironment): string => `model-${env.metadata.name ?? ''}`;

function baseMeta(env: PlatformEnvironment): k8s.V1ObjectMeta {
  return {
    name: environmentObjectName(env),
    namespace: env.metadata.namespace,
    labels: { [LABEL.managedBy]: MANAGED_BY, [LABEL.environment]: env.metadata.name ?? '' },
    ownerReferences: [
      ownerReference({ apiVersion: API_VERSION, kind: 'PlatformEnvironment', metadata: env.metadata }),
    ],
  };
}

export function environmentChain(env: PlatformEnvironment): string[] {
  const lists = chainLists(env.spec.auditorChain);
  return chainIds(composeChain({ userSelected: [...lists.preRequest, ...lists.postResponse] }));
}

/** The environment's auditorSettings for its chain's auditors, and what an auditor would refuse in them. */
export function environmentSettings(env: PlatformEnvironment): {
  settings: AuditorSettingValues;
  problems: string[];
} {
  const chain = environmentChain(env);
  const all = effectiveSettings(resolveSettings({ agent: env.spec.auditorSettings }));
  const settings = Object.fromEntries(Object.entries(all).filter(([id]) => chain.includes(id)));
  return { settings, problems: auditorSettingsProblems(settings) };
}

/** What the webhook reads to secure the model pod: its chain, its mode, where the gateway forwards to. */
function gatewayAnnotations(env: PlatformEnvironment): Record<string, string> {
  const auditors = environmentSettings(env);
  const passSettings = auditors.problems.length === 0 && Object.keys(auditors.settings).length > 0;
  return {
    [ANNOTATION.auditorChain]: environmentChain(env).join(','),
    [ANNOTATION.auditMode]: 'enforce',
    // The gateway forwards allowed calls to the model server in its own pod.
    [ANNOTATION.modelUrl]: `http://127.0.0.1:${MODEL_PORT}`,
    [ANNOTATION.workspaceId]: env.metadata.namespace ?? '',
    ...(passSettings ? { [ANNOTATION.auditorSettings]: canonicalize(auditors.settings) } : {}),
  };
}

function modelContainer(env: PlatformEnvironment, settings: EnvironmentSettings): k8s.V1Container {
  const modelId = env.spec.model?.id ?? '';
  return {
    name: 'model',
    image: settings.image,
    ...(settings.args?.length ? { args: [...settings.args] } : {}),
    // The model server's contract: listen on PORT, serve the model id it is given.
    env: [
      { name: 'PORT', value: String(MODEL_PORT) },
      { name: 'PLATFORM_MODEL_ID', value: modelId },
      { name: 'PLATFORM_MODEL_IDS', value: modelId },
    ],
    ports: [{ name: 'http', containerPort: MODEL_PORT }],
  };
}

export function desiredDeployment(env: PlatformEnvironment, settings: EnvironmentSettings): k8s.V1Deployment {
  const selector = { [LABEL.environment]: env.metadata.name ?? '' };
  const template: k8s.V1PodTemplateSpec = {
    metadata: { labels: { ...selector, [LABEL.secured]: 'true' }, annotations: gatewayAnnotations(env) },
    spec: {
      containers: [modelContainer(env, settings)],
      ...(settings.runtimeClassName ? { runtimeClassName: settings.runtimeClassName } : {}),
    },
  };
  const spec: k8s.V1DeploymentSpec = { replicas: 1, selector: { matchLabels: selector }, template };
  const meta = baseMeta(env);
  meta.annotations = { [ANNOTATION.specHash]: specHash(spec) };
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta, spec };
}

/** Callers reach the gateway of the secured model pod, which audits and then calls the model. */
export function desiredService(env: PlatformEnvironment): k8s.V1Service {
  const spec: k8s.V1ServiceSpec = {
    type: 'ClusterIP',
    selector: { [LABEL.environment]: env.metadata.name ?? '' },
    ports: [{ name: 'http', protocol: 'TCP', port: MODEL_PORT, targetPort: GATEWAY_PORT }],
  };
  const meta = baseMeta(env);
  meta.annotations = { [ANNOTATION.specHash]: specHash(spec) };
  return { apiVersion: 'v1', kind: 'Service', metadata: meta, spec };
}

export function environmentEndpoint(env: PlatformEnvironment): string {
  return `http://${environmentObjectName(env)}.${env.metadata.namespace}.svc:${MODEL_PORT}`;
}

/** The environment's conditions: its auditor settings are usable, its model is available. */
export function environmentConditions(
  env: PlatformEnvironment,
  problems: readonly string[],
  available: boolean,
): DesiredCondition[] {
  const gateway: DesiredCondition =
    problems.length === 0
      ? { type: 'GatewayConfigured', status: 'True', reason: 'Resolved' }
      : {
          type: 'GatewayConfigured',
          status: 'False',
          reason: 'InvalidAuditorSettings',
          message: `${problems.join('; ')}; the running Deployment is kept`,
        };
  const ready: DesiredCondition = available
    ? {
        type: 'Ready',
        status: 'True',
        reason: 'ModelAvailable',
        message: `Deployment ${environmentObjectName(env)} is available`,
      }
    : {
        type: 'Ready',
        status: 'False',
        reason: 'ModelStarting',
        message: `waiting for Deployment ${environmentObjectName(env)}`,
      };
  return [gateway, ready];
}

/** The environment's pods the webhook never saw (no gateway): made before their namespace was labelled. */
export const uninjectedPods = (pods: readonly k8s.V1Pod[]): k8s.V1Pod[] =>
  pods.filter(
    (p) =>
      !p.metadata?.deletionTimestamp && !(p.spec?.containers ?? []).some((c) => c.name === CONTAINER.gateway),
  );

/** The label selector of an environment's pods (its Deployment's). */
export const environmentPodSelector = (env: PlatformEnvironment): string =>
  `${LABEL.environment}=${env.metadata.name ?? ''}`;
