// The composed auditor chain of one agent, pure: the Organization's required
// auditors and frameworks, the workspace's required auditors, selected
// frameworks and default chain, the agent's own chain and frameworks, and an
// explicit `platform.computing/auditor-chain` annotation on the agent (the
// user's full selection: it may drop user-selected auditors only). A
// standalone agent (no workspace) that selects no auditors gets the built-in
// default chain, as the webhook would give a pod without a chain.
import type { Organization, PlatformWorkspace } from '../../crds/generated/types.ts';
import {
  applyExplicitChain,
  chainIds,
  chainLists,
  composeChain,
  DEFAULT_CHAIN,
  parseIdList,
  unknownAuditors,
  type ChainInput,
  type FrameworkRequirement,
} from '../chain/compose.ts';
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import type { PlatformAgent } from './types.ts';
import { ANNOTATION } from '../../contract/kube.ts';

export const CONDITION_CHAIN_VALID = 'ChainValid';

export interface AgentChain {
  ids: string[];
  /** Required auditors the agent's explicit chain tried to drop (kept). */
  refused: string[];
  unknown: string[];
  /** Why a registered auditor of the chain cannot be wired into a pod (the webhook's rule), one line each. */
  unwireable: string[];
  /** Frameworks selected but not defined by the Organization. */
  missingFrameworks: string[];
}

function frameworks(
  org: Organization | undefined,
  selected: readonly string[],
): {
  found: FrameworkRequirement[];
  missing: string[];
} {
  const defined = new Map((org?.spec.frameworks ?? []).map((f) => [f.name, f]));
  const found: FrameworkRequirement[] = [];
  const missing: string[] = [];
  for (const name of new Set(selected)) {
    const f = defined.get(name);
    if (f) found.push({ name, requiredAuditors: f.requiredAuditors });
    else missing.push(name);
  }
  return { found, missing };
}

/** What the organization and the workspace require by name. */
function requiredBy(ws: PlatformWorkspace | undefined, org: Organization | undefined): Partial<ChainInput> {
  return {
    orgName: org?.metadata.name,
    orgRequired: org?.spec.requiredAuditors ?? [],
    workspaceName: ws?.metadata.name,
    workspaceRequired: ws?.spec.requiredAuditors ?? [],
  };
}

/** The default chains of the organization, then of the workspace. */
function selectedBy(ws: PlatformWorkspace | undefined, org: Organization | undefined): string[] {
  const wsLists = chainLists(ws?.spec.defaults?.auditorChain);
  const orgLists = chainLists(org?.spec.defaults?.auditorChain);
  return [...orgLists.preRequest, ...orgLists.postResponse, ...wsLists.preRequest, ...wsLists.postResponse];
}

/** The chain input of a workspace (its agents add their own selection). */
export function workspaceChainInput(
  ws: PlatformWorkspace | undefined,
  org: Organization | undefined,
  extraFrameworks: readonly string[] = [],
): { input: ChainInput; missingFrameworks: string[] } {
  const fw = frameworks(org, [...(ws?.spec.frameworks ?? []), ...extraFrameworks]);
  return {
    input: { ...requiredBy(ws, org), frameworks: fw.found, userSelected: selectedBy(ws, org) },
    missingFrameworks: fw.missing,
  };
}

/** What an agent's chain reads besides its workspace and organization. */
export interface AgentChainLookups {
  /** Auditor ids known (built-in or registered). */
  known: ReadonlySet<string>;
  /** The auditors the agent's installed apps bring, per app. */
  installedApps?: ChainInput['installedApps'];
  /** Registered auditors the webhook cannot wire, with why (decision 130). */
  unwireable?: ReadonlyMap<string, string>;
}

export function agentChain(
  agent: PlatformAgent,
  ws: PlatformWorkspace | undefined,
  org: Organization | undefined,
  { known, installedApps = [], unwireable = new Map() }: AgentChainLookups,
): AgentChain {
  const { input, missingFrameworks } = workspaceChainInput(ws, org, agent.spec.frameworks ?? []);
  const own = chainLists(agent.spec.auditorChain);
  const ownIds = [...own.preRequest, ...own.postResponse];
  const standalone = !agent.spec.workspace;
  const full: ChainInput = {
    ...input,
    installedApps,
    ...(standalone && ownIds.length === 0 ? { builtinDefault: DEFAULT_CHAIN } : {}),
    userSelected: [...(input.userSelected ?? []), ...ownIds],
  };
  const explicit = parseIdList(agent.metadata.annotations?.[ANNOTATION.auditorChain]);
  const composed =
    explicit.length > 0 ? applyExplicitChain(full, explicit) : { chain: composeChain(full), refused: [] };
  return {
    ids: chainIds(composed.chain),
    refused: composed.refused,
    unknown: unknownAuditors(composed.chain, known),
    unwireable: chainIds(composed.chain).flatMap((id) => unwireable.get(id) ?? []),
    missingFrameworks,
  };
}

export function chainCondition(chain: AgentChain): DesiredCondition {
  if (chain.unknown.length > 0) {
    return {
      type: CONDITION_CHAIN_VALID,
      status: 'False',
      reason: 'UnknownAuditor',
      message: `unknown auditor(s) ${chain.unknown.join(', ')}: register them (AuditorRegistration) or remove them; the running pod is kept`,
    };
  }
  if (chain.unwireable.length > 0) {
    return {
      type: CONDITION_CHAIN_VALID,
      status: 'False',
      reason: 'AuditorNotWireable',
      message: `${chain.unwireable.join('; ')}; the running pod is kept`,
    };
  }
  if (chain.missingFrameworks.length > 0) {
    return {
      type: CONDITION_CHAIN_VALID,
      status: 'False',
      reason: 'UnknownFramework',
      message: `compliance framework(s) ${chain.missingFrameworks.join(', ')} are not defined by the organization; the running pod is kept`,
    };
  }
  if (chain.refused.length > 0) {
    return {
      type: CONDITION_CHAIN_VALID,
      status: 'False',
      reason: 'RequiredAuditorRemoved',
      message: `${chain.refused.join('; ')}; it stays in the chain`,
    };
  }
  return {
    type: CONDITION_CHAIN_VALID,
    status: 'True',
    reason: 'Composed',
    message: chain.ids.join(','),
  };
}

/** Whether the pod may be (re)built from this chain: unknown or unwireable auditors, or unknown frameworks, block it. */
export function chainUsable(chain: AgentChain): boolean {
  return chain.unknown.length === 0 && chain.unwireable.length === 0 && chain.missingFrameworks.length === 0;
}
