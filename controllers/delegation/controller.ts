// Controllers for DelegationGrant (TTL expiry, revocation) and ConsentRequest
// (TTL): thin shells over delegation/lifecycle.ts. Deadlines are requeue-after.
import type * as k8s from '@kubernetes/client-node';
import { API_VERSION, RESOURCES } from '../../contract/kube.ts';
import type { ConsentRequest, DelegationGrant } from '../../crds/generated/types.ts';
import { defineController } from '../common/define.ts';
import type { ControllerContext, Toolkit } from '../common/toolkit.ts';
import { mergeConditions, type Condition } from '../../base/controller/conditions.ts';
import type { Controller, Reconcile } from '../../base/controller/controller.ts';
import type { ResilientInformer } from '../../base/controller/informer.ts';
import type { CustomResourceRef } from '../../base/controller/status-writer.ts';
import { consentLifecycle, grantLifecycle, phaseEvent, type LifecycleResult } from './lifecycle.ts';

const MAX_REQUEUE_MS = 3_600_000;

type Lifecycled = (DelegationGrant | ConsentRequest) & { status?: { phase?: string; conditions?: unknown } };
type Subject = k8s.KubernetesObject & { status?: Record<string, unknown> };

interface LifecycleKind<T extends Lifecycled> {
  name: string;
  kind: string;
  resource: CustomResourceRef;
  informer: ResilientInformer<T>;
  decide: (obj: T, now: Date) => LifecycleResult<NonNullable<T['status']>>;
}

function lifecycleReconciler<T extends Lifecycled>(spec: LifecycleKind<T>, kit: Toolkit): Reconcile {
  return async (key) => {
    const obj = spec.informer.get(key);
    if (!obj || obj.metadata.deletionTimestamp) return;
    const now = new Date();
    const result = spec.decide(obj, now);
    const previous = obj.status?.conditions as Condition[] | undefined;
    const types = result.conditions.map((c) => c.type);
    const conditions = mergeConditions(previous, result.conditions, now, types);
    const subject: Subject = { ...obj, apiVersion: API_VERSION, kind: spec.kind };
    const status = { ...result.status, conditions } as Record<string, unknown>;
    const event = phaseEvent(obj.status?.phase, result);
    if ((await kit.statusWriter.write(subject, status)) && event) await kit.events.emit(subject, event);
    if (result.requeueAfterMs === undefined) return;
    return { requeueAfterMs: Math.min(MAX_REQUEUE_MS, result.requeueAfterMs + 50) };
  };
}

function lifecycleController<T extends Lifecycled>(
  ctx: ControllerContext,
  spec: LifecycleKind<T>,
): Controller {
  return defineController(ctx, {
    name: spec.name,
    resource: spec.resource,
    primary: spec.informer,
    reconciler: (kit) => lifecycleReconciler(spec, kit),
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
