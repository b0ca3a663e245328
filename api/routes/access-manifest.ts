// GET /v1/agents/{agent_id}/access-manifest: the Access Manifest that governs
// the agent (decisions 139, 140), as each tier wrote it and as they combine.
// The agent's credential proxy reads it with the agent's Gateway key to
// enforce the network domain; people sharing the agent read it to see why a
// request was refused.
import type { PlatformAgent } from '../agents/model.ts';
import { assertGatewayServes } from '../delegations/model.ts';
import { agentManifestTiers, manifestView } from '../delegations/agent-manifest.ts';
import { effectiveManifest } from '../../policy/access-manifest.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { ACCESS_MANIFEST } from './responses.ts';

async function readManifest(rc: RouteCtx): Promise<unknown> {
  const agent = rc.agent as PlatformAgent;
  const agentId = `${agent.metadata.namespace}.${agent.metadata.name}`;
  assertGatewayServes(rc.principal, agentId);
  const tiers = await agentManifestTiers(rc.deps.writer, agent);
  const tierView = (t?: { name: string; manifest?: unknown }) =>
    t ? { name: t.name, access_manifest: t.manifest ?? null } : null;
  return {
    agent_id: agentId,
    organization: tierView(tiers.organization),
    workspace: tierView(tiers.workspace),
    effective: manifestView(effectiveManifest(tiers.organization?.manifest, tiers.workspace?.manifest)),
  };
}

export const ACCESS_MANIFEST_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/agents/{agent_id}/access-manifest',
    action: 'agent.access_manifest.read',
    summary: "The Access Manifest governing the agent: its organization's and workspace's, and combined",
    success: 200,
    response: ACCESS_MANIFEST,
    handle: readManifest,
  },
];
