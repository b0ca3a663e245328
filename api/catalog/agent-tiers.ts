// The tool-cascade tiers above one agent, read fresh from the apiserver (an
// install decision must not rest on a stale cache): its workspace (in its
// namespace) and that workspace's Organization (whose home namespace holds
// the org-tier ScopedToolInstalls), then the rulings of both tiers.
import type { ClusterWriter } from '../store/cluster.ts';
import type { PlatformAgent } from '../../crds/generated/types.ts';
import { tierNamespaces, toolRulings, type ToolRuling, type ToolTiers } from './tool-cascade.ts';

type TierReader = Pick<ClusterWriter, 'readWorkspace' | 'readOrganization' | 'listToolInstalls'>;

export async function agentTiers(read: TierReader, agent: PlatformAgent): Promise<ToolTiers> {
  const namespace = agent.metadata.namespace ?? '';
  const wsName = agent.spec.workspace;
  if (!wsName) return {};
  const ws = await read.readWorkspace(namespace, wsName);
  const orgName = ws?.spec.organization;
  const org = orgName ? await read.readOrganization(orgName) : undefined;
  const home = org?.spec.homeNamespace;
  return {
    workspace: { name: wsName, namespace },
    ...(orgName && home ? { org: { name: orgName, namespace: home } } : {}),
  };
}

/** The strictest ruling per tool of the tiers above the agent. */
export async function agentToolRulings(
  read: TierReader,
  agent: PlatformAgent,
): Promise<Map<string, ToolRuling>> {
  const tiers = await agentTiers(read, agent);
  const lists = await Promise.all(tierNamespaces(tiers).map((ns) => read.listToolInstalls(ns)));
  return toolRulings(lists.flat(), tiers);
}
