// The registry health controller: every AuditorRegistration with an endpoint
// is probed (GET <endpoint>/health) every `spec.healthCheckIntervalSeconds`;
// the result goes to `status.health`, `status.lastHealthTime` (the last
// healthy answer) and the `Healthy` condition. The controller requeues
// itself for the next probe; events between probes do not probe early.
import { API_VERSION, RESOURCES } from '../../contract/kube.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { mergeConditions, type Condition } from '../../base/controller/conditions.ts';
import type { Controller, Reconcile, ReconcileResult } from '../../base/controller/controller.ts';
import { defineController } from '../common/define.ts';
import type { ControllerContext, Toolkit } from '../common/toolkit.ts';
import {
  healthCondition,
  healthFromProbe,
  healthUrl,
  inWatchScope,
  intervalMs,
  probeDueInMs,
  probeTimeoutMs,
} from './health.ts';
import type { HealthProbe } from './health.ts';
import { httpHealthProbe } from './http-probe.ts';

export const REGISTRY_HEALTH_CONTROLLER = 'registry-health';

interface HealthDeps {
  get: (key: string) => AuditorRegistration | undefined;
  kit: Toolkit;
  probe: HealthProbe;
  now: () => Date;
  watchNamespace: string | undefined;
}

async function probeAndRecord(d: HealthDeps, reg: AuditorRegistration, url: string): Promise<void> {
  const health = healthFromProbe(await d.probe.get(url, probeTimeoutMs(reg)), d.now());
  const previous = reg.status?.conditions as Condition[] | undefined;
  const conditions = mergeConditions(previous, [healthCondition(health)], d.now(), ['Healthy']);
  const lastHealthTime = health.status === 'healthy' ? health.checkedAt : reg.status?.lastHealthTime;
  const subject = { ...reg, apiVersion: API_VERSION, kind: 'AuditorRegistration' };
  await d.kit.statusWriter.write(subject, {
    ...reg.status,
    health,
    conditions,
    ...(lastHealthTime ? { lastHealthTime } : {}),
  });
}

function healthReconciler(d: HealthDeps): Reconcile {
  return async (key): Promise<ReconcileResult | void> => {
    const reg = d.get(key);
    if (!reg || reg.metadata.deletionTimestamp || !inWatchScope(reg, d.watchNamespace)) return;
    const url = healthUrl(reg);
    if (!url) return; // a sidecar: the kubelet's probes watch it
    const dueInMs = probeDueInMs(reg, d.now());
    if (dueInMs > 0) return { requeueAfterMs: dueInMs };
    await probeAndRecord(d, reg, url);
    return { requeueAfterMs: intervalMs(reg) };
  };
}

export function createRegistryHealthController(
  ctx: ControllerContext,
  watchNamespace?: string,
  probe: HealthProbe = httpHealthProbe,
): Controller {
  const auditors = ctx.caches.auditors;
  return defineController(ctx, {
    name: REGISTRY_HEALTH_CONTROLLER,
    resource: RESOURCES.auditor,
    primary: auditors,
    reconciler: (kit) =>
      healthReconciler({ get: (k) => auditors.get(k), kit, probe, now: () => new Date(), watchNamespace }),
  });
}
