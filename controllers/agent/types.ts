// The PlatformAgent shape the controller reads and writes: the generated types
// of crds/kinds/platform-agent.ts, plus the names the controller uses.
import type { PlatformAgent, PlatformAgentSpec, PlatformAgentStatus } from '../../crds/generated/types.ts';
import { API_VERSION, RESOURCES } from '../../contract/kube.ts';

export type { PlatformAgent, PlatformAgentSpec, PlatformAgentStatus };
export type AgentOwner = NonNullable<PlatformAgentSpec['owners']>[number];
export type OwnerRole = AgentOwner['role'];
export type AgentPhase = NonNullable<PlatformAgentStatus['phase']>;
export type TrustTier = NonNullable<PlatformAgentStatus['trustTier']>;

export const AGENT_KIND = 'PlatformAgent';
export const AGENT_API_VERSION = API_VERSION;
export const AGENT_RESOURCE = RESOURCES.agent;

/** Names of the objects an agent owns. */
export const ownedNames = (
  name: string,
): { serviceAccount: string; pod: string; secret: string; gatewayKey: string; svid: string } => ({
  serviceAccount: `agent-${name}`,
  pod: `agent-${name}`,
  secret: `agent-${name}-oauth-client`,
  gatewayKey: `agent-${name}-gateway-key`,
  svid: `agent-${name}-svid`,
});
