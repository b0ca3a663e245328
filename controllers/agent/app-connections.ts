// An agent's MCP tools and A2A connections, pure: from its installed catalog
// apps, the catalog, and the ScopedToolInstalls of its workspace and
// organization (required tools are pre-installed, blocked ones never listed).
// Written to `status.tools` and `status.a2aConnections` (decision 126).
import type {
  AgentInstalledApp,
  AppCatalogEntry,
  Organization,
  PlatformWorkspace,
  ScopedToolInstall,
} from '../../crds/generated/types.ts';
import { findApp, type CatalogApp } from '../../api/catalog/entries.ts';
import {
  a2aConnections,
  agentTools,
  type A2aConnection,
  type AgentTool,
} from '../../api/catalog/connections.ts';
import { toolRulings, type ToolTiers } from '../../api/catalog/tool-cascade.ts';
import { STATUS_LIST_MAX } from '../../crds/kinds/platform-agent.ts';
import type { PlatformAgent } from './types.ts';

export interface AgentConnections {
  tools: AgentTool[];
  a2aConnections: A2aConnection[];
}

export interface ConnectionSources {
  /** The agent's own installs. */
  installs: readonly AgentInstalledApp[];
  entries: readonly AppCatalogEntry[];
  toolInstalls: readonly ScopedToolInstall[];
}

export function toolTiers(
  agent: PlatformAgent,
  ws: PlatformWorkspace | undefined,
  org: Organization | undefined,
): ToolTiers {
  if (!ws?.metadata.name) return {};
  const workspace = { name: ws.metadata.name, namespace: agent.metadata.namespace ?? '' };
  const home = org?.spec.homeNamespace;
  return {
    workspace,
    ...(org?.metadata.name && home ? { org: { name: org.metadata.name, namespace: home } } : {}),
  };
}

export function agentConnections(
  agent: PlatformAgent,
  ws: PlatformWorkspace | undefined,
  org: Organization | undefined,
  { installs, entries, toolInstalls }: ConnectionSources,
): AgentConnections {
  const apps = installs
    .map((i) => findApp(i.spec.app, entries))
    .filter((a): a is CatalogApp => a !== undefined);
  const rulings = toolRulings(toolInstalls, toolTiers(agent, ws, org));
  return {
    tools: agentTools(apps, rulings, (id) => findApp(id, entries)).slice(0, STATUS_LIST_MAX),
    a2aConnections: a2aConnections(apps).slice(0, STATUS_LIST_MAX),
  };
}
