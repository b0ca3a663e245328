// The cascades as they apply to one agent, read fresh from the apiserver: the
// credentials and tool installs of the tiers above it (its workspace and that
// workspace's Organization), resolved by the pure modules. The MCP tool
// install flow calls `agentCredentials` (step 2: an enforced credential).
import type { ScopedCredential, ScopedToolInstall } from '../../crds/generated/types.ts';
import type { ClusterWriter } from '../store/cluster.ts';
import { agentTiers } from '../catalog/agent-tiers.ts';
import { tierNamespaces } from '../catalog/tool-cascade.ts';
import type { PlatformAgent } from '../agents/model.ts';
import { resolveCredentials, type CascadeTiers, type CredentialResolution } from './credential-cascade.ts';

export type CascadeReader = Pick<
  ClusterWriter,
  'readWorkspace' | 'readOrganization' | 'listCredentials' | 'listToolInstalls'
>;

/** Every ScopedCredential in the tiers' namespaces (the resolver keeps those of the tiers). */
export async function tierCredentials(read: CascadeReader, tiers: CascadeTiers): Promise<ScopedCredential[]> {
  return (await Promise.all(tierNamespaces(tiers).map((ns) => read.listCredentials(ns)))).flat();
}

export async function tierToolInstalls(
  read: CascadeReader,
  tiers: CascadeTiers,
): Promise<ScopedToolInstall[]> {
  return (await Promise.all(tierNamespaces(tiers).map((ns) => read.listToolInstalls(ns)))).flat();
}

/** Which credential applies to the agent for each service (and which do not, and why). */
export async function agentCredentials(
  read: CascadeReader,
  agent: PlatformAgent,
): Promise<CredentialResolution> {
  const tiers = await agentTiers(read, agent);
  return resolveCredentials(await tierCredentials(read, tiers), tiers);
}
