// The Access Manifest that governs one agent (decision 140), read fresh from
// the apiserver (a refusal must not rest on a stale cache): its workspace's
// narrowing its Organization's. An agent outside a workspace has none.
import type { ClusterWriter } from '../store/cluster.ts';
import type { PlatformAgent } from '../../crds/generated/types.ts';
import {
  effectiveManifest,
  type AccessManifest,
  type Bounds,
  type EffectiveManifest,
} from '../../policy/access-manifest.ts';

type TierReader = Pick<ClusterWriter, 'readWorkspace' | 'readOrganization'>;

/** The two tiers an agent's manifest is made of, as their owners wrote them. */
export interface ManifestTiers {
  workspace?: { name: string; manifest?: AccessManifest };
  organization?: { name: string; manifest?: AccessManifest };
}

export async function agentManifestTiers(read: TierReader, agent: PlatformAgent): Promise<ManifestTiers> {
  const wsName = agent.spec.workspace;
  const ws = wsName ? await read.readWorkspace(agent.metadata.namespace ?? '', wsName) : undefined;
  const orgName = ws?.spec.organization;
  const org = orgName ? await read.readOrganization(orgName) : undefined;
  return {
    ...(ws && wsName ? { workspace: { name: wsName, manifest: ws.spec.accessManifest } } : {}),
    ...(org && orgName ? { organization: { name: orgName, manifest: org.spec.accessManifest } } : {}),
  };
}

export async function agentAccessManifest(
  read: TierReader,
  agent: PlatformAgent,
): Promise<EffectiveManifest> {
  const tiers = await agentManifestTiers(read, agent);
  return effectiveManifest(tiers.organization?.manifest, tiers.workspace?.manifest);
}

const boundsView = (b: Bounds) => ({ allowed: b.allow, denied: b.deny });

/**
 * The effective manifest for a reader: each `allowed` is a list of lists, one
 * per tier that restricts (a value must be in every one); `null` account:
 * delegation is bounded by the platform only.
 */
export function manifestView(m: EffectiveManifest) {
  const services = m.account
    ? [...m.account.values()].map((t) => ({
        service: t.service,
        allowed_scopes: t.scopes.allow,
        denied_scopes: t.scopes.deny,
        max_delegation_ttl_seconds: t.maxDelegationTtlMs / 1000,
        consent_required: t.consentRequired,
      }))
    : undefined;
  return {
    account: services ? { services } : null,
    tools: boundsView(m.tools),
    network: boundsView(m.network),
    data: boundsView(m.data),
    actions: { approval_required: m.actions.approvalRequired, denied: m.actions.denied },
  };
}
