// The pure core of the agent controller: from the agent and what was observed
// in the cluster, the status it should have. Rules (spec "States", CLARIFICATIONS "owners"):
// - no Owner-role owner: `suspended`, condition OwnersMissing=True;
// - `spec.suspend` (the suspend operation): `suspended`, reason SuspendRequested;
// - otherwise `running` when the agent's pod runs, else `pending`;
// - Ready=True only when running.
// Identity, chain and stale conditions and the identity fields come from
// their own pure modules through the observation.
import { mergeConditions, type Condition, type DesiredCondition } from '../runtime/conditions.ts';
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
] as const;

/** What the reconciler saw in the cluster for this agent, and what the pure modules decided. */
export interface AgentObservation {
  /** The agent pod's phase (`Pending`, `Running`, …); undefined while no pod exists. */
  podPhase?: string;
  /** Why the pod could not be created (admission refused it, e.g. a missing RuntimeClass). */
  podError?: string;
  /** Why no pod is built although the agent may run (e.g. an unknown auditor); an existing pod is kept. */
  podBlocked?: string;
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

interface PhaseDecision {
  phase: AgentPhase;
  reason: string;
  message: string;
}

function decidePhase(agent: PlatformAgent, observed: AgentObservation): PhaseDecision {
  if (!hasOwner(agent)) {
    return {
      phase: 'suspended',
      reason: 'NoOwner',
      message: 'the agent has no owner with role Owner; add one to reactivate it',
    };
  }
  if (agent.spec.suspend === true) {
    return {
      phase: 'suspended',
      reason: 'SuspendRequested',
      message: 'the agent was suspended on request; reactivate it to resume',
    };
  }
  if (observed.podPhase === 'Running') {
    return { phase: 'running', reason: 'PodRunning', message: 'the agent pod is running' };
  }
  if (observed.podPhase === undefined) {
    if (observed.podError) return { phase: 'pending', reason: 'PodCreateFailed', message: observed.podError };
    if (observed.podBlocked) return { phase: 'pending', reason: 'PodBlocked', message: observed.podBlocked };
    return { phase: 'pending', reason: 'PodNotCreated', message: 'the agent pod does not exist yet' };
  }
  return {
    phase: 'pending',
    reason: `Pod${observed.podPhase}`,
    message: `the agent pod is ${observed.podPhase}`,
  };
}

function desiredConditions(decision: PhaseDecision, generation: number | undefined): DesiredCondition[] {
  const suspendedForOwners = decision.reason === 'NoOwner';
  const g = generation !== undefined ? { observedGeneration: generation } : {};
  return [
    suspendedForOwners
      ? { type: CONDITION_OWNERS_MISSING, status: 'True', reason: 'NoOwner', message: decision.message, ...g }
      : {
          type: CONDITION_OWNERS_MISSING,
          status: 'False',
          reason: 'OwnerPresent',
          message: 'the agent has an Owner',
          ...g,
        },
    decision.phase === 'running'
      ? { type: CONDITION_READY, status: 'True', reason: decision.reason, message: decision.message, ...g }
      : { type: CONDITION_READY, status: 'False', reason: decision.reason, message: decision.message, ...g },
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
  const generation = agent.metadata.generation;
  const previous = agent.status ?? {};
  const conditions: Condition[] = mergeConditions(
    previous.conditions as Condition[] | undefined,
    [...desiredConditions(decision, generation), ...(observed.conditions ?? [])],
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
  if (generation !== undefined) status.observedGeneration = generation;
  return { status, ...decision };
}
