// The egress routes of an agent's credential proxy (issue 19). The bundle
// (contract A) is read with the agent's Gateway key every 30 s, and by the
// agent's sharers for the UI; it never holds a secret.
import type { PlatformAgent } from '../agents/model.ts';
import { assertGatewayServes } from '../delegations/model.ts';
import { agentIdOf, loadEgressBundle } from '../egress/load.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { EGRESS_BUNDLE } from './egress-responses.ts';

async function readBundle(rc: RouteCtx): Promise<unknown> {
  const agent = rc.agent as PlatformAgent;
  assertGatewayServes(rc.principal, agentIdOf(agent));
  return loadEgressBundle(rc.deps, agent);
}

export const EGRESS_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/agents/{agent_id}/egress',
    action: 'agent.egress.read',
    summary: "The agent's egress bundle: its credential routing rules, MCP servers and Cedar policy",
    success: 200,
    response: EGRESS_BUNDLE,
    handle: readBundle,
  },
];
