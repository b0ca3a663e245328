// The PlatformWorkspace reconciler: labels the workspace namespace
// `platform.computing/enabled: 'true'`, keeps the `platform-auditor-chain`
// ConfigMap and one PlatformAgent per `spec.agents[]` entry in line (owner
// references: deleting the workspace garbage-collects them), and reports
// conditions. A finalizer removes the namespace label when the last
// workspace of the namespace goes (outside state no owner reference covers),
// unless agents it does not own still live there.
import type * as k8s from '@kubernetes/client-node';
import { API_VERSION, CONFIGMAP, FINALIZER, LABEL, RESOURCES } from '../../contract/kube.ts';
import type { Organization, PlatformAgent, PlatformWorkspace } from '../../crds/generated/types.ts';
import type { Logger } from '../../base/log.ts';
import { isOwnedBy } from '../common/meta.ts';
import { mergePatch, type ObjectWriter } from '../../base/controller/writer.ts';
import { jsonEqual, mergeConditions, type Condition } from '../../base/controller/conditions.ts';
import type { EventRecorder } from '../../base/controller/events.ts';
import type { StatusWriter } from '../../base/controller/status-writer.ts';
import { conditionEvents } from '../agent/condition-events.ts';
import {
  WORKSPACE_KIND,
  agentPatch,
  desiredAgents,
  desiredChainConfigMap,
  workspaceChainCheck,
  workspaceConditions,
  type DesiredAgent,
} from './desired.ts';

const CONDITIONS = ['Ready', 'ChainValid', 'OrganizationFound', 'AgentsReconciled'];

export interface WorkspaceReader {
  workspace(key: string): PlatformWorkspace | undefined;
  workspacesIn(namespace: string): PlatformWorkspace[];
  organization(name: string): Organization | undefined;
  /** Whether an Organization has this namespace as its home (its label stays then). */
  isHomeNamespace(namespace: string): boolean;
  agent(namespace: string, name: string): PlatformAgent | undefined;
  agentsIn(namespace: string): PlatformAgent[];
  configMap(namespace: string, name: string): k8s.V1ConfigMap | undefined;
  knownAuditors(): ReadonlySet<string>;
}

export interface WorkspaceReconcilerDeps {
  read: WorkspaceReader;
  core: k8s.CoreV1Api;
  custom: k8s.CustomObjectsApi;
  writer: ObjectWriter;
  statusWriter: StatusWriter;
  events: EventRecorder;
  log: Logger;
}

const AGENTS = RESOURCES.agent;
const WORKSPACES = RESOURCES.workspace;

/** How long a namespace seen with the right label is trusted without reading it again. */
const NAMESPACE_CHECK_INTERVAL_MS = 60_000;

const enabledLabel = (ns: k8s.V1Namespace): string | null =>
  ns.metadata?.labels?.[LABEL.namespaceEnabled] ?? null;

export class WorkspaceReconciler {
  /** Namespace → when it was last seen labelled (agent events re-enqueue workspaces often). */
  private readonly labelledAtMs = new Map<string, number>();

  constructor(private readonly deps: WorkspaceReconcilerDeps) {}

  readonly reconcile = async (key: string): Promise<void> => {
    const ws = this.deps.read.workspace(key);
    if (!ws) return;
    const namespace = ws.metadata.namespace ?? '';
    if (ws.metadata.deletionTimestamp) return this.finalize(ws);
    if (!(ws.metadata.finalizers ?? []).includes(FINALIZER.workspaceNamespaceLabel)) {
      await this.setFinalizers(ws, [...(ws.metadata.finalizers ?? []), FINALIZER.workspaceNamespaceLabel]);
      return; // the update event brings the workspace back with the finalizer
    }
    await this.labelNamespace(namespace, 'true');
    const orgName = ws.spec.organization;
    const org = orgName ? this.deps.read.organization(orgName) : undefined;
    await this.syncConfigMap(ws, org);
    const taken = await this.syncAgents(ws);
    await this.writeStatus(ws, org, taken);
  };

  private async finalize(ws: PlatformWorkspace): Promise<void> {
    const finalizers = ws.metadata.finalizers ?? [];
    if (!finalizers.includes(FINALIZER.workspaceNamespaceLabel)) return;
    const namespace = ws.metadata.namespace ?? '';
    const others = this.deps.read.workspacesIn(namespace).filter((w) => w.metadata.uid !== ws.metadata.uid);
    // Agents this workspace does not own (standalone ones) still need the webhook here.
    const owner = { kind: WORKSPACE_KIND, metadata: ws.metadata };
    const foreignAgents = this.deps.read.agentsIn(namespace).some((a) => !isOwnedBy(a, owner));
    if (others.length === 0 && !foreignAgents && !this.deps.read.isHomeNamespace(namespace)) {
      await this.labelNamespace(namespace, null);
    }
    await this.setFinalizers(
      ws,
      finalizers.filter((f) => f !== FINALIZER.workspaceNamespaceLabel),
    );
  }

  private async setFinalizers(ws: PlatformWorkspace, finalizers: string[]): Promise<void> {
    const namespace = ws.metadata.namespace ?? '';
    const name = ws.metadata.name ?? '';
    const body = { metadata: { finalizers, resourceVersion: ws.metadata.resourceVersion } };
    await this.deps.writer.run(
      'PlatformWorkspace',
      'patch',
      () =>
        this.deps.custom.patchNamespacedCustomObject({ ...WORKSPACES, namespace, name, body }, mergePatch),
      [404],
    );
  }

  /** Sets (or with null removes) the enabled label; reads first so an unchanged namespace is not written. */
  private async labelNamespace(name: string, value: 'true' | null): Promise<void> {
    if (value === 'true' && this.labelledRecently(name)) return;
    this.labelledAtMs.delete(name);
    const ns = await this.deps.core.readNamespace({ name }).catch(() => undefined);
    if (!ns || ns.metadata?.deletionTimestamp) return;
    if (enabledLabel(ns) !== value) {
      const body = { metadata: { labels: { [LABEL.namespaceEnabled]: value } } };
      await this.deps.writer.patch('Namespace', () =>
        this.deps.core.patchNamespace({ name, body }, mergePatch),
      );
    }
    if (value === 'true') this.labelledAtMs.set(name, Date.now());
  }

  private labelledRecently(namespace: string): boolean {
    const seenMs = this.labelledAtMs.get(namespace);
    return seenMs !== undefined && Date.now() - seenMs < NAMESPACE_CHECK_INTERVAL_MS;
  }

  private async syncConfigMap(ws: PlatformWorkspace, org: Organization | undefined): Promise<void> {
    const desired = desiredChainConfigMap(ws, org);
    const namespace = ws.metadata.namespace ?? '';
    const patch = {
      metadata: { labels: desired.metadata?.labels, ownerReferences: desired.metadata?.ownerReferences },
      data: desired.data,
    };
    const owner = { kind: WORKSPACE_KIND, metadata: ws.metadata };
    await this.deps.writer.createOrPatch({
      kind: 'ConfigMap',
      current: this.deps.read.configMap(namespace, CONFIGMAP.auditorChain),
      desired,
      // The chain ConfigMap carries no spec hash: its data is the comparison.
      upToDate: (current) => isOwnedBy(current, owner) && jsonEqual(current.data ?? {}, desired.data),
      create: () => this.deps.core.createNamespacedConfigMap({ namespace, body: desired }),
      patch: () =>
        this.deps.core.patchNamespacedConfigMap(
          { namespace, name: CONFIGMAP.auditorChain, body: patch },
          mergePatch,
        ),
    });
  }

  /** Creates, updates and deletes the workspace's agents; returns names held by agents it does not own. */
  private async syncAgents(ws: PlatformWorkspace): Promise<string[]> {
    const namespace = ws.metadata.namespace ?? '';
    const owner = { apiVersion: API_VERSION, kind: WORKSPACE_KIND, metadata: ws.metadata };
    const desired = desiredAgents(ws);
    const taken: string[] = [];
    for (const d of desired) {
      const current = this.deps.read.agent(namespace, d.name);
      if (current && !isOwnedBy(current, owner)) taken.push(d.name);
      else await this.syncAgent(namespace, d, current);
    }
    const wanted = new Set(desired.map((d) => d.name));
    const unwanted = this.deps.read
      .agentsIn(namespace)
      .filter(
        (a) => !wanted.has(a.metadata.name ?? '') && isOwnedBy(a, owner) && !a.metadata.deletionTimestamp,
      );
    for (const agent of unwanted) {
      const name = agent.metadata.name ?? '';
      await this.deps.writer.delete('PlatformAgent', () =>
        this.deps.custom.deleteNamespacedCustomObject({ ...AGENTS, namespace, name }),
      );
    }
    return taken;
  }

  private async syncAgent(
    namespace: string,
    d: DesiredAgent,
    current: PlatformAgent | undefined,
  ): Promise<void> {
    const custom = this.deps.custom;
    await this.deps.writer.createOrPatch({
      kind: 'PlatformAgent',
      current,
      desired: d.body,
      create: () => custom.createNamespacedCustomObject({ ...AGENTS, namespace, body: d.body }),
      patch: () =>
        custom.patchNamespacedCustomObject(
          { ...AGENTS, namespace, name: d.name, body: current ? agentPatch(d, current) : d.patch },
          mergePatch,
        ),
    });
  }

  private async writeStatus(
    ws: PlatformWorkspace,
    org: Organization | undefined,
    taken: string[],
  ): Promise<void> {
    const chain = workspaceChainCheck(ws, org, this.deps.read.knownAuditors());
    const desired = workspaceConditions({
      chain: chain.condition,
      organization: ws.spec.organization,
      org,
      taken,
    });
    const conditions = mergeConditions(
      ws.status?.conditions as Condition[] | undefined,
      desired,
      new Date(),
      CONDITIONS,
    );
    const status = { ...ws.status, agentCount: (ws.spec.agents ?? []).length, chain: chain.ids, conditions };
    const subject = { ...ws, apiVersion: API_VERSION, kind: WORKSPACE_KIND };
    if (!(await this.deps.statusWriter.write(subject, status))) return;
    for (const e of conditionEvents(ws.status?.conditions as Condition[] | undefined, conditions)) {
      await this.deps.events.emit(subject, e);
    }
  }
}
