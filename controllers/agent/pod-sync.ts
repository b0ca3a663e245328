// The agent's pod, kept secured: created only once its namespace carries the
// webhook's label; replaced when it was built from an older spec; deleted at
// once when it is secured but the webhook left no injection record, and then
// re-created with a growing delay so a webhook that is down (or keeps
// admitting without injection) cannot make the controller spin. Decisions
// come from `injection.ts` and `pod-health.ts`; this file only sequences the
// writes and the Events.
import type * as k8s from '@kubernetes/client-node';
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import type { EventRecorder } from '../../base/controller/events.ts';
import {
  REASON,
  ReplacementTracker,
  injectedCondition,
  missingMessage,
  notInjectedCondition,
  recreateDelayMs,
  type PodProblem,
} from './injection.ts';
import { upToDate, type AgentObjects } from './owned.ts';
import { injectionProblem } from './pod-health.ts';
import { AGENT_API_VERSION, AGENT_KIND, type PlatformAgent } from './types.ts';
import type { PodWiring } from './wiring.ts';

/** After labelling the namespace, give the apiserver's namespace cache a moment before creating the pod. */
export const NAMESPACE_SETTLE_MS = 1_000;
/** A pod that could not be created is tried again after this long. */
export const POD_RETRY_MS = 30_000;

export interface PodSyncResult {
  /** The agent's pod as last seen or created; absent while none exists. */
  pod?: k8s.V1Pod;
  /** Why no usable pod runs (takes precedence over `pod` for the Ready condition). */
  problem?: PodProblem;
  /** The SidecarsInjected condition; absent when injection is not checked. */
  injection?: DesiredCondition;
  /** Look again after this long. */
  retryAfterMs?: number;
}

/** The writes and reads this file needs (AgentObjects, or a fake in tests). */
export type PodObjects = Pick<
  AgentObjects,
  'existingPod' | 'desiredPod' | 'deletePod' | 'createPod' | 'ensureNamespaceEnabled'
>;

export interface AgentPodSyncDeps {
  objects: PodObjects;
  events: Pick<EventRecorder, 'emit'>;
  /** false where no platform webhook runs: un-injected pods are left alone. */
  requireInjection: boolean;
  clock: () => Date;
}

const uidOf = (agent: PlatformAgent): string =>
  agent.metadata.uid ?? `${agent.metadata.namespace}/${agent.metadata.name}`;
const subject = (agent: PlatformAgent): PlatformAgent => ({
  ...agent,
  apiVersion: AGENT_API_VERSION,
  kind: AGENT_KIND,
});

export class AgentPodSync {
  private readonly replacements = new ReplacementTracker();

  constructor(private readonly deps: AgentPodSyncDeps) {}

  async sync(agent: PlatformAgent, chain: readonly string[], wiring?: PodWiring): Promise<PodSyncResult> {
    const desired = this.deps.objects.desiredPod(agent, chain, wiring);
    const existing = this.deps.objects.existingPod(agent);
    if (!existing) return this.create(agent, desired);
    if (existing.metadata?.deletionTimestamp || this.replacements.deleted(uidOf(agent), existing)) {
      return this.terminating(agent, existing);
    }
    if (!upToDate(existing, desired)) {
      await this.deps.objects.deletePod(existing);
      return {};
    }
    return this.checked(agent, existing);
  }

  /** The agent no longer wants a pod (suspended): its replacement history goes too. */
  forget(agent: PlatformAgent): void {
    this.replacements.clear(uidOf(agent));
  }

  private async replaceUninjected(
    agent: PlatformAgent,
    pod: k8s.V1Pod,
    problem: string,
  ): Promise<PodSyncResult> {
    const now = this.deps.clock().getTime();
    const r = this.replacements.record(uidOf(agent), { problem, podUid: pod.metadata?.uid ?? '' }, now);
    await this.deps.objects.deletePod(pod);
    const waitMs = recreateDelayMs(r.count);
    await this.deps.events.emit(subject(agent), {
      type: 'Warning',
      reason: REASON.missing,
      action: 'DeletePod',
      note: missingMessage(r, waitMs),
    });
    return this.missing(agent, waitMs);
  }

  /** While an un-injected pod is going or the re-creation waits: the condition stays, nothing spins. */
  private missing(agent: PlatformAgent, waitMs: number): PodSyncResult {
    const r = this.replacements.get(uidOf(agent));
    if (!r) return {};
    const problem = { reason: REASON.missing, message: missingMessage(r, waitMs) };
    // At once: the pod's delete event usually comes first; the requeue is the safety net.
    return { problem, injection: notInjectedCondition(problem), retryAfterMs: Math.max(waitMs, 1_000) };
  }

  private terminating(agent: PlatformAgent, pod: k8s.V1Pod): PodSyncResult {
    const waitMs = this.replacements.waitMs(uidOf(agent), this.deps.clock().getTime());
    return this.replacements.get(uidOf(agent)) ? this.missing(agent, waitMs) : { pod };
  }

  private async create(agent: PlatformAgent, desired: k8s.V1Pod): Promise<PodSyncResult> {
    const waitMs = this.replacements.waitMs(uidOf(agent), this.deps.clock().getTime());
    if (waitMs > 0) return this.missing(agent, waitMs);
    const ns = await this.deps.objects.ensureNamespaceEnabled(agent);
    if (ns.error) return this.namespaceRefused(agent, ns.error);
    if (ns.labelled) {
      await this.deps.events.emit(subject(agent), {
        type: 'Normal',
        reason: 'NamespaceEnabled',
        action: 'LabelNamespace',
        note: `labelled namespace ${agent.metadata.namespace} platform.computing/enabled=true so the webhook injects the agent's pod`,
      });
      const message = `namespace ${agent.metadata.namespace} was labelled for the webhook just now; the pod is created in a moment`;
      return { problem: { reason: 'PodNotCreated', message }, retryAfterMs: NAMESPACE_SETTLE_MS };
    }
    const created = await this.deps.objects.createPod(agent, desired);
    if (created.problem) {
      const injection =
        this.deps.requireInjection && created.problem.reason === REASON.webhookUnavailable
          ? notInjectedCondition(created.problem)
          : undefined;
      return { problem: created.problem, injection, retryAfterMs: POD_RETRY_MS };
    }
    if (!created.pod) return {}; // it existed after all (a stale cache); its watch event follows
    return this.checked(agent, created.pod);
  }

  /** The admitted pod as the apiserver returned it: the webhook's mutation is already in it. */
  private async checked(agent: PlatformAgent, pod: k8s.V1Pod): Promise<PodSyncResult> {
    if (!this.deps.requireInjection) return { pod };
    const problem = injectionProblem(pod);
    if (problem) return this.replaceUninjected(agent, pod, problem);
    this.replacements.clear(uidOf(agent));
    return { pod, injection: injectedCondition(pod) };
  }

  private namespaceRefused(agent: PlatformAgent, error: string): PodSyncResult {
    const problem = {
      reason: REASON.namespaceNotEnabled,
      message:
        `namespace ${agent.metadata.namespace} is not labelled platform.computing/enabled=true and the label could not be set ` +
        `(${error}); the pod is not created, as the webhook would not inject it`,
    };
    return { problem, injection: notInjectedCondition(problem), retryAfterMs: POD_RETRY_MS };
  }
}
