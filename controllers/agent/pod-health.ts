// What the agent's pod says about itself, pure: whether the mutating webhook
// injected it (its injection record), which containers are not ready and
// why, and whether the pod as a whole is ready. The reconciler turns these
// into the agent's conditions; nothing here reads the cluster.
import type * as k8s from '@kubernetes/client-node';
import { CONTAINER } from '../../webhooks/constants.ts';
import { ANNOTATION, LABEL } from '../../contract/kube.ts';

/**
 * Why a secured pod lacks the webhook's injection record ('' when it has one,
 * is not secured, or is already going away).
 */
export function injectionProblem(pod: k8s.V1Pod): string {
  const meta = pod.metadata ?? {};
  if (meta.deletionTimestamp) return '';
  if (meta.labels?.[LABEL.secured] !== 'true') return '';
  if (meta.annotations?.[ANNOTATION.injectionStatus] !== undefined) return '';
  return (
    `pod ${meta.name ?? ''} is labelled ${LABEL.secured}=true but carries no ${ANNOTATION.injectionStatus}: ` +
    'the mutating webhook did not inject it (it was not called for the pod, or admitted it without injection)'
  );
}

/** What the webhook recorded, in words: `auditors a, b (mode enforce, chain from annotation)`. */
export function injectionSummary(pod: k8s.V1Pod): string {
  const raw = pod.metadata?.annotations?.[ANNOTATION.injectionStatus];
  try {
    const s = JSON.parse(raw ?? '') as { chain?: unknown; mode?: unknown; source?: unknown };
    const chain = Array.isArray(s.chain) ? s.chain.join(', ') : '?';
    return `auditors ${chain} (mode ${String(s.mode ?? '?')}, chain from ${String(s.source ?? '?')})`;
  } catch {
    return 'an unreadable injection record';
  }
}

export interface ContainerProblem {
  name: string;
  /** Put there by the webhook (an auditor, the gateway, the proxy, the redirect init container). */
  injected: boolean;
  /** Its state in words: `waiting: CrashLoopBackOff (back-off 5m0s …), 7 restarts`. */
  state: string;
}

const isInjected = (name: string): boolean =>
  name.startsWith(CONTAINER.auditorPrefix) || name.startsWith('platform-');

function stateText(status: k8s.V1ContainerStatus): string {
  const { waiting, terminated, running } = status.state ?? {};
  const detail = (reason?: string, message?: string): string =>
    [reason, message ? `(${message.slice(0, 200)})` : ''].filter(Boolean).join(' ');
  let text: string;
  if (waiting) text = `waiting: ${detail(waiting.reason ?? 'unknown', waiting.message)}`;
  else if (terminated)
    text = `terminated: ${detail(terminated.reason ?? 'exit', terminated.message)}, exit code ${terminated.exitCode}`;
  else if (running) text = 'running, not ready';
  else text = 'no state reported';
  const restarts = status.restartCount ?? 0;
  return restarts > 0 ? `${text}, ${restarts} restart${restarts === 1 ? '' : 's'}` : text;
}

/** A classic init container that ran to completion is done, not unready. */
function initFinished(status: k8s.V1ContainerStatus, native: boolean): boolean {
  return !native && status.state?.terminated?.exitCode === 0;
}

/**
 * The containers of the pod that are not ready, init containers first.
 * Native sidecars (init containers with `restartPolicy: Always`) count like
 * containers; classic init containers count until they have succeeded.
 */
export function notReadyContainers(pod: k8s.V1Pod): ContainerProblem[] {
  const native = new Set(
    (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  );
  const init = (pod.status?.initContainerStatuses ?? []).filter(
    (s) => !s.ready && !initFinished(s, native.has(s.name)),
  );
  const main = (pod.status?.containerStatuses ?? []).filter((s) => !s.ready);
  return [...init, ...main].map((s) => ({ name: s.name, injected: isInjected(s.name), state: stateText(s) }));
}

export interface PodReadiness {
  ready: boolean;
  /** For the agent's Ready condition: PodRunning, SidecarNotReady, ContainersNotReady, PodNotReady, Pod<Phase>. */
  reason: string;
  message: string;
}

const describeProblems = (problems: ContainerProblem[]): string =>
  problems.map((p) => `${p.name}${p.injected ? ' (injected)' : ''}: ${p.state}`).join('; ');

function readyCondition(pod: k8s.V1Pod): k8s.V1PodCondition | undefined {
  return (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
}

/**
 * Whether the pod is ready, from its phase, its Ready condition (which the
 * node lifecycle controller turns False when the node or its container
 * runtime stops reporting) and its container statuses, naming what is not.
 */
/**
 * A node that is not Ready (its runtime down, its kubelet silent) does not
 * update its pods' status: their last word stays "ready". The node's own
 * condition is the truth then.
 */
export function nodeNotReady(node: k8s.V1Node | undefined): PodReadiness | undefined {
  const cond = node?.status?.conditions?.find((c) => c.type === 'Ready');
  if (!node || cond?.status === 'True') return undefined;
  const why = cond ? withDetail(cond.status, cond.message) : 'not reported';
  return {
    ready: false,
    reason: 'NodeNotReady',
    message: `the agent pod's node ${node.metadata?.name ?? ''} is not ready (${why})`,
  };
}

/** `text`, then `: detail` when there is one. */
const withDetail = (text: string, detail: string | undefined): string =>
  detail ? `${text}: ${detail}` : text;

/** Why a running pod with ready containers is still not ready, from its Ready condition. */
function readyConditionProblem(cond: k8s.V1PodCondition | undefined): string {
  if (!cond) return 'it reports no Ready condition yet';
  const reason = cond.reason ? ` (${withDetail(cond.reason, cond.message)})` : '';
  return `its Ready condition is ${cond.status}${reason}`;
}

function runningPodReadiness(pod: k8s.V1Pod, problems: ContainerProblem[]): PodReadiness {
  const cond = readyCondition(pod);
  if (cond?.status === 'True' && problems.length === 0) {
    return { ready: true, reason: 'PodRunning', message: 'the agent pod is running and ready' };
  }
  if (problems.length) {
    return {
      ready: false,
      reason: problems.some((p) => p.injected) ? 'SidecarNotReady' : 'ContainersNotReady',
      message: `the agent pod is running but not ready: ${describeProblems(problems)}`,
    };
  }
  const why = readyConditionProblem(cond);
  return { ready: false, reason: 'PodNotReady', message: `the agent pod is running but not ready: ${why}` };
}

export function podReadiness(pod: k8s.V1Pod, node?: k8s.V1Node): PodReadiness {
  const phase = pod.status?.phase ?? 'Pending';
  const nodeProblem = nodeNotReady(node);
  if (phase === 'Running' && nodeProblem) return nodeProblem;
  const problems = notReadyContainers(pod);
  if (phase === 'Running') return runningPodReadiness(pod, problems);
  const detail = problems.length ? `; not ready: ${describeProblems(problems)}` : '';
  return { ready: false, reason: `Pod${phase}`, message: `the agent pod is ${phase}${detail}` };
}
