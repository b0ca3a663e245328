// Wiring of the workspace controller: reconciles PlatformWorkspace keys, fed
// by its agents, its ConfigMap, organizations and registered auditors.
import * as k8s from '@kubernetes/client-node';
import { BUILTIN_AUDITOR_IDS } from '../../auditors/builtin.ts';
import { inNamespace } from '../common/caches.ts';
import { byLabel, toolkit, type ControllerContext } from '../common/toolkit.ts';
import { Controller } from '../../base/controller/controller.ts';
import type { InformerEventType } from '../../base/controller/informer.ts';
import { objectKey } from '../../base/controller/keys.ts';
import { WorkspaceReconciler } from './reconciler.ts';
import { RESOURCES, ANNOTATION, LABEL } from '../../contract/kube.ts';

export const WORKSPACE_CONTROLLER = 'platformworkspace';

export function createWorkspaceController(ctx: ControllerContext): Controller {
  const c = ctx.caches;
  const kit = toolkit(ctx, WORKSPACE_CONTROLLER, RESOURCES.workspace);
  const reconciler = new WorkspaceReconciler({
    read: {
      workspace: (key) => c.workspaces.get(key),
      workspacesIn: (ns) => inNamespace(c.workspaces, ns),
      organization: (name) => c.organizations.get(name),
      isHomeNamespace: (ns) => c.organizations.list().some((o) => o.spec.homeNamespace === ns),
      agent: (ns, name) => c.agents.get(`${ns}/${name}`),
      agentsIn: (ns) => inNamespace(c.agents, ns),
      configMap: (ns, name) => c.configMaps.get(`${ns}/${name}`),
      knownAuditors: () =>
        new Set([...BUILTIN_AUDITOR_IDS, ...c.auditors.list().map((a) => a.spec.auditorId)]),
    },
    core: ctx.kc.makeApiClient(k8s.CoreV1Api),
    custom: ctx.kc.makeApiClient(k8s.CustomObjectsApi),
    ...kit,
    log: ctx.log,
  });
  const byOrg = (org: k8s.KubernetesObject): string[] =>
    c.workspaces
      .list()
      .filter((w) => w.spec.organization === org.metadata?.name)
      .map((w) => objectKey(w));
  // Agents change status often; the workspace only cares when one appears, goes, or its
  // generation, spec hash or deletion changes.
  const seen = new Map<string, string>();
  const agentEvent = (agent: k8s.KubernetesObject, type: InformerEventType): string[] => {
    const key = objectKey(agent);
    const meta = agent.metadata ?? {};
    const signature = `${meta.generation}|${meta.annotations?.[ANNOTATION.specHash]}|${String(meta.deletionTimestamp)}`;
    if (type !== 'delete' && seen.get(key) === signature) return [];
    if (type === 'delete') seen.delete(key);
    else seen.set(key, signature);
    return byLabel(LABEL.workspace)(agent);
  };
  return new Controller({
    name: WORKSPACE_CONTROLLER,
    primary: c.workspaces,
    watches: [
      { informer: c.agents, mapToKeys: agentEvent },
      { informer: c.configMaps, mapToKeys: byLabel(LABEL.workspace) },
      { informer: c.organizations, mapToKeys: byOrg },
      { informer: c.auditors, mapToKeys: () => c.workspaces.keys() },
    ],
    reconcile: reconciler.reconcile,
    log: ctx.log,
    metrics: ctx.metrics,
    workers: ctx.workers,
    resyncIntervalMs: ctx.resyncIntervalMs,
  });
}
