// The smallest controllers of the kinds nothing else reconciles
// (ApprovalRequest, AuditorPolicy, AppCatalogEntry, AgentInstalledApp,
// ScopedToolInstall): each validates its object against the caches and writes
// only the `Ready` condition (decide.ts, pure; decision 211). Events on what
// an object refers to requeue it; a deadline (an approval's) is a requeue.
import type * as k8s from '@kubernetes/client-node';
import { API_VERSION, LABEL, RESOURCES } from '../../contract/kube.ts';
import type {
  AgentInstalledApp,
  AppCatalogEntry,
  ApprovalRequest,
  AuditorPolicy,
  ScopedToolInstall,
} from '../../crds/generated/types.ts';
import { BUILTIN_AUDITOR_IDS } from '../../auditors/builtin.ts';
import { mergeConditions, type Condition } from '../../base/controller/conditions.ts';
import type { Controller, Reconcile, WatchSource } from '../../base/controller/controller.ts';
import { generationChanged, type ChangeFilter } from '../../base/controller/filters.ts';
import type { ResilientInformer } from '../../base/controller/informer.ts';
import { objectKey } from '../../base/controller/keys.ts';
import type { CustomResourceRef } from '../../base/controller/status-writer.ts';
import { defineController } from '../common/define.ts';
import { READY } from '../common/ready.ts';
import type { ControllerContext, Toolkit } from '../common/toolkit.ts';
import {
  approvalReady,
  catalogReady,
  installedAppReady,
  policyCheck,
  policyReady,
  toolInstallReady,
  type ReadyDecision,
} from './decide.ts';

const MAX_REQUEUE_MS = 3_600_000;

type Readied = k8s.KubernetesObject & { metadata: k8s.V1ObjectMeta; status?: Record<string, unknown> };

interface ReadyKind<T extends Readied> {
  name: string;
  kind: string;
  resource: CustomResourceRef;
  informer: ResilientInformer<T>;
  watches?: WatchSource[];
  /** Whether this operator answers for the object (a cluster-scoped one under PLATFORM_WATCH_NAMESPACE). */
  inScope?: (obj: T) => boolean;
  decide: (obj: T, now: Date) => ReadyDecision;
  /** Status fields that restate the decision (AgentInstalledApp's `ready`). */
  restated?: (decision: ReadyDecision) => Record<string, unknown>;
}

function readyReconciler<T extends Readied>(spec: ReadyKind<T>, kit: Toolkit): Reconcile {
  return async (key) => {
    const obj = spec.informer.get(key);
    if (!obj || obj.metadata.deletionTimestamp || spec.inScope?.(obj) === false) return;
    const now = new Date();
    const decision = spec.decide(obj, now);
    const previous = obj.status?.conditions as Condition[] | undefined;
    const conditions = mergeConditions(previous, [decision.condition], now, [READY]);
    const subject = { ...obj, apiVersion: API_VERSION, kind: spec.kind };
    await kit.statusWriter.write(subject, { ...obj.status, ...spec.restated?.(decision), conditions });
    if (decision.requeueAfterMs === undefined) return;
    return { requeueAfterMs: Math.min(MAX_REQUEUE_MS, decision.requeueAfterMs + 50) };
  };
}

function readyController<T extends Readied>(ctx: ControllerContext, spec: ReadyKind<T>): Controller {
  return defineController(ctx, {
    name: spec.name,
    resource: spec.resource,
    primary: spec.informer,
    ...(spec.watches ? { watches: spec.watches } : {}),
    reconciler: (kit) => readyReconciler(spec, kit),
  });
}

/** Only an object's coming and going matters (existence checks). */
const existence: ChangeFilter = ({ type }) => type !== 'update';

/** Keys of the objects of `informer` beside `obj` (same namespace) that `refersTo` it. */
function referrers<T extends Readied>(
  informer: ResilientInformer<T>,
  refersTo: (candidate: T, name: string) => boolean,
): (obj: k8s.KubernetesObject) => string[] {
  return (obj) =>
    informer
      .list()
      .filter(
        (c) => c.metadata.namespace === obj.metadata?.namespace && refersTo(c, obj.metadata?.name ?? ''),
      )
      .map(objectKey);
}

const knownAuditors = (ctx: ControllerContext): Set<string> =>
  new Set([...BUILTIN_AUDITOR_IDS, ...ctx.caches.auditors.list().map((a) => a.spec.auditorId)]);

export function createApprovalReadyController(ctx: ControllerContext): Controller {
  const { approvals, agents } = ctx.caches;
  return readyController<ApprovalRequest>(ctx, {
    name: 'approvalrequest',
    kind: 'ApprovalRequest',
    resource: RESOURCES.approval,
    informer: approvals,
    watches: [
      { informer: agents, filter: existence, mapToKeys: referrers(approvals, (a, n) => a.spec.agent === n) },
    ],
    decide: (a, now) => approvalReady(a, !!agents.get(`${a.metadata.namespace}/${a.spec.agent}`), now),
  });
}

export function createPolicyReadyController(ctx: ControllerContext): Controller {
  const { policies, auditors, workspaces } = ctx.caches;
  const organizationOf = (p: AuditorPolicy): string | undefined =>
    p.spec.scope === 'workspace'
      ? workspaces.get(`${p.metadata.namespace}/${p.spec.scopeId}`)?.spec.organization
      : undefined;
  return readyController<AuditorPolicy>(ctx, {
    name: 'auditorpolicy',
    kind: 'AuditorPolicy',
    resource: RESOURCES.policy,
    informer: policies,
    watches: [
      // New vocabularies, a changed org policy or a workspace's organization change what compiles and what is allowed.
      { informer: auditors, filter: generationChanged, mapToKeys: () => policies.keys() },
      {
        informer: policies,
        filter: generationChanged,
        mapToKeys: (o) => ((o as AuditorPolicy).spec.scope === 'org' ? policies.keys() : []),
      },
      {
        informer: workspaces,
        filter: generationChanged,
        mapToKeys: referrers(policies, (p, n) => p.spec.scopeId === n),
      },
    ],
    decide: (p) =>
      policyReady(
        policyCheck(p, {
          policies: policies.list(),
          auditors: auditors.list(),
          organization: organizationOf(p),
        }),
      ),
  });
}

export function createCatalogReadyController(ctx: ControllerContext, watchNamespace?: string): Controller {
  const { catalog, auditors } = ctx.caches;
  return readyController<AppCatalogEntry>(ctx, {
    name: 'appcatalogentry',
    kind: 'AppCatalogEntry',
    resource: RESOURCES.appCatalogEntry,
    informer: catalog,
    // Cluster-scoped: an operator limited to one namespace answers for the entries labelled with it (decision 129's rule for models).
    inScope: (e) => !watchNamespace || e.metadata.labels?.[LABEL.workspace] === watchNamespace,
    watches: [{ informer: auditors, mapToKeys: () => catalog.keys() }],
    decide: (e) => catalogReady(e, knownAuditors(ctx)),
  });
}

export function createInstalledAppReadyController(ctx: ControllerContext): Controller {
  const { installedApps, agents, catalog } = ctx.caches;
  const installsOf = (o: k8s.KubernetesObject): string[] =>
    installedApps
      .list()
      .filter((i) => i.spec.app === o.metadata?.name)
      .map(objectKey);
  return readyController<AgentInstalledApp>(ctx, {
    name: 'agentinstalledapp',
    kind: 'AgentInstalledApp',
    resource: RESOURCES.installedApp,
    informer: installedApps,
    watches: [
      {
        informer: agents,
        filter: existence,
        mapToKeys: referrers(installedApps, (i, n) => i.spec.agent === n),
      },
      { informer: catalog, filter: existence, mapToKeys: installsOf },
    ],
    decide: (i) =>
      installedAppReady(i, {
        agent: !!agents.get(`${i.metadata.namespace}/${i.spec.agent}`),
        app: !!catalog.get(i.spec.app),
      }),
    restated: (d) => ({ ready: d.condition.status === 'True' }),
  });
}

export function createToolInstallReadyController(ctx: ControllerContext): Controller {
  const { toolInstalls, credentials } = ctx.caches;
  return readyController<ScopedToolInstall>(ctx, {
    name: 'scopedtoolinstall',
    kind: 'ScopedToolInstall',
    resource: RESOURCES.toolInstall,
    informer: toolInstalls,
    watches: [
      {
        informer: credentials,
        filter: existence,
        mapToKeys: referrers(toolInstalls, (t, n) => t.spec.credentialRef === n),
      },
    ],
    decide: (t) =>
      toolInstallReady(t, !!credentials.get(`${t.metadata.namespace}/${t.spec.credentialRef ?? ''}`)),
  });
}

/** The five, in the order controllers/run.ts starts them. */
export function createReadyControllers(ctx: ControllerContext, watchNamespace?: string): Controller[] {
  return [
    createApprovalReadyController(ctx),
    createPolicyReadyController(ctx),
    createCatalogReadyController(ctx, watchNamespace),
    createInstalledAppReadyController(ctx),
    createToolInstallReadyController(ctx),
  ];
}
