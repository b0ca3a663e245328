// The Organization controller: the org's home namespace exists and is
// labelled `platform.computing/enabled: 'true'`; status counts the org's
// workspaces and reports unknown required auditors. The namespace gets no
// owner reference: deleting an organization must never delete a namespace
// full of running agents. With PLATFORM_WATCH_NAMESPACE set, only the
// organizations whose home namespace is that namespace are reconciled.
import * as k8s from '@kubernetes/client-node';
import type { Organization } from '../../crds/generated/types.ts';
import { BUILTIN_AUDITOR_IDS } from '../../auditors/builtin.ts';
import { apiStatus } from '../../base/kube.ts';
import { conditionEvents } from '../agent/condition-events.ts';
import { toolkit, type ControllerContext, type Toolkit } from '../common/toolkit.ts';
import { mergePatch } from '../../base/controller/writer.ts';
import { mergeConditions, type Condition, type DesiredCondition } from '../../base/controller/conditions.ts';
import { Controller } from '../../base/controller/controller.ts';
import { API_VERSION, LABEL, MANAGED_BY, RESOURCES } from '../../contract/kube.ts';

export const ORGANIZATION_CONTROLLER = 'organization';

/** Required auditors (org-wide and per framework) that are neither built in nor registered. */
export function unknownOrgAuditors(org: Organization, known: ReadonlySet<string>): string[] {
  const ids = [
    ...(org.spec.requiredAuditors ?? []),
    ...(org.spec.frameworks ?? []).flatMap((f) => f.requiredAuditors),
  ];
  return [...new Set(ids.filter((id) => !known.has(id)))];
}

async function ensureNamespace(core: k8s.CoreV1Api, kit: Toolkit, name: string): Promise<void> {
  let ns: k8s.V1Namespace | undefined;
  try {
    ns = await core.readNamespace({ name });
  } catch (err) {
    if (apiStatus(err) !== 404) throw err;
  }
  const labels = { [LABEL.namespaceEnabled]: 'true' };
  if (!ns) {
    const body = { metadata: { name, labels: { ...labels, [LABEL.managedBy]: MANAGED_BY } } };
    await kit.writer.create('Namespace', () => core.createNamespace({ body }));
  } else if (ns.metadata?.labels?.[LABEL.namespaceEnabled] !== 'true' && !ns.metadata?.deletionTimestamp) {
    await kit.writer.patch('Namespace', () =>
      core.patchNamespace({ name, body: { metadata: { labels } } }, mergePatch),
    );
  }
}

export function createOrganizationController(ctx: ControllerContext, watchNamespace?: string): Controller {
  const c = ctx.caches;
  const kit = toolkit(ctx, ORGANIZATION_CONTROLLER, RESOURCES.organization);
  const core = ctx.kc.makeApiClient(k8s.CoreV1Api);
  const reconcile = async (key: string): Promise<void> => {
    const org = c.organizations.get(key);
    if (!org || org.metadata.deletionTimestamp) return;
    if (watchNamespace && org.spec.homeNamespace !== watchNamespace) return;
    await ensureNamespace(core, kit, org.spec.homeNamespace);
    const known = new Set([...BUILTIN_AUDITOR_IDS, ...c.auditors.list().map((a) => a.spec.auditorId)]);
    const unknown = unknownOrgAuditors(org, known);
    const g = org.metadata.generation !== undefined ? { observedGeneration: org.metadata.generation } : {};
    const desired: DesiredCondition[] = [
      unknown.length > 0
        ? {
            type: 'ChainValid',
            status: 'False',
            reason: 'UnknownAuditor',
            message: `required auditor(s) ${unknown.join(', ')} are not registered; register them (AuditorRegistration)`,
            ...g,
          }
        : { type: 'ChainValid', status: 'True', reason: 'AuditorsKnown', ...g },
      {
        type: 'Ready',
        status: unknown.length > 0 ? 'False' : 'True',
        reason: unknown.length > 0 ? 'SeeConditions' : 'Reconciled',
        ...g,
      },
    ];
    const conditions = mergeConditions(
      org.status?.conditions as Condition[] | undefined,
      desired,
      new Date(),
      ['ChainValid', 'Ready'],
    );
    const workspaceCount = c.workspaces
      .list()
      .filter((w) => w.spec.organization === org.metadata.name).length;
    const subject = { ...org, apiVersion: API_VERSION, kind: 'Organization' };
    if (!(await kit.statusWriter.write(subject, { ...org.status, ...g, workspaceCount, conditions }))) return;
    for (const e of conditionEvents(org.status?.conditions as Condition[] | undefined, conditions)) {
      // Events of cluster-scoped objects go to the home namespace.
      await kit.events.emit(
        { ...subject, metadata: { ...org.metadata, namespace: org.spec.homeNamespace } },
        e,
      );
    }
  };
  return new Controller({
    name: ORGANIZATION_CONTROLLER,
    primary: c.organizations,
    watches: [
      {
        informer: c.workspaces,
        mapToKeys: (w) =>
          [String((w as { spec?: { organization?: string } }).spec?.organization ?? '')].filter(Boolean),
      },
      { informer: c.auditors, mapToKeys: () => c.organizations.keys() },
    ],
    reconcile,
    log: ctx.log,
    metrics: ctx.metrics,
    workers: ctx.workers,
    resyncIntervalMs: ctx.resyncIntervalMs,
  });
}
