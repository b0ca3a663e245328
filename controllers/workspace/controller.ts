// Wiring of the workspace controller: reconciles PlatformWorkspace keys, fed
// by its agents, its ConfigMap, organizations and registered auditors.
import * as k8s from '@kubernetes/client-node';
import { ANNOTATION, LABEL, RESOURCES } from '../../contract/kube.ts';
import { BUILTIN_AUDITOR_IDS } from '../../auditors/builtin.ts';
import { inNamespace, type Caches } from '../common/caches.ts';
import { defineController } from '../common/define.ts';
import type { ControllerContext } from '../common/toolkit.ts';
import type { Controller } from '../../base/controller/controller.ts';
import {
  annotationChanged,
  anyChange,
  deletionChanged,
  generationChanged,
} from '../../base/controller/filters.ts';
import { objectKey } from '../../base/controller/keys.ts';
import { ownerKeys } from '../../base/controller/owners.ts';
import { WorkspaceReconciler, type WorkspaceReader } from './reconciler.ts';

export const WORKSPACE_CONTROLLER = 'platformworkspace';

function reader(c: Caches): WorkspaceReader {
  return {
    workspace: (key) => c.workspaces.get(key),
    workspacesIn: (ns) => inNamespace(c.workspaces, ns),
    organization: (name) => c.organizations.get(name),
    isHomeNamespace: (ns) => c.organizations.list().some((o) => o.spec.homeNamespace === ns),
    agent: (ns, name) => c.agents.get(`${ns}/${name}`),
    agentsIn: (ns) => inNamespace(c.agents, ns),
    configMap: (ns, name) => c.configMaps.get(`${ns}/${name}`),
    knownAuditors: () => new Set([...BUILTIN_AUDITOR_IDS, ...c.auditors.list().map((a) => a.spec.auditorId)]),
  };
}

export function createWorkspaceController(ctx: ControllerContext): Controller {
  const c = ctx.caches;
  const byOrg = (org: k8s.KubernetesObject): string[] =>
    c.workspaces
      .list()
      .filter((w) => w.spec.organization === org.metadata?.name)
      .map((w) => objectKey(w));
  return defineController(ctx, {
    name: WORKSPACE_CONTROLLER,
    resource: RESOURCES.workspace,
    primary: c.workspaces,
    watches: [
      // Agents change status often; the workspace only cares when one appears, goes, or its
      // generation, spec hash or deletion changes.
      {
        informer: c.agents,
        mapToKeys: ownerKeys({ label: LABEL.workspace }),
        filter: anyChange(generationChanged, annotationChanged(ANNOTATION.specHash), deletionChanged),
      },
      { informer: c.configMaps, mapToKeys: ownerKeys({ label: LABEL.workspace }) },
      { informer: c.organizations, mapToKeys: byOrg },
      { informer: c.auditors, mapToKeys: () => c.workspaces.keys() },
    ],
    reconciler: (kit) =>
      new WorkspaceReconciler({
        read: reader(c),
        core: ctx.kc.makeApiClient(k8s.CoreV1Api),
        custom: ctx.kc.makeApiClient(k8s.CustomObjectsApi),
        ...kit,
        log: ctx.log,
      }).reconcile,
  });
}
