// Which tier a scoped-credential or scoped-tool request names, and whether the
// caller may read or change it (decision 151): the org tier is an
// Organization (org admins write; any administrator reads), a workspace tier
// a PlatformWorkspace (administrators of its namespace and org admins);
// `effective` is for whoever may see the agent. Malformed or unknown names
// are the client's 4xx, never the apiserver's error.
import { parseAgentId, type PlatformAgent } from '../agents/model.ts';
import { badRequest, forbidden, HttpError, notFound, unprocessable } from '../../base/http-error.ts';
import { can, type Action } from '../policy/roles.ts';
import type { RouteCtx } from '../routes/route.ts';
import { agentTiers } from '../catalog/agent-tiers.ts';
import type { CascadeTiers } from './credential-cascade.ts';
import { parseObjectId, parseWorkspaceScopeId, type CascadeScope, type ScopePlace } from './objects.ts';

const SCOPES: readonly string[] = ['org', 'workspace'];
const ORG_NAME_RE = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

const ACTIONS: Record<CascadeScope, { read: Action; write: Action }> = {
  org: { read: 'scoped.read_org', write: 'scoped.write_org' },
  workspace: { read: 'scoped.read_workspace', write: 'scoped.write_workspace' },
};

export function scopeOf(value: string | undefined): CascadeScope {
  if (value === undefined) throw badRequest('scope is required: org or workspace', 'invalid_query');
  if (!SCOPES.includes(value)) {
    throw unprocessable(
      `unknown scope ${JSON.stringify(value.slice(0, 40))}: expected org or workspace`,
      'unknown_scope',
    );
  }
  return value as CascadeScope;
}

/** Refuses (403) a caller who may not read or write the tier `place` names. */
export function checkTier(
  rc: RouteCtx,
  place: Pick<ScopePlace, 'scope' | 'namespace'>,
  write: boolean,
): void {
  const action = ACTIONS[place.scope][write ? 'write' : 'read'];
  const target = place.scope === 'workspace' ? { namespace: place.namespace } : undefined;
  if (!can(rc.principal, action, target)) {
    const what =
      place.scope === 'org' ? 'the org tier' : `the workspace tier of namespace ${place.namespace}`;
    throw forbidden(`${rc.principal.subject} may not ${write ? 'change' : 'read'} ${what}`);
  }
}

async function orgPlace(rc: RouteCtx, name: string, write: boolean): Promise<ScopePlace> {
  if (!ORG_NAME_RE.test(name)) throw unprocessable('scope_id: not an organization name', 'invalid_scope_id');
  checkTier(rc, { scope: 'org', namespace: '' }, write);
  const org = await rc.deps.writer.readOrganization(name);
  if (!org) throw notFound(`organization ${name} not found`);
  const home = org.spec.homeNamespace;
  if (!home)
    throw unprocessable(
      `organization ${name} has no homeNamespace to hold org-tier objects`,
      'org_without_home',
    );
  return { scope: 'org', name, namespace: home };
}

async function workspacePlace(rc: RouteCtx, id: string, write: boolean): Promise<ScopePlace> {
  const ws = parseWorkspaceScopeId(id);
  if (!ws)
    throw unprocessable('scope_id: expected <namespace>.<workspace> for scope workspace', 'invalid_scope_id');
  checkTier(rc, { scope: 'workspace', namespace: ws.namespace }, write);
  if (!(await rc.deps.writer.readWorkspace(ws.namespace, ws.name))) {
    throw notFound(`workspace ${ws.namespace}/${ws.name} not found`);
  }
  return { scope: 'workspace', name: ws.name, namespace: ws.namespace };
}

/** The tier `scope` and `scope_id` name, after the caller's access to it is checked. */
export async function placeFor(
  rc: RouteCtx,
  scope: CascadeScope,
  scopeId: string,
  write: boolean,
): Promise<ScopePlace> {
  const place = await (scope === 'org' ? orgPlace(rc, scopeId, write) : workspacePlace(rc, scopeId, write));
  rc.audit = { resource: `${scope}:${scopeId}`, namespace: place.namespace };
  return place;
}

/** The namespace and name an `{id}` path parameter names; a malformed id names nothing (404). */
export function objectName(id: string, what: string): { namespace: string; name: string } {
  const parsed = parseObjectId(id);
  if (!parsed) throw notFound(`${what} ${JSON.stringify(id.slice(0, 80))} not found`);
  return parsed;
}

/** The agent `?agent_id=` names, read fresh, if the caller may see it; with the tiers above it. */
export async function agentForQuery(
  rc: RouteCtx,
): Promise<{ agent: PlatformAgent; id: string; tiers: CascadeTiers }> {
  const id = rc.query.agent_id;
  if (!id) throw badRequest('query agent_id is required', 'invalid_query');
  const { namespace, name } = parseAgentId(id);
  rc.audit = { resource: id, namespace };
  const agent = await rc.deps.writer.readAgent(namespace, name);
  if (!agent) throw notFound(`agent ${id} not found`);
  if (!can(rc.principal, 'agent.read', { namespace, owners: agent.spec.owners ?? [] })) {
    throw new HttpError(403, `${rc.principal.subject} may not see agent ${id}`, 'forbidden');
  }
  return { agent, id, tiers: await agentTiers(rc.deps.writer, agent) };
}
