// The pure core of the agent controller: from the agent and what was observed
// in the cluster, the status it should have. Rules (spec "States", CLARIFICATIONS "owners"):
// - no Owner-role owner: `suspended`, condition OwnersMissing=True;
// - `spec.suspend` (the suspend operation): `suspended`, reason SuspendRequested;
// - otherwise `running` when the agent's pod runs, else `pending`;
// - Ready=True only when running and the pod is ready (its Ready condition and
//   every container, sidecars included); otherwise Ready names what is not.
// Identity, chain and stale conditions and the identity fields come from
// their own pure modules through the observation.
import type * as k8s from '@kubernetes/client-node';
import { mergeConditions, type Condition, type DesiredCondition } from '../../base/controller/conditions.ts';
import { CONDITION_INJECTED, type PodProblem } from './injection.ts';
import { podReadiness } from './pod-health.ts';
import type { PlatformWorkspace } from '../../crds/generated/types.ts';
import type { AgentPhase, PlatformAgent, PlatformAgentStatus } from './types.ts';

export const CONDITION_OWNERS_MISSING = 'OwnersMissing';
export const CONDITION_READY = 'Ready';
/** Condition types this controller owns (others in status are left alone). */
export const AGENT_CONDITIONS = [
  CONDITION_OWNERS_MISSING,
  CONDITION_READY,
  'IdentityConflict',
  'ChainValid',
  'Stale',
  'SettingsLocked',
  'GatewayConfigured',
  'GatewayKeyReady',
  'CredentialsReady',
  'CredentialRefsResolved',
  CONDITION_INJECTED,
] as const;

/** What the reconciler saw in the cluster for this agent, and what the pure modules decided. */
export interface AgentObservation {
  /** The agent pod as last seen; undefined while none exists. */
  pod?: k8s.V1Pod;
  /** The node the pod runs on, when known. */
  node?: k8s.V1Node;
  /**
   * Why no usable pod runs although the agent may run: admission refused it
   * (`PodCreateFailed`, `WebhookUnavailable`), bad input blocks it (`PodBlocked`),
   * the webhook did not inject it (`InjectionMissing`). Wins over `pod`.
   */
  podProblem?: PodProblem;
  /** Status fields computed elsewhere (spiffeId, oauthClientId, email, handle, chain, passport). */
  fields?: Partial<PlatformAgentStatus>;
  /** Further conditions (identity, chain, stale, settings). */
  conditions?: DesiredCondition[];
}

export interface AgentStatusResult {
  status: PlatformAgentStatus;
  phase: AgentPhase;
  /** Why the agent is in this phase, for Events. */
  reason: string;
  message: string;
}

/** Owners with role Owner and a non-empty subject. */
export function ownerCount(agent: PlatformAgent): number {
  const owners = agent.spec.owners ?? [];
  return owners.filter((o) => o.role === 'Owner' && typeof o.subject === 'string' && o.subject.trim() !== '')
    .length;
}

export function hasOwner(agent: PlatformAgent): boolean {
  return ownerCount(agent) > 0;
}

/**
 * Why the agent is about to be garbage-collected with its workspace ('' when
 * it is not): its controlling owner is a PlatformWorkspace that is being
 * deleted or gone. Such an agent gets no new pod (nor a namespace label).
 */
export function workspaceOwnerGoing(
  agent: PlatformAgent,
  workspace: (name: string) => PlatformWorkspace | undefined,
): string {
  const ref = (agent.metadata.ownerReferences ?? []).find(
    (r) => r.controller === true && r.kind === 'PlatformWorkspace',
  );
  if (!ref) return '';
  const ws = workspace(ref.name);
  if (ws && ws.metadata.uid === ref.uid && !ws.metadata.deletionTimestamp) return '';
  return `workspace ${ref.name} that owns the agent is being deleted; the agent goes with it`;
}

interface PhaseDecision {
  phase: AgentPhase;
  /** The Ready condition's status. */
  ready: boolean;
  reason: string;
  message: string;
}

function decidePhase(agent: PlatformAgent, observed: AgentObservation): PhaseDecision {
  if (!hasOwner(agent)) {
    return {
      phase: 'suspended',
      ready: false,
      reason: 'NoOwner',
      message: 'the agent has no owner with role Owner; add one to reactivate it',
    };
  }
  if (agent.spec.suspend === true) {
    return {
      phase: 'suspended',
      ready: false,
      reason: 'SuspendRequested',
      message: 'the agent was suspended on request; reactivate it to resume',
    };
  }
  if (observed.podProblem) return { phase: 'pending', ready: false, ...observed.podProblem };
  if (!observed.pod) {
    return {
      phase: 'pending',
      ready: false,
      reason: 'PodNotCreated',
      message: 'the agent pod does not exist yet',
    };
  }
  const readiness = podReadiness(observed.pod, observed.node);
  const running = observed.pod.status?.phase === 'Running';
  return { phase: running ? 'running' : 'pending', ...readiness };
}

function desiredConditions(decision: PhaseDecision): DesiredCondition[] {
  const suspendedForOwners = decision.reason === 'NoOwner';
  return [
    suspendedForOwners
      ? { type: CONDITION_OWNERS_MISSING, status: 'True', reason: 'NoOwner', message: decision.message }
      : {
          type: CONDITION_OWNERS_MISSING,
          status: 'False',
          reason: 'OwnerPresent',
          message: 'the agent has an Owner',
        },
    decision.ready
      ? { type: CONDITION_READY, status: 'True', reason: decision.reason, message: decision.message }
      : { type: CONDITION_READY, status: 'False', reason: decision.reason, message: decision.message },
  ];
}

/**
 * The status `agent` should have. Fields of the status this controller does
 * not compute are carried over, so later controllers' fields are not dropped.
 */
export function computeAgentStatus(
  agent: PlatformAgent,
  observed: AgentObservation,
  now: Date,
): AgentStatusResult {
  const decision = decidePhase(agent, observed);
  const previous = agent.status ?? {};
  const conditions: Condition[] = mergeConditions(
    previous.conditions as Condition[] | undefined,
    [...desiredConditions(decision), ...(observed.conditions ?? [])],
    now,
    AGENT_CONDITIONS,
  );
  const status: PlatformAgentStatus = {
    ...previous,
    ...observed.fields,
    phase: decision.phase,
    ownerCount: ownerCount(agent),
    conditions,
  };
  return { status, phase: decision.phase, reason: decision.reason, message: decision.message };
}
