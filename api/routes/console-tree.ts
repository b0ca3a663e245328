// The console's subagent tree (spec: Console, "subagent tree (name, status,
// current task, resource usage per node; drill-down to logs)"): the agent and
// each of its subagents, composed from the agent, its pod and the agent's
// recent console events. Viewers and above read it.
import { seqOf, type ConsoleEvent, type ConsoleLog } from '../../contract/console.ts';
import type { PlatformAgent } from '../agents/model.ts';
import { agentIdOf } from '../../contract/agent-id.ts';
import { subagentTree } from '../console/tree.ts';
import { SUBAGENT_TREE } from './console-tree-responses.ts';
import type { RouteCtx, RouteSpec } from './route.ts';

/** The newest events the tree is composed from (the per-agent buffer holds about this many). */
export const TREE_EVENTS = 1000;
/** Pages read at most, when the buffer holds more than TREE_EVENTS (pruning lags behind appends). */
const MAX_PAGES = 5;

/** The agent's newest TREE_EVENTS events, oldest first. */
export async function recentEvents(log: ConsoleLog, agentId: string): Promise<ConsoleEvent[]> {
  let kept: ConsoleEvent[] = [];
  let after = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { events } = await log.readAgent(agentId, after, TREE_EVENTS);
    kept = [...kept, ...events].slice(-TREE_EVENTS);
    if (events.length < TREE_EVENTS) break;
    after = seqOf(events.at(-1) as ConsoleEvent);
  }
  return kept;
}

async function tree(rc: RouteCtx): Promise<unknown> {
  const agent = rc.agent as PlatformAgent;
  const [pod, events] = await Promise.all([
    rc.deps.podUsage.summary(agent.metadata.namespace ?? '', agent.metadata.name ?? ''),
    recentEvents(rc.deps.console, agentIdOf(agent)),
  ]);
  return subagentTree({ agent, pod, events, nowMs: rc.deps.now() });
}

export const CONSOLE_TREE_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/agents/{agent_id}/console/subagents',
    action: 'agent.console.read',
    summary:
      "The subagent tree: the agent (its pod's status and CPU and memory use) and each subagent (status, current task, recent activity), each with the link to its events",
    success: 200,
    response: SUBAGENT_TREE,
    handle: tree,
  },
];
