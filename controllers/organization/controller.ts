// The Organization controller: the org's home namespace exists and is
// labelled `platform.computing/enabled: 'true'`; status counts the org's
// workspaces and reports unknown required auditors. The namespace gets no
// owner reference: deleting an organization must never delete a namespace
// full of running agents. With PLATFORM_WATCH_NAMESPACE set, only the
// organizations whose home namespace is that namespace are reconciled.
import * as k8s from '@kubernetes/client-node';
import { API_VERSION, LABEL, MANAGED_BY, RESOURCES } from '../../contract/kube.ts';
import type { Organization } from '../../crds/generated/types.ts';
import { BUILTIN_AUDITOR_IDS } from '../../auditors/builtin.ts';
import { apiStatus } from '../../base/kube.ts';
import { conditionEvents } from '../agent/condition-events.ts';
import type { Caches } from '../common/caches.ts';
import { defineController } from '../common/define.ts';
import type { ControllerContext, Toolkit } from '../common/toolkit.ts';
import { mergePatch } from '../../base/controller/writer.ts';
import { mergeConditions, type Condition, type DesiredCondition } from '../../base/controller/conditions.ts';
import type { Controller, Reconcile } from '../../base/controller/controller.ts';

export const ORGANIZATION_CONTROLLER = 'organization';

/** Required auditors (org-wide and per framework) that are neither built in nor registered. */
export function unknownOrgAuditors(org: Organization, known: ReadonlySet<string>): string[] {
  const ids = [
    ...(org.spec.requiredAuditors ?? []),
    ...(org.spec.frameworks ?? []).flatMap((f) => f.requiredAuditors),
  ];
  return [...new Set(ids.filter((id) => !known.has(id)))];
}

/** The organization's conditions: its required auditors are known. */
export function organizationConditions(unknown: readonly string[]): DesiredCondition[] {
  if (unknown.length === 0) {
    return [
      { type: 'ChainValid', status: 'True', reason: 'AuditorsKnown' },
      {
        type: 'Ready',
        status: 'True',
        reason: 'Reconciled',
        message: 'home namespace labelled; required auditors known',
      },
    ];
  }
  return [
    {
      type: 'ChainValid',
      status: 'False',
      reason: 'UnknownAuditor',
      message: `required auditor(s) ${unknown.join(', ')} are not registered; register them (AuditorRegistration)`,
    },
    {
      type: 'Ready',
      status: 'False',
      reason: 'SeeConditions',
      message: 'ChainValid is False: UnknownAuditor',
    },
  ];
}

async function readNamespace(core: k8s.CoreV1Api, name: string): Promise<k8s.V1Namespace | undefined> {
  try {
    return await core.readNamespace({ name });
  } catch (err) {
    if (apiStatus(err) !== 404) throw err;
    return undefined;
  }
}

/** The home namespace exists and is labelled; no spec hash: the label is the comparison. */
async function ensureNamespace(core: k8s.CoreV1Api, kit: Toolkit, name: string): Promise<void> {
  const labels = { [LABEL.namespaceEnabled]: 'true' };
  const desired = { metadata: { name, labels: { ...labels, [LABEL.managedBy]: MANAGED_BY } } };
  await kit.writer.createOrPatch({
    kind: 'Namespace',
    current: await readNamespace(core, name),
    desired,
    upToDate: (ns) =>
      ns.metadata?.labels?.[LABEL.namespaceEnabled] === 'true' || !!ns.metadata?.deletionTimestamp,
    create: () => core.createNamespace({ body: desired }),
    patch: () => core.patchNamespace({ name, body: { metadata: { labels } } }, mergePatch),
  });
}

interface OrganizationDeps {
  caches: Caches;
  kit: Toolkit;
  core: k8s.CoreV1Api;
  watchNamespace: string | undefined;
}

async function writeOrganizationStatus(d: OrganizationDeps, org: Organization): Promise<void> {
  const c = d.caches;
  const known = new Set([...BUILTIN_AUDITOR_IDS, ...c.auditors.list().map((a) => a.spec.auditorId)]);
  const previous = org.status?.conditions as Condition[] | undefined;
  const conditions = mergeConditions(
    previous,
    organizationConditions(unknownOrgAuditors(org, known)),
    new Date(),
    ['ChainValid', 'Ready'],
  );
  const workspaceCount = c.workspaces.list().filter((w) => w.spec.organization === org.metadata.name).length;
  const subject = { ...org, apiVersion: API_VERSION, kind: 'Organization' };
  if (!(await d.kit.statusWriter.write(subject, { ...org.status, workspaceCount, conditions }))) return;
  // Events of cluster-scoped objects go to the home namespace.
  const eventSubject = { ...subject, metadata: { ...org.metadata, namespace: org.spec.homeNamespace } };
  for (const e of conditionEvents(previous, conditions)) await d.kit.events.emit(eventSubject, e);
}

function organizationReconciler(d: OrganizationDeps): Reconcile {
  return async (key) => {
    const org = d.caches.organizations.get(key);
    if (!org || org.metadata.deletionTimestamp) return;
    if (d.watchNamespace && org.spec.homeNamespace !== d.watchNamespace) return;
    await ensureNamespace(d.core, d.kit, org.spec.homeNamespace);
    await writeOrganizationStatus(d, org);
  };
}

export function createOrganizationController(ctx: ControllerContext, watchNamespace?: string): Controller {
  const c = ctx.caches;
  return defineController(ctx, {
    name: ORGANIZATION_CONTROLLER,
    resource: RESOURCES.organization,
    primary: c.organizations,
    watches: [
      {
        informer: c.workspaces,
        mapToKeys: (w) =>
          [String((w as { spec?: { organization?: string } }).spec?.organization ?? '')].filter(Boolean),
      },
      { informer: c.auditors, mapToKeys: () => c.organizations.keys() },
    ],
    reconciler: (kit) =>
      organizationReconciler({ caches: c, kit, core: ctx.kc.makeApiClient(k8s.CoreV1Api), watchNamespace }),
  });
}
