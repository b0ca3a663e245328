// The caches the API reads from: PlatformAgents and ApprovalRequests (all
// namespaces or one), the cluster-scoped registrations and app catalog, the
// installed apps, consent requests and delegation grants (namespaced like agents), and the API key
// Secrets in the API's namespace.
import * as k8s from '@kubernetes/client-node';
import type {
  AgentInstalledApp,
  AppCatalogEntry,
  ApprovalRequest,
  AuditorRegistration,
  ConsentRequest,
  DelegationGrant,
  ModelRegistration,
  PlatformAgent,
} from '../../crds/generated/types.ts';
import { informerFactory, ResilientInformer } from '../../base/controller/informer.ts';
import type { Logger } from '../../base/log.ts';
import { GROUP, LABEL, PLURAL, VERSION } from '../../contract/kube.ts';

export interface Timings {
  relistIntervalMs: number;
  staleAfterMs: number;
}

type KObj = k8s.KubernetesObject;

/** What every informer of the API is built from. */
interface InformerSource {
  kc: k8s.KubeConfig;
  log: Logger;
  t: Timings;
}

function custom<T extends KObj>(
  { kc, log, t }: InformerSource,
  plural: string,
  ns?: string,
): ResilientInformer<T> {
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  const ref = { group: GROUP, version: VERSION, plural };
  const base = `/apis/${GROUP}/${VERSION}`;
  const path = ns ? `${base}/namespaces/${ns}/${plural}` : `${base}/${plural}`;
  const list = (() =>
    ns
      ? api.listNamespacedCustomObject({ ...ref, namespace: ns })
      : api.listClusterCustomObject(ref)) as k8s.ListPromise<T>;
  return new ResilientInformer<T>({
    resource: `${plural}.${GROUP}`,
    factory: informerFactory(kc, path, list),
    log,
    ...t,
  });
}

export interface ApiInformers {
  agents: ResilientInformer<PlatformAgent & KObj>;
  approvals: ResilientInformer<ApprovalRequest & KObj>;
  auditors: ResilientInformer<AuditorRegistration & KObj>;
  models: ResilientInformer<ModelRegistration & KObj>;
  catalog: ResilientInformer<AppCatalogEntry & KObj>;
  installedApps: ResilientInformer<AgentInstalledApp & KObj>;
  consents: ResilientInformer<ConsentRequest & KObj>;
  grants: ResilientInformer<DelegationGrant & KObj>;
  keys: ResilientInformer<k8s.V1Secret>;
  all: ResilientInformer<KObj>[];
}

/** Where the API looks: its key Secrets' namespace, and the one namespace it watches (none: all). */
export interface InformerScope {
  keyNamespace: string;
  watchNamespace?: string;
}

export function apiInformers(
  kc: k8s.KubeConfig,
  log: Logger,
  t: Timings,
  { keyNamespace, watchNamespace }: InformerScope,
): ApiInformers {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const selector = `${LABEL.apiKey}=true`;
  const keys = new ResilientInformer<k8s.V1Secret>({
    resource: 'secrets (api keys)',
    factory: informerFactory(
      kc,
      `/api/v1/namespaces/${keyNamespace}/secrets`,
      () => core.listNamespacedSecret({ namespace: keyNamespace, labelSelector: selector }),
      { labelSelector: selector },
    ),
    log,
    ...t,
  });
  const src = { kc, log, t };
  const informers = {
    agents: custom<PlatformAgent & KObj>(src, PLURAL.agent, watchNamespace),
    approvals: custom<ApprovalRequest & KObj>(src, PLURAL.approval, watchNamespace),
    auditors: custom<AuditorRegistration & KObj>(src, PLURAL.auditor),
    models: custom<ModelRegistration & KObj>(src, PLURAL.model),
    catalog: custom<AppCatalogEntry & KObj>(src, PLURAL.appCatalogEntry),
    installedApps: custom<AgentInstalledApp & KObj>(src, PLURAL.installedApp, watchNamespace),
    consents: custom<ConsentRequest & KObj>(src, PLURAL.consent, watchNamespace),
    grants: custom<DelegationGrant & KObj>(src, PLURAL.grant, watchNamespace),
    keys,
  };
  return { ...informers, all: Object.values(informers) as ResilientInformer<KObj>[] };
}
