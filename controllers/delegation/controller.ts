// Controllers for DelegationGrant (TTL expiry, revocation) and ConsentRequest
// (TTL): thin shells over delegation/lifecycle.ts. Deadlines are requeue-after.
import type * as k8s from '@kubernetes/client-node';
import type { ConsentRequest, DelegationGrant } from '../../crds/generated/types.ts';
import { toolkit, type ControllerContext } from '../common/toolkit.ts';
import { mergeConditions, type Condition } from '../../base/controller/conditions.ts';
import { Controller, type ReconcileResult } from '../../base/controller/controller.ts';
import type { ResilientInformer } from '../../base/controller/informer.ts';
import type { CustomResourceRef } from '../../base/controller/status-writer.ts';
import { consentLifecycle, grantLifecycle, type LifecycleResult } from './lifecycle.ts';
import { API_VERSION, RESOURCES } from '../../contract/kube.ts';

const MAX_REQUEUE_MS = 3_600_000;

type Lifecycled = (DelegationGrant | ConsentRequest) & { status?: { phase?: string; conditions?: unknown } };

interface LifecycleKind<T extends Lifecycled> {
  name: string;
  kind: string;
  resource: CustomResourceRef;
  informer: ResilientInformer<T>;
  decide: (obj: T, now: Date) => LifecycleResult<NonNullable<T['status']>>;
}

function lifecycleController<T extends Lifecycled>(
  ctx: ControllerContext,
  spec: LifecycleKind<T>,
): Controller {
  const { name, kind, resource, informer, decide } = spec;
  const kit = toolkit(ctx, name, resource);
  const reconcile = async (key: string): Promise<ReconcileResult | void> => {
    const obj = informer.get(key);
    if (!obj || obj.metadata.deletionTimestamp) return;
    const now = new Date();
    const result = decide(obj, now);
    const previous = obj.status?.conditions as Condition[] | undefined;
    const conditions = mergeConditions(
      previous,
      result.conditions,
      now,
      result.conditions.map((c) => c.type),
    );
    const g = obj.metadata.generation !== undefined ? { observedGeneration: obj.metadata.generation } : {};
    const subject = { ...obj, apiVersion: API_VERSION, kind } as k8s.KubernetesObject & {
      status?: Record<string, unknown>;
    };
    const status = { ...result.status, ...g, conditions } as Record<string, unknown>;
    const written = await kit.statusWriter.write(subject, status);
    const from = obj.status?.phase ?? 'none';
    const to = String(status.phase);
    if (written && from !== to) {
      await kit.events.emit(subject, {
        type: 'Normal',
        reason: to === 'resolved' ? 'Resolved' : `${to[0]!.toUpperCase()}${to.slice(1)}`,
        action: 'UpdateStatus',
        note: `phase ${from} → ${to}: ${result.conditions[0]?.message ?? ''}`,
      });
    }
    if (result.requeueAfterMs === undefined) return;
    return { requeueAfterMs: Math.min(MAX_REQUEUE_MS, result.requeueAfterMs + 50) };
  };
  return new Controller({
    name,
    primary: informer,
    reconcile,
    log: ctx.log,
    metrics: ctx.metrics,
    workers: ctx.workers,
    resyncIntervalMs: ctx.resyncIntervalMs,
  });
}

export function createGrantController(ctx: ControllerContext): Controller {
  return lifecycleController(ctx, {
    name: 'delegationgrant',
    kind: 'DelegationGrant',
    resource: RESOURCES.grant,
    informer: ctx.caches.grants,
    decide: grantLifecycle,
  });
}

export function createConsentController(ctx: ControllerContext, consentTtlMs: number): Controller {
  return lifecycleController(ctx, {
    name: 'consentrequest',
    kind: 'ConsentRequest',
    resource: RESOURCES.consent,
    informer: ctx.caches.consents,
    decide: (c, now) => consentLifecycle(c, now, consentTtlMs),
  });
}
