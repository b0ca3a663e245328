// The Access Manifest that governs one agent (decision 140), read fresh from
// the apiserver (a refusal must not rest on a stale cache): its workspace's
// narrowing its Organization's. An agent outside a workspace has none.
import type { ClusterWriter } from '../store/cluster.ts';
import type { PlatformAgent } from '../../crds/generated/types.ts';
import { effectiveManifest, type EffectiveManifest } from '../../policy/access-manifest.ts';

type TierReader = Pick<ClusterWriter, 'readWorkspace' | 'readOrganization'>;

export async function agentAccessManifest(
  read: TierReader,
  agent: PlatformAgent,
): Promise<EffectiveManifest> {
  const wsName = agent.spec.workspace;
  const ws = wsName ? await read.readWorkspace(agent.metadata.namespace ?? '', wsName) : undefined;
  const orgName = ws?.spec.organization;
  const org = orgName ? await read.readOrganization(orgName) : undefined;
  return effectiveManifest(org?.spec.accessManifest, ws?.spec.accessManifest);
}
