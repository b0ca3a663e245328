// The webhook's informer caches (decision 96): what admission reads
// (namespaces, the chain ConfigMaps, AuditorPolicies, AuditorRegistrations) and what certificate
// drift is (its TLS Secret and its two webhook configurations, watched by
// name). Built on the operator's resilient informer, so they relist and
// restart the same way.
import * as k8s from '@kubernetes/client-node';
import type { AuditorPolicy, PlatformWorkspace } from '../crds/generated/types.ts';
import { informerFactory, ResilientInformer } from '../base/controller/informer.ts';
import type { Logger } from '../base/log.ts';
import type { RegistrationObject } from './cluster.ts';
import { CONFIGMAP, GROUP, PLURAL, VERSION, resourceOf } from '../contract/kube.ts';

/** Relist period of the webhook's caches (a fresh list also repairs a missed event). */
export const WEBHOOK_RELIST_INTERVAL_MS = 300_000;

type AnyList = Promise<k8s.KubernetesListObject<k8s.KubernetesObject>>;

export interface AdmissionCaches {
  namespaces: ResilientInformer<k8s.V1Namespace>;
  /** Only ConfigMaps named `platform-auditor-chain`, in every namespace. */
  chainConfigs: ResilientInformer<k8s.V1ConfigMap>;
  policies: ResilientInformer<AuditorPolicy & k8s.KubernetesObject>;
  /** AuditorRegistrations: which registered auditors a chain may name, and how each is reached. */
  registrations: ResilientInformer<RegistrationObject>;
  /** PlatformWorkspaces: the Organization above a workspace AuditorPolicy. */
  workspaces: ResilientInformer<PlatformWorkspace & k8s.KubernetesObject>;
}

export interface CertificateWatches {
  secret: ResilientInformer<k8s.V1Secret>;
  /** Absent when the rotator manages no configuration of that kind. */
  mutating?: ResilientInformer<k8s.V1MutatingWebhookConfiguration>;
  validating?: ResilientInformer<k8s.V1ValidatingWebhookConfiguration>;
}

export interface CertificateTargets {
  secret: { namespace: string; name: string };
  mutatingConfig?: string;
  validatingConfig?: string;
}

interface Watched {
  resource: string;
  watchPath: string;
  list: () => AnyList;
  fieldSelector?: string;
}

function informer<T extends k8s.KubernetesObject>(
  kc: k8s.KubeConfig,
  log: Logger,
  w: Watched,
): ResilientInformer<T> {
  return new ResilientInformer<T>({
    resource: w.resource,
    factory: informerFactory(kc, w.watchPath, w.list as k8s.ListPromise<T>, {
      fieldSelector: w.fieldSelector,
    }),
    log,
    relistIntervalMs: WEBHOOK_RELIST_INTERVAL_MS,
  });
}

const byName = (name: string): string => `metadata.name=${name}`;

export function admissionCaches(kc: k8s.KubeConfig, log: Logger): AdmissionCaches {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const chain = byName(CONFIGMAP.auditorChain);
  const policies = resourceOf(PLURAL.policy);
  const registrations = resourceOf(PLURAL.auditor);
  const workspaces = resourceOf(PLURAL.workspace);
  return {
    namespaces: informer(kc, log, {
      resource: 'namespaces',
      watchPath: '/api/v1/namespaces',
      list: () => core.listNamespace() as AnyList,
    }),
    chainConfigs: informer(kc, log, {
      resource: `configmaps (${CONFIGMAP.auditorChain})`,
      watchPath: '/api/v1/configmaps',
      list: () => core.listConfigMapForAllNamespaces({ fieldSelector: chain }) as AnyList,
      fieldSelector: chain,
    }),
    policies: informer(kc, log, {
      resource: `${PLURAL.policy}.${GROUP}`,
      watchPath: `/apis/${GROUP}/${VERSION}/${PLURAL.policy}`,
      list: () => custom.listClusterCustomObject(policies) as AnyList,
    }),
    registrations: informer(kc, log, {
      resource: `${PLURAL.auditor}.${GROUP}`,
      watchPath: `/apis/${GROUP}/${VERSION}/${PLURAL.auditor}`,
      list: () => custom.listClusterCustomObject(registrations) as AnyList,
    }),
    workspaces: informer(kc, log, {
      resource: `${PLURAL.workspace}.${GROUP}`,
      watchPath: `/apis/${GROUP}/${VERSION}/${PLURAL.workspace}`,
      list: () => custom.listClusterCustomObject(workspaces) as AnyList,
    }),
  };
}

/** One webhook configuration, watched by name. */
function configWatch<T extends k8s.KubernetesObject>(
  kc: k8s.KubeConfig,
  log: Logger,
  target: { kind: 'mutating' | 'validating'; name: string },
): ResilientInformer<T> {
  const adm = kc.makeApiClient(k8s.AdmissionregistrationV1Api);
  const fieldSelector = byName(target.name);
  const plural = `${target.kind}webhookconfigurations`;
  const list =
    target.kind === 'mutating'
      ? () => adm.listMutatingWebhookConfiguration({ fieldSelector })
      : () => adm.listValidatingWebhookConfiguration({ fieldSelector });
  return informer<T>(kc, log, {
    resource: `${plural} (${target.name})`,
    watchPath: `/apis/admissionregistration.k8s.io/v1/${plural}`,
    list: list as () => AnyList,
    fieldSelector,
  });
}

export function certificateWatches(
  kc: k8s.KubeConfig,
  log: Logger,
  t: CertificateTargets,
): CertificateWatches {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const { namespace, name } = t.secret;
  const m = t.mutatingConfig;
  const v = t.validatingConfig;
  return {
    secret: informer(kc, log, {
      resource: `secrets (${name})`,
      watchPath: `/api/v1/namespaces/${namespace}/secrets`,
      list: () => core.listNamespacedSecret({ namespace, fieldSelector: byName(name) }) as AnyList,
      fieldSelector: byName(name),
    }),
    ...(m ? { mutating: configWatch(kc, log, { kind: 'mutating', name: m }) } : {}),
    ...(v ? { validating: configWatch(kc, log, { kind: 'validating', name: v }) } : {}),
  };
}

/** '' once every cache has synced and none is stale, else why not (for `/readyz`). */
export function cacheReadiness(informers: readonly { staleness(): string }[]): string {
  return informers
    .map((i) => i.staleness())
    .filter(Boolean)
    .join('; ');
}
