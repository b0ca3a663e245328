// Every informer the controllers read, built once and shared: one list+watch
// per kind whatever the number of controllers reading it.
import type * as k8s from '@kubernetes/client-node';
import type {
  AgentInstalledApp,
  AppCatalogEntry,
  ApprovalRequest,
  AuditorPolicy,
  AuditorRegistration,
  ConsentRequest,
  DelegationGrant,
  ModelRegistration,
  Organization,
  PlatformAgent,
  PlatformEnvironment,
  PlatformWorkspace,
  ScopedCredential,
  Workflow,
  ScopedToolInstall,
} from '../../crds/generated/types.ts';
import type { ResilientInformer } from '../../base/controller/informer.ts';
import { customInformer, nodeInformer, ownedInformer, type InformerContext } from './informers.ts';
import { RESOURCES } from '../../contract/kube.ts';

export interface Caches {
  agents: ResilientInformer<PlatformAgent>;
  workspaces: ResilientInformer<PlatformWorkspace>;
  organizations: ResilientInformer<Organization>;
  environments: ResilientInformer<PlatformEnvironment>;
  grants: ResilientInformer<DelegationGrant>;
  consents: ResilientInformer<ConsentRequest>;
  auditors: ResilientInformer<AuditorRegistration>;
  credentials: ResilientInformer<ScopedCredential>;
  policies: ResilientInformer<AuditorPolicy>;
  models: ResilientInformer<ModelRegistration>;
  catalog: ResilientInformer<AppCatalogEntry>;
  installedApps: ResilientInformer<AgentInstalledApp>;
  workflows: ResilientInformer<Workflow>;
  toolInstalls: ResilientInformer<ScopedToolInstall>;
  approvals: ResilientInformer<ApprovalRequest>;
  pods: ResilientInformer<k8s.V1Pod>;
  serviceAccounts: ResilientInformer<k8s.V1ServiceAccount>;
  secrets: ResilientInformer<k8s.V1Secret>;
  configMaps: ResilientInformer<k8s.V1ConfigMap>;
  services: ResilientInformer<k8s.V1Service>;
  deployments: ResilientInformer<k8s.V1Deployment>;
  nodes: ResilientInformer<k8s.V1Node>;
}

export function buildCaches(ctx: InformerContext): Caches {
  return {
    agents: customInformer(ctx, RESOURCES.agent),
    workspaces: customInformer(ctx, RESOURCES.workspace),
    organizations: customInformer(ctx, RESOURCES.organization, true),
    environments: customInformer(ctx, RESOURCES.environment),
    grants: customInformer(ctx, RESOURCES.grant),
    consents: customInformer(ctx, RESOURCES.consent),
    auditors: customInformer(ctx, RESOURCES.auditor, true),
    credentials: customInformer(ctx, RESOURCES.credential),
    policies: customInformer(ctx, RESOURCES.policy),
    models: customInformer(ctx, RESOURCES.model, true),
    catalog: customInformer(ctx, RESOURCES.appCatalogEntry, true),
    installedApps: customInformer(ctx, RESOURCES.installedApp),
    workflows: customInformer(ctx, RESOURCES.workflow),
    toolInstalls: customInformer(ctx, RESOURCES.toolInstall),
    approvals: customInformer(ctx, RESOURCES.approval),
    pods: ownedInformer(ctx, 'pods'),
    serviceAccounts: ownedInformer(ctx, 'serviceaccounts'),
    secrets: ownedInformer(ctx, 'secrets'),
    configMaps: ownedInformer(ctx, 'configmaps'),
    services: ownedInformer(ctx, 'services'),
    deployments: ownedInformer(ctx, 'deployments'),
    nodes: nodeInformer(ctx),
  };
}

export function allInformers(caches: Caches): ResilientInformer<k8s.KubernetesObject>[] {
  return Object.values(caches) as ResilientInformer<k8s.KubernetesObject>[];
}

/** Items of an informer in one namespace. */
export function inNamespace<T extends k8s.KubernetesObject>(
  informer: ResilientInformer<T>,
  namespace: string,
): T[] {
  return informer.list().filter((o) => o.metadata?.namespace === namespace);
}
