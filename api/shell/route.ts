// The shell's path in the route table: a WebSocket upgrade is served by the
// shell server (server.ts) before Koa sees it; a plain GET reaches this route,
// which authenticates and authorizes like any other and answers 426. So the
// path is in the OpenAPI document and the route × role matrix, and a plain
// GET is audited as an attempt like the rest.
import type { PlatformAgent } from '../agents/model.ts';
import type { RouteSpec } from '../routes/route.ts';
import { SHELL_ACTION } from './control-actions.ts';
import { SHELL_SUBPROTOCOL } from './protocol.ts';

const UPGRADE_REQUIRED = {
  type: 'object',
  required: ['detail', 'code'],
  properties: { detail: { type: 'string' }, code: { enum: ['upgrade_required'] } },
};

export const SHELL_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/agents/{agent_id}/console/shell',
    action: SHELL_ACTION,
    summary: `Interactive shell in the agent container (Owners only): a WebSocket upgrade, subprotocol ${SHELL_SUBPROTOCOL}; without one 426`,
    success: 426,
    response: UPGRADE_REQUIRED,
    query: { tty: '1 for a terminal (stdout and stderr merged), 0 or absent for plain pipes' },
    headers: { upgrade: 'websocket' },
    handle: (rc) => {
      const uid = (rc.agent as PlatformAgent).metadata.uid;
      if (uid) rc.audit.details = { agent_uid: uid, upgrade: false };
      return Promise.resolve({
        detail: `open this path as a WebSocket (subprotocol ${SHELL_SUBPROTOCOL})`,
        code: 'upgrade_required',
      });
    },
  },
];
