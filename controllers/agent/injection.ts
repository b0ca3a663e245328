// Keeping secured agent pods injected, pure: how long to wait before
// re-creating a pod after replacing an un-injected one (so a webhook that is
// down or keeps admitting without injection cannot make the controller spin),
// the per-agent replacement record, how a failed pod creation is classified,
// and the `SidecarsInjected` condition.
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import { injectionSummary } from './pod-health.ts';
import type * as k8s from '@kubernetes/client-node';

export const CONDITION_INJECTED = 'SidecarsInjected';
export const REASON = {
  injected: 'Injected',
  missing: 'InjectionMissing',
  webhookUnavailable: 'WebhookUnavailable',
  namespaceNotEnabled: 'NamespaceNotEnabled',
  createFailed: 'PodCreateFailed',
} as const;

/** The second re-creation waits this long; each further one twice as long, up to MAX_RECREATE_DELAY_MS. */
export const FIRST_RECREATE_DELAY_MS = 5_000;
export const MAX_RECREATE_DELAY_MS = 300_000;

/**
 * How long to wait before re-creating the pod after the `replacements`-th
 * un-injected pod was deleted: the first is re-created at once (the usual
 * cause, a namespace labelled a moment too late, is gone by then), then 5 s,
 * 10 s, 20 s … up to 5 min.
 */
export function recreateDelayMs(replacements: number): number {
  if (replacements <= 1) return 0;
  return Math.min(MAX_RECREATE_DELAY_MS, FIRST_RECREATE_DELAY_MS * 2 ** (replacements - 2));
}

export interface Replacement {
  /** Un-injected pods deleted in a row (reset when an injected pod is seen). */
  count: number;
  /** When the last one was deleted. */
  atMs: number;
  problem: string;
  /** The pod deleted last, so a cache that still shows it does not count it twice. */
  podUid: string;
}

/** Replacements per agent uid, in memory: a restarted operator starts again with one immediate retry. */
export class ReplacementTracker {
  private readonly byAgent = new Map<string, Replacement>();

  record(uid: string, what: { problem: string; podUid: string }, nowMs: number): Replacement {
    const next = { count: (this.byAgent.get(uid)?.count ?? 0) + 1, atMs: nowMs, ...what };
    this.byAgent.set(uid, next);
    return next;
  }

  /** Whether `pod` is the one last deleted for this agent (still in a cache). */
  deleted(uid: string, pod: { metadata?: { uid?: string } }): boolean {
    const podUid = pod.metadata?.uid;
    return podUid !== undefined && this.byAgent.get(uid)?.podUid === podUid;
  }

  get(uid: string): Replacement | undefined {
    return this.byAgent.get(uid);
  }

  /** Milliseconds until the pod may be created again (0: now). */
  waitMs(uid: string, nowMs: number): number {
    const r = this.byAgent.get(uid);
    return r ? Math.max(0, r.atMs + recreateDelayMs(r.count) - nowMs) : 0;
  }

  clear(uid: string): void {
    this.byAgent.delete(uid);
  }
}

export interface PodProblem {
  reason: string;
  message: string;
}

/**
 * A refused pod creation, classified. With `failurePolicy: Fail` an
 * unreachable webhook makes the apiserver answer 500 "failed calling
 * webhook"; that is the webhook's outage, not the pod's fault.
 */
export function createFailure(code: number | undefined, message: string): PodProblem {
  if (/failed calling webhook/i.test(message)) {
    return {
      reason: REASON.webhookUnavailable,
      message: `the pod was not created: the admission webhook could not be called (${message})`,
    };
  }
  const http = code === undefined ? '' : ` (HTTP ${code})`;
  return { reason: REASON.createFailed, message: `the pod was refused${http}: ${message}` };
}

/** The message while an un-injected pod was replaced and the next attempt may wait. */
export function missingMessage(r: Replacement, waitMs: number): string {
  const next = waitMs > 0 ? `re-created in ${Math.ceil(waitMs / 1000)} s` : 're-created now';
  return `${r.problem}; deleted it (${r.count} in a row) and it is ${next}`;
}

const condition = (status: 'True' | 'False', reason: string, message: string): DesiredCondition => ({
  type: CONDITION_INJECTED,
  status,
  reason,
  message,
});

export function injectedCondition(pod: k8s.V1Pod): DesiredCondition {
  return condition('True', REASON.injected, `the webhook injected ${injectionSummary(pod)}`);
}

export function notInjectedCondition(problem: PodProblem): DesiredCondition {
  return condition('False', problem.reason, problem.message);
}
