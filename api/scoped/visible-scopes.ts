// Pure: which organizations and workspaces a caller may pick as a tier in the
// UI (settings, credentials, tools), and whether it may change each. Org
// administrators see every tier; a workspace administrator its namespaces'
// workspaces and their organizations; anyone else the tiers above the agents
// shared with them. Seeing a tier here grants nothing: each route re-checks.
import type { Principal } from '../auth/principal.ts';

export interface OrgFacts {
  name: string;
  homeNamespace?: string | undefined;
}
export interface WorkspaceFacts {
  namespace: string;
  name: string;
  organization?: string | undefined;
}
/** An agent the caller may see: its namespace and workspace name. */
export interface AgentPlace {
  namespace: string;
  workspace?: string | undefined;
}

export interface OrgScopeView {
  name: string;
  home_namespace: string | null;
  can_write: boolean;
}
export interface WorkspaceScopeView {
  namespace: string;
  name: string;
  /** `<namespace>.<workspace>`: the `scope_id` of the scoped-credential and scoped-tool routes. */
  scope_id: string;
  organization: string | null;
  can_write: boolean;
}
export interface VisibleScopes {
  organizations: OrgScopeView[];
  workspaces: WorkspaceScopeView[];
}

const byName = <T extends { name: string }>(a: T, b: T): number => a.name.localeCompare(b.name);

function workspaceVisible(p: Principal, ws: WorkspaceFacts, viaAgents: Set<string>): boolean {
  return (
    p.orgAdmin || p.workspaceAdminOf.includes(ws.namespace) || viaAgents.has(`${ws.namespace}/${ws.name}`)
  );
}

export function visibleScopes(
  p: Principal,
  orgs: readonly OrgFacts[],
  workspaces: readonly WorkspaceFacts[],
  agents: readonly AgentPlace[],
): VisibleScopes {
  const viaAgents = new Set(agents.flatMap((a) => (a.workspace ? [`${a.namespace}/${a.workspace}`] : [])));
  const seen = workspaces.filter((ws) => workspaceVisible(p, ws, viaAgents));
  const orgNames = new Set(seen.flatMap((ws) => (ws.organization ? [ws.organization] : [])));
  return {
    organizations: orgs
      .filter((o) => p.orgAdmin || orgNames.has(o.name))
      .map((o) => ({ name: o.name, home_namespace: o.homeNamespace ?? null, can_write: p.orgAdmin }))
      .sort(byName),
    workspaces: seen
      .map((ws) => ({
        namespace: ws.namespace,
        name: ws.name,
        scope_id: `${ws.namespace}.${ws.name}`,
        organization: ws.organization ?? null,
        can_write: p.orgAdmin || p.workspaceAdminOf.includes(ws.namespace),
      }))
      .sort((a, b) => a.scope_id.localeCompare(b.scope_id)),
  };
}
