// The passport's `control_actions`: the agent's shell sessions and refused
// attempts, from the audit log. The commands typed are shown only to a caller
// who may open the shell (decision 179).
import type { PlatformAgent } from '../agents/model.ts';
import type { Principal } from '../auth/principal.ts';
import { can } from '../policy/roles.ts';
import type { ApiDeps } from '../routes/route.ts';
import {
  controlActionsFrom,
  PASSPORT_CONTROL_ACTIONS,
  SHELL_ACTION,
  type ControlAction,
} from './control-actions.ts';

export async function shellControlActions(
  deps: Pick<ApiDeps, 'audit'>,
  agent: PlatformAgent,
  viewer: Principal,
): Promise<ControlAction[]> {
  const namespace = agent.metadata.namespace ?? '';
  const entries = await deps.audit.query({
    action: SHELL_ACTION,
    resource: `${namespace}.${agent.metadata.name}`,
    namespace,
    // A session leaves two entries (start, end); room for both of each, and for a predecessor's.
    limit: PASSPORT_CONTROL_ACTIONS * 4,
  });
  const showCommands = can(viewer, SHELL_ACTION, { namespace, owners: agent.spec.owners ?? [] });
  return controlActionsFrom(entries, agent.metadata.uid ?? '', showCommands);
}
