// The PlatformAgent shape the controller reads and writes. Mirrors the schema
// in crds/kinds/platform-agent.ts; switch to the generated types once the
// resources issue publishes them.
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { API_VERSION, GROUP, VERSION } from '../../crds/kit.ts';
import type { Condition } from '../runtime/conditions.ts';
import type { CustomResourceRef } from '../runtime/status-writer.ts';

export type OwnerRole = 'Owner' | 'Editor' | 'Viewer';
export type AgentPhase = 'pending' | 'running' | 'suspended';

export interface AgentOwner {
  subject: string;
  role: OwnerRole;
}

export interface PlatformAgentSpec {
  owners?: AgentOwner[];
  model?: { id?: string };
  /** Set by the suspend operation, cleared by reactivate. */
  suspend?: boolean;
  [key: string]: unknown;
}

export interface PlatformAgentStatus {
  phase?: AgentPhase;
  observedGeneration?: number;
  conditions?: Condition[];
  ownerCount?: number;
  [key: string]: unknown;
}

export interface PlatformAgent {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
  spec?: PlatformAgentSpec;
  status?: PlatformAgentStatus;
}

export const AGENT_KIND = 'PlatformAgent';
export const AGENT_API_VERSION = API_VERSION;
export const AGENT_RESOURCE: CustomResourceRef = { group: GROUP, version: VERSION, plural: 'platformagents' };
