// Who may open a shell, checked in the REST order before the upgrade is
// answered: the request's shape (subprotocols, query), the caller (401, the
// same authenticators as REST, the token also from a subprotocol), the agent
// (400 malformed id, 404 unknown, read fresh: a removed Owner is refused at
// once), the policy (`agent.console.shell`: Owners only, 403) and a running
// pod (409 `agent_not_running`). Each step throws the HttpError it answers.
import type { IncomingMessage } from 'node:http';
import type { PlatformAgent } from '../agents/model.ts';
import type { AgentName } from '../../contract/agent-id.ts';
import { parseAgentId } from '../agents/model.ts';
import type { Principal } from '../auth/principal.ts';
import { badRequest, forbidden, notFound } from '../../base/http-error.ts';
import { assertClean, paramsProblem } from '../../base/hygiene.ts';
import { can, POLICY } from '../policy/roles.ts';
import { callerOf, type Executor } from '../routes/execute.ts';
import type { ApiDeps } from '../routes/route.ts';
import { SHELL_ACTION } from './control-actions.ts';
import { authorizationOf, parseSubprotocols, subprotocolProblem } from './protocol.ts';

export const SHELL_PATH_RE = /^\/v1\/agents\/([^/]+)\/console\/shell$/;

export interface ShellRequest {
  agentId: string;
  tty: boolean;
  authorization: string;
  query: Record<string, string>;
}

const TTY_VALUES: Record<string, boolean> = { '1': true, true: true, '0': false, false: false };

function queryOf(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (k in query)
      throw badRequest(`query parameter ${k.slice(0, 40)} given more than once`, 'invalid_query');
    query[k] = v;
  }
  return query;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('the agent id is not valid percent-encoding', 'invalid_id');
  }
}

/** The request's shape: the agent id, `?tty`, the credential (header or subprotocol). Throws 400. */
export function readShellRequest(req: IncomingMessage): ShellRequest {
  const url = new URL(req.url ?? '/', 'http://shell.invalid');
  const match = SHELL_PATH_RE.exec(url.pathname);
  if (!match) throw notFound('no such path');
  const query = queryOf(url);
  const tty = TTY_VALUES[query.tty ?? '0'];
  if (tty === undefined) throw badRequest('tty: expected 1 or 0', 'invalid_query');
  const protocols = parseSubprotocols(req.headers['sec-websocket-protocol']);
  const problem = protocols.problem ?? subprotocolProblem(protocols.offered);
  if (problem) throw badRequest(problem, 'invalid_subprotocol');
  return {
    agentId: decoded(match[1]!),
    tty,
    query,
    authorization: authorizationOf(req.headers.authorization, protocols),
  };
}

/** The caller, 401 when unknown. */
export const shellCaller = (
  request: ShellRequest,
  ex: Pick<Executor, 'authenticators' | 'metrics'>,
): Promise<Principal> => callerOf(request.authorization, ex);

/** The agent the path names: 400 when its id (or the query) is malformed. */
export function shellAgentName(request: ShellRequest): AgentName {
  assertClean(paramsProblem('path', { agent_id: request.agentId }) ?? paramsProblem('query', request.query));
  return parseAgentId(request.agentId);
}

/** The agent the caller may open a shell in: 404 or 403 otherwise. */
export async function shellAgent(
  request: ShellRequest,
  principal: Principal,
  deps: Pick<ApiDeps, 'writer'>,
  found: (agent: PlatformAgent) => void,
): Promise<PlatformAgent> {
  const { namespace, name } = parseAgentId(request.agentId);
  const agent = await deps.writer.readAgent(namespace, name);
  if (!agent) throw notFound(`agent ${request.agentId} not found`);
  found(agent);
  const ref = { namespace, owners: agent.spec.owners ?? [] };
  if (!can(principal, SHELL_ACTION, ref))
    throw forbidden(
      `${SHELL_ACTION} on ${request.agentId} needs one of: ${POLICY[SHELL_ACTION].roles.join(', ')}`,
    );
  return agent;
}
