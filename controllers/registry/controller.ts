// The registry health controllers: every AuditorRegistration and
// ModelRegistration with an endpoint is probed (an auditor's GET
// <endpoint>/health every `spec.healthCheckIntervalSeconds`, a model's GET
// <endpoint>/models every 30 s; decisions 114, 128) with the registration's
// auth (decision 129); the result goes to `status.health`,
// `status.lastHealthTime` (the last healthy answer), the `Healthy`
// condition and `Ready` (health.ts `registrationReady`; a sidecar is Ready
// without a probe). The controller requeues itself for the next probe; events
// between probes do not probe early.
import { API_VERSION, LABEL, RESOURCES } from '../../contract/kube.ts';
import type { AuditorRegistration, ModelRegistration } from '../../crds/generated/types.ts';
import { mergeConditions, type Condition } from '../../base/controller/conditions.ts';
import type { Controller, Reconcile, ReconcileResult } from '../../base/controller/controller.ts';
import type { ResilientInformer } from '../../base/controller/informer.ts';
import { endpointRequest, type CredentialHolder } from '../../base/registry-auth.ts';
import { NO_CREDENTIALS, type RegistryCredentials } from '../../base/registry-credentials.ts';
import { defineController } from '../common/define.ts';
import { READY } from '../common/ready.ts';
import type { ControllerContext, Toolkit } from '../common/toolkit.ts';
import {
  AUDITOR_PROBE,
  healthCondition,
  healthFromProbe,
  healthUrl,
  inWatchScope,
  intervalMs,
  MODEL_PROBE,
  probeDueInMs,
  probeTimeoutMs,
  registrationReady,
  type HealthProbe,
  type ProbeResult,
  type ProbeRule,
} from './health.ts';
import { httpHealthProbe } from './http-probe.ts';

export const REGISTRY_HEALTH_CONTROLLER = 'registry-health';
export const MODEL_HEALTH_CONTROLLER = 'model-health';

type Registration = AuditorRegistration | ModelRegistration;

/** What differs between the two kinds. */
interface ProbedKind<T extends Registration> {
  kind: T['kind'];
  holder: CredentialHolder['kind'];
  rule: ProbeRule;
  controller: string;
  informer(ctx: ControllerContext): ResilientInformer<T>;
  /** The workspaces it belongs to (none: cluster-wide). */
  workspaces(reg: T): string[];
}

const AUDITORS: ProbedKind<AuditorRegistration> = {
  kind: 'AuditorRegistration',
  holder: 'auditor',
  rule: AUDITOR_PROBE,
  controller: REGISTRY_HEALTH_CONTROLLER,
  informer: (ctx) => ctx.caches.auditors,
  workspaces: (reg) => reg.spec.workspaces ?? [],
};

// A model states no workspaces; a workspace label gives it to that workspace's operator (decision 129).
const MODELS: ProbedKind<ModelRegistration> = {
  kind: 'ModelRegistration',
  holder: 'model',
  rule: MODEL_PROBE,
  controller: MODEL_HEALTH_CONTROLLER,
  informer: (ctx) => ctx.caches.models,
  workspaces: (reg) => {
    const ws = reg.metadata.labels?.[LABEL.workspace];
    return ws ? [ws] : [];
  },
};

export interface ProbeOptions {
  watchNamespace?: string;
  probe?: HealthProbe;
  credentials?: RegistryCredentials;
}

interface HealthDeps<T extends Registration> {
  what: ProbedKind<T>;
  get: (key: string) => T | undefined;
  kit: Toolkit;
  probe: HealthProbe;
  credentials: RegistryCredentials;
  now: () => Date;
  watchNamespace: string | undefined;
}

async function probeOnce<T extends Registration>(
  d: HealthDeps<T>,
  reg: T,
  url: string,
): Promise<ProbeResult> {
  const holder = { kind: d.what.holder, name: reg.metadata.name ?? '' };
  const creds = await d.credentials.resolve(holder, reg.spec.auth);
  if (creds.problem) return { kind: 'failed', error: `not sent: ${creds.problem}` };
  return d.probe.get(url, endpointRequest(url, reg.spec.endpoint, reg.spec.auth, creds), probeTimeoutMs(reg));
}

async function probeAndRecord<T extends Registration>(d: HealthDeps<T>, reg: T, url: string): Promise<void> {
  const health = healthFromProbe(await probeOnce(d, reg, url), d.now(), d.what.rule);
  const previous = reg.status?.conditions as Condition[] | undefined;
  const desired = [healthCondition(health), registrationReady(reg, health, d.what.rule.path)];
  const conditions = mergeConditions(previous, desired, d.now(), ['Healthy', READY]);
  const lastHealthTime = health.status === 'healthy' ? health.checkedAt : reg.status?.lastHealthTime;
  const subject = { ...reg, apiVersion: API_VERSION, kind: d.what.kind };
  await d.kit.statusWriter.write(subject, {
    ...reg.status,
    health,
    conditions,
    ...(lastHealthTime ? { lastHealthTime } : {}),
  });
}

/** Ready alone, for a registration that is never probed here. */
async function recordUnprobed<T extends Registration>(d: HealthDeps<T>, reg: T): Promise<void> {
  const previous = reg.status?.conditions as Condition[] | undefined;
  const ready = registrationReady(reg, undefined, d.what.rule.path);
  const conditions = mergeConditions(previous, [ready], d.now(), [READY]);
  const subject = { ...reg, apiVersion: API_VERSION, kind: d.what.kind };
  await d.kit.statusWriter.write(subject, { ...reg.status, conditions });
}

function healthReconciler<T extends Registration>(d: HealthDeps<T>): Reconcile {
  return async (key): Promise<ReconcileResult | void> => {
    const reg = d.get(key);
    if (!reg || reg.metadata.deletionTimestamp) return;
    if (!inWatchScope(d.what.workspaces(reg), d.watchNamespace)) return;
    const url = healthUrl(reg, d.what.rule.path);
    if (!url) return recordUnprobed(d, reg); // a sidecar (the kubelet's probes watch it), or no usable endpoint
    const dueInMs = probeDueInMs(reg, d.now());
    if (dueInMs > 0) return { requeueAfterMs: dueInMs };
    await probeAndRecord(d, reg, url);
    return { requeueAfterMs: intervalMs(reg) };
  };
}

function healthController<T extends Registration>(
  ctx: ControllerContext,
  what: ProbedKind<T>,
  o: ProbeOptions,
): Controller {
  const informer = what.informer(ctx);
  return defineController(ctx, {
    name: what.controller,
    resource: what.kind === 'AuditorRegistration' ? RESOURCES.auditor : RESOURCES.model,
    primary: informer,
    reconciler: (kit) =>
      healthReconciler({
        what,
        get: (k) => informer.get(k),
        kit,
        probe: o.probe ?? httpHealthProbe,
        credentials: o.credentials ?? NO_CREDENTIALS,
        now: () => new Date(),
        watchNamespace: o.watchNamespace,
      }),
  });
}

export function createRegistryHealthController(ctx: ControllerContext, o: ProbeOptions = {}): Controller {
  return healthController(ctx, AUDITORS, o);
}

export function createModelHealthController(ctx: ControllerContext, o: ProbeOptions = {}): Controller {
  return healthController(ctx, MODELS, o);
}
