// What an agent's installed apps connect it to, pure (decision 126): its MCP
// tools (installed `mcp_server` apps, plus the tools its org or workspace
// require, which are pre-installed) and its A2A connections (installed
// `a2a_agent` apps). A tool blocked above the agent is never listed, even if
// an install of it predates the block. The agent controller writes both to
// the agent's status.
import type { CatalogApp } from './entries.ts';
import type { ToolRuling } from './tool-cascade.ts';

export interface AgentTool {
  name: string;
  serverUrl?: string;
  /** `app`: an install on the agent; `org` / `workspace`: required at that tier. */
  source: 'app' | 'org' | 'workspace';
  app?: string;
}

export interface A2aConnection {
  name: string;
  app: string;
  url?: string;
}

const byName = <T extends { name: string }>(a: T, b: T): number => a.name.localeCompare(b.name);

function appTool(app: CatalogApp): AgentTool {
  return {
    name: app.app_id,
    ...(app.server_url ? { serverUrl: app.server_url } : {}),
    source: 'app',
    app: app.app_id,
  };
}

function requiredTool(r: ToolRuling, app: CatalogApp | undefined): AgentTool {
  const serverUrl = r.serverUrl ?? app?.server_url ?? undefined;
  return {
    name: r.tool,
    ...(serverUrl ? { serverUrl } : {}),
    source: r.scope,
    ...(app ? { app: app.app_id } : {}),
  };
}

/**
 * The agent's MCP tools: its installed MCP server apps, then the tools the
 * tiers above require that it has not installed itself, by name.
 */
export function agentTools(
  installed: readonly CatalogApp[],
  rulings: ReadonlyMap<string, ToolRuling>,
  catalogApp: (id: string) => CatalogApp | undefined,
): AgentTool[] {
  const blocked = (id: string): boolean => rulings.get(id)?.enforcement === 'blocked';
  const own = installed.filter((a) => a.type === 'mcp_server' && !blocked(a.app_id)).map(appTool);
  const have = new Set(own.map((t) => t.name));
  const required = [...rulings.values()]
    .filter((r) => r.enforcement === 'required' && !have.has(r.tool))
    .map((r) => requiredTool(r, catalogApp(r.tool)));
  return [...own, ...required].sort(byName);
}

/** The agent's A2A connections: its installed A2A agent apps, by name. */
export function a2aConnections(installed: readonly CatalogApp[]): A2aConnection[] {
  return installed
    .filter((a) => a.type === 'a2a_agent')
    .map((a) => ({ name: a.app_id, app: a.app_id, ...(a.server_url ? { url: a.server_url } : {}) }))
    .sort(byName);
}
