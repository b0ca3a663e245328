// The write side: every change goes to the apiserver. Read-modify-write
// operations read the object fresh (not from the cache) and replace it with
// its resourceVersion, so a concurrent change makes the write fail with 409
// and the caller retries on fresh data.
import * as k8s from '@kubernetes/client-node';
import type {
  AgentInstalledApp,
  ApprovalRequest,
  AuditorRegistration,
  ConsentRequest,
  DelegationGrant,
  ModelRegistration,
  Organization,
  PlatformAgent,
  PlatformWorkspace,
  ScopedToolInstall,
} from '../../crds/generated/types.ts';
import { orUndefinedOn404 } from '../../base/kube.ts';
import { PLURAL, resourceOf } from '../../contract/kube.ts';
import { scopedStore, type ScopedStore } from './scoped.ts';

const AGENTS = resourceOf(PLURAL.agent);
const APPROVALS = resourceOf(PLURAL.approval);
const AUDITORS = resourceOf(PLURAL.auditor);
const MODELS = resourceOf(PLURAL.model);
const CATALOG = resourceOf(PLURAL.appCatalogEntry);
const INSTALLS = resourceOf(PLURAL.installedApp);
const ORGANIZATIONS = resourceOf(PLURAL.organization);
const WORKSPACES = resourceOf(PLURAL.workspace);
const TOOL_INSTALLS = resourceOf(PLURAL.toolInstall);
const CONSENTS = resourceOf(PLURAL.consent);
const GRANTS = resourceOf(PLURAL.grant);
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const APPLY = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
/** The kinds a definition file holds, and their plurals (PUT /v1/definitions/apply). */
const DEFINITION_PLURALS: Record<string, string> = {
  PlatformAgent: PLURAL.agent,
  PlatformWorkspace: PLURAL.workspace,
  PlatformEnvironment: PLURAL.environment,
};

/** A namespaced custom resource of a definition file, as plain data. */
export interface DefinitionObject {
  kind: string;
  metadata: { namespace?: string; name?: string; resourceVersion?: string; [k: string]: unknown };
  spec?: unknown;
  [k: string]: unknown;
}

export type RegistrationPlural = typeof PLURAL.auditor | typeof PLURAL.model;

/** Also scoped credentials, tool installs and their Secrets (./scoped.ts). */
export interface ClusterWriter extends ScopedStore {
  createAgent(agent: PlatformAgent): Promise<PlatformAgent>;
  readAgent(namespace: string, name: string): Promise<PlatformAgent | undefined>;
  replaceAgent(agent: PlatformAgent): Promise<PlatformAgent>;
  deleteAgent(namespace: string, name: string): Promise<boolean>;
  createApproval(approval: ApprovalRequest): Promise<ApprovalRequest>;
  readApproval(namespace: string, name: string): Promise<ApprovalRequest | undefined>;
  patchApprovalStatus(
    a: ApprovalRequest,
    status: NonNullable<ApprovalRequest['status']>,
  ): Promise<ApprovalRequest>;
  annotateRegistration(
    plural: RegistrationPlural,
    name: string,
    annotations: Record<string, string | null>,
  ): Promise<void>;
  readAuditorRegistration(name: string): Promise<AuditorRegistration | undefined>;
  /** Creates the registration, or replaces it when it carries a resourceVersion. */
  applyAuditorRegistration(reg: AuditorRegistration): Promise<AuditorRegistration>;
  readModelRegistration(name: string): Promise<ModelRegistration | undefined>;
  /** Creates the registration, or replaces it when it carries a resourceVersion. */
  applyModelRegistration(reg: ModelRegistration): Promise<ModelRegistration>;
  /** A JSON merge patch on the agent's `/status` (fields other writers own are left alone). */
  mergeAgentStatus(namespace: string, name: string, status: Record<string, unknown>): Promise<void>;
  readInstalledApp(namespace: string, name: string): Promise<AgentInstalledApp | undefined>;
  /** Creates the install, or replaces it when it carries a resourceVersion. */
  applyInstalledApp(install: AgentInstalledApp): Promise<AgentInstalledApp>;
  deleteInstalledApp(namespace: string, name: string): Promise<boolean>;
  /** A JSON merge patch on an AppCatalogEntry's `/status`. */
  mergeCatalogStatus(name: string, status: Record<string, unknown>): Promise<void>;
  /** The ScopedToolInstalls of a namespace (an org home or a workspace namespace), read fresh. */
  listToolInstalls(namespace: string): Promise<ScopedToolInstall[]>;
  readOrganization(name: string): Promise<Organization | undefined>;
  /** Replaces with the object's resourceVersion: a concurrent change answers 409. */
  replaceOrganization(org: Organization): Promise<Organization>;
  readWorkspace(namespace: string, name: string): Promise<PlatformWorkspace | undefined>;
  /** Every Organization and every PlatformWorkspace, read fresh (the UI's tier picker: a few dozen objects). */
  listOrganizations(): Promise<Organization[]>;
  listWorkspaces(): Promise<PlatformWorkspace[]>;
  replaceWorkspace(ws: PlatformWorkspace): Promise<PlatformWorkspace>;
  createConsent(c: ConsentRequest): Promise<ConsentRequest>;
  readConsent(namespace: string, name: string): Promise<ConsentRequest | undefined>;
  /** A merge patch on `/status` guarded by the object's resourceVersion: a concurrent answer is a 409. */
  patchConsentStatus(
    c: ConsentRequest,
    status: NonNullable<ConsentRequest['status']>,
  ): Promise<ConsentRequest>;
  createGrant(g: DelegationGrant): Promise<DelegationGrant>;
  readGrant(namespace: string, name: string): Promise<DelegationGrant | undefined>;
  /** A merge patch on `/status` guarded by the object's resourceVersion. */
  patchGrantStatus(
    g: DelegationGrant,
    status: NonNullable<DelegationGrant['status']>,
  ): Promise<DelegationGrant>;
  /** A definition file's resource (agent, workspace, environment) as stored, or undefined. */
  readDefinition(kind: string, namespace: string, name: string): Promise<DefinitionObject | undefined>;
  /** Server-side apply of a definition file's resource (Strict field validation; `force` takes fields over). */
  applyDefinition(
    resource: DefinitionObject,
    options: { fieldManager: string; dryRun: boolean; force?: boolean },
  ): Promise<DefinitionObject>;
}

type TierWriter = Pick<
  ClusterWriter,
  | 'readOrganization'
  | 'replaceOrganization'
  | 'readWorkspace'
  | 'replaceWorkspace'
  | 'listOrganizations'
  | 'listWorkspaces'
>;

/** Organizations and PlatformWorkspaces: the upper tiers of the auditor-settings cascade. */
function tierWriter(api: k8s.CustomObjectsApi): TierWriter {
  return {
    readOrganization: (name) => orUndefinedOn404(api.getClusterCustomObject({ ...ORGANIZATIONS, name })),
    replaceOrganization: async (org) =>
      (await api.replaceClusterCustomObject({
        ...ORGANIZATIONS,
        name: org.metadata.name ?? '',
        body: org,
      })) as Organization,
    readWorkspace: (namespace, name) =>
      orUndefinedOn404(api.getNamespacedCustomObject({ ...WORKSPACES, namespace, name })),
    listOrganizations: async () =>
      ((await api.listClusterCustomObject(ORGANIZATIONS)) as { items: Organization[] }).items,
    listWorkspaces: async () =>
      ((await api.listCustomObjectForAllNamespaces(WORKSPACES)) as { items: PlatformWorkspace[] }).items,
    replaceWorkspace: async (ws) =>
      (await api.replaceNamespacedCustomObject({
        ...WORKSPACES,
        namespace: ws.metadata.namespace ?? '',
        name: ws.metadata.name ?? '',
        body: ws,
      })) as PlatformWorkspace,
  };
}

export function clusterWriter(kc: k8s.KubeConfig): ClusterWriter {
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  return {
    createAgent: async (agent) =>
      (await api.createNamespacedCustomObject({
        ...AGENTS,
        namespace: agent.metadata.namespace ?? '',
        body: agent,
      })) as PlatformAgent,
    readAgent: (namespace, name) =>
      orUndefinedOn404(api.getNamespacedCustomObject({ ...AGENTS, namespace, name })),
    replaceAgent: async (agent) =>
      (await api.replaceNamespacedCustomObject({
        ...AGENTS,
        namespace: agent.metadata.namespace ?? '',
        name: agent.metadata.name ?? '',
        body: agent,
      })) as PlatformAgent,
    deleteAgent: async (namespace, name) =>
      (await orUndefinedOn404(api.deleteNamespacedCustomObject({ ...AGENTS, namespace, name }))) !==
      undefined,
    createApproval: async (approval) =>
      (await api.createNamespacedCustomObject({
        ...APPROVALS,
        namespace: approval.metadata.namespace ?? '',
        body: approval,
      })) as ApprovalRequest,
    readApproval: (namespace, name) =>
      orUndefinedOn404(api.getNamespacedCustomObject({ ...APPROVALS, namespace, name })),
    patchApprovalStatus: async (a, status) =>
      (await api.patchNamespacedCustomObjectStatus(
        {
          ...APPROVALS,
          namespace: a.metadata.namespace ?? '',
          name: a.metadata.name ?? '',
          body: { metadata: { resourceVersion: a.metadata.resourceVersion }, status },
        },
        MERGE,
      )) as ApprovalRequest,
    annotateRegistration: async (plural, name, annotations) => {
      await api.patchClusterCustomObject(
        { ...resourceOf(plural), name, body: { metadata: { annotations } } },
        MERGE,
      );
    },
    readAuditorRegistration: (name) => orUndefinedOn404(api.getClusterCustomObject({ ...AUDITORS, name })),
    applyAuditorRegistration: async (reg) =>
      (await (reg.metadata.resourceVersion
        ? api.replaceClusterCustomObject({ ...AUDITORS, name: reg.metadata.name ?? '', body: reg })
        : api.createClusterCustomObject({ ...AUDITORS, body: reg }))) as AuditorRegistration,
    ...modelWriter(api),
    mergeAgentStatus: async (namespace, name, status) => {
      await api.patchNamespacedCustomObjectStatus({ ...AGENTS, namespace, name, body: { status } }, MERGE);
    },
    ...installWriter(api),
    ...tierWriter(api),
    ...delegationWriter(api),
    ...scopedStore(kc),
  };
}

function definitionWriter(
  api: k8s.CustomObjectsApi,
): Pick<ClusterWriter, 'readDefinition' | 'applyDefinition'> {
  const at = (kind: string, namespace: string, name: string) => {
    const plural = DEFINITION_PLURALS[kind];
    if (!plural) throw new Error(`not a definition kind: ${kind}`);
    return { ...resourceOf(plural), namespace, name };
  };
  return {
    readDefinition: (kind, namespace, name) =>
      orUndefinedOn404(api.getNamespacedCustomObject(at(kind, namespace, name))),
    applyDefinition: async (resource, options) =>
      (await api.patchNamespacedCustomObject(
        {
          ...at(resource.kind, resource.metadata.namespace ?? '', resource.metadata.name ?? ''),
          body: resource,
          fieldManager: options.fieldManager,
          fieldValidation: 'Strict',
          ...(options.dryRun ? { dryRun: 'All' } : {}),
          ...(options.force ? { force: true } : {}),
        },
        APPLY,
      )) as DefinitionObject,
  };
}

type DelegationWriter = Pick<
  ClusterWriter,
  'createConsent' | 'readConsent' | 'patchConsentStatus' | 'createGrant' | 'readGrant' | 'patchGrantStatus'
>;

/** ConsentRequests and DelegationGrants (beside their agent). */
function delegationWriter(
  api: k8s.CustomObjectsApi,
): DelegationWriter & Pick<ClusterWriter, 'readDefinition' | 'applyDefinition'> {
  const guardedStatus = (ref: typeof CONSENTS, o: k8s.KubernetesObject, status: object) =>
    api.patchNamespacedCustomObjectStatus(
      {
        ...ref,
        namespace: o.metadata?.namespace ?? '',
        name: o.metadata?.name ?? '',
        body: { metadata: { resourceVersion: o.metadata?.resourceVersion }, status },
      },
      MERGE,
    );
  return {
    createConsent: async (c) =>
      (await api.createNamespacedCustomObject({
        ...CONSENTS,
        namespace: c.metadata.namespace ?? '',
        body: c,
      })) as ConsentRequest,
    readConsent: (namespace, name) =>
      orUndefinedOn404(api.getNamespacedCustomObject({ ...CONSENTS, namespace, name })),
    patchConsentStatus: async (c, status) => (await guardedStatus(CONSENTS, c, status)) as ConsentRequest,
    createGrant: async (g) =>
      (await api.createNamespacedCustomObject({
        ...GRANTS,
        namespace: g.metadata.namespace ?? '',
        body: g,
      })) as DelegationGrant,
    readGrant: (namespace, name) =>
      orUndefinedOn404(api.getNamespacedCustomObject({ ...GRANTS, namespace, name })),
    patchGrantStatus: async (g, status) => (await guardedStatus(GRANTS, g, status)) as DelegationGrant,
    // Definition files' resources (the UI's editor) travel with these: clusterWriter stays short.
    ...definitionWriter(api),
  };
}

function modelWriter(
  api: k8s.CustomObjectsApi,
): Pick<ClusterWriter, 'readModelRegistration' | 'applyModelRegistration'> {
  return {
    readModelRegistration: (name) => orUndefinedOn404(api.getClusterCustomObject({ ...MODELS, name })),
    applyModelRegistration: async (reg) =>
      (await (reg.metadata.resourceVersion
        ? api.replaceClusterCustomObject({ ...MODELS, name: reg.metadata.name ?? '', body: reg })
        : api.createClusterCustomObject({ ...MODELS, body: reg }))) as ModelRegistration,
  };
}

type InstallWriter = Pick<
  ClusterWriter,
  'readInstalledApp' | 'applyInstalledApp' | 'deleteInstalledApp' | 'mergeCatalogStatus' | 'listToolInstalls'
>;

function installWriter(api: k8s.CustomObjectsApi): InstallWriter {
  return {
    readInstalledApp: (namespace, name) =>
      orUndefinedOn404(api.getNamespacedCustomObject({ ...INSTALLS, namespace, name })),
    applyInstalledApp: async (install) => {
      const at = { ...INSTALLS, namespace: install.metadata.namespace ?? '', body: install };
      return (await (install.metadata.resourceVersion
        ? api.replaceNamespacedCustomObject({ ...at, name: install.metadata.name ?? '' })
        : api.createNamespacedCustomObject(at))) as AgentInstalledApp;
    },
    deleteInstalledApp: async (namespace, name) =>
      (await orUndefinedOn404(api.deleteNamespacedCustomObject({ ...INSTALLS, namespace, name }))) !==
      undefined,
    mergeCatalogStatus: async (name, status) => {
      await api.patchClusterCustomObjectStatus({ ...CATALOG, name, body: { status } }, MERGE);
    },
    listToolInstalls: async (namespace) =>
      (
        (await api.listNamespacedCustomObject({ ...TOOL_INSTALLS, namespace })) as {
          items: ScopedToolInstall[];
        }
      ).items,
  };
}
