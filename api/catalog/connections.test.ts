import { describe, expect, it } from 'vitest';
import type { AppCatalogEntry, ScopedToolInstall } from '../../crds/generated/types.ts';
import { entryApp, type CatalogApp } from './entries.ts';
import { a2aConnections, agentTools } from './connections.ts';
import { tierNamespaces, toolRulings, type ToolTiers } from './tool-cascade.ts';

const app = (name: string, spec: Partial<AppCatalogEntry['spec']> = {}): CatalogApp =>
  entryApp({
    apiVersion: 'platform.io/v1alpha1',
    kind: 'AppCatalogEntry',
    metadata: { name },
    spec: { displayName: name, category: 'MCP Servers', type: 'mcp_server', ...spec },
  });

/** A ScopedToolInstall `at` `<namespace>/<scope>:<scopeId>`. */
const tool = (
  at: string,
  name: string,
  enforcement: 'available' | 'required' | 'blocked',
): ScopedToolInstall => {
  const [namespace = '', tier = ''] = at.split('/');
  const [scope = '', scopeId = ''] = tier.split(':');
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'ScopedToolInstall',
    metadata: { name: `${scopeId}-${name}`, namespace },
    spec: { scope: scope as 'org' | 'workspace', scopeId, tool: name, enforcement },
  };
};

const tiers: ToolTiers = {
  org: { name: 'acme', namespace: 'acme-home' },
  workspace: { name: 'ws', namespace: 'team' },
};

describe('the tool cascade', () => {
  it('keeps the strictest ruling per tool of the tiers above the agent, ignoring other tiers', () => {
    const rulings = toolRulings(
      [
        tool('acme-home/org:acme', 'github', 'available'),
        tool('team/workspace:ws', 'github', 'blocked'),
        tool('acme-home/org:acme', 'jira', 'required'),
        tool('team/workspace:ws', 'jira', 'available'),
        tool('other/org:acme', 'slack', 'blocked'), // not the org's home namespace
        tool('team/workspace:other-ws', 'linear', 'blocked'),
      ],
      tiers,
    );
    expect(Object.fromEntries([...rulings].map(([k, r]) => [k, `${r.enforcement}@${r.scope}`]))).toEqual({
      github: 'blocked@workspace',
      jira: 'required@org',
    });
    expect(toolRulings([tool('team/workspace:ws', 'x', 'blocked')], {}).size).toBe(0);
    expect(tierNamespaces({ org: { name: 'a', namespace: 'team' }, workspace: tiers.workspace })).toEqual([
      'team',
    ]);
  });
});

describe("an agent's tools and A2A connections", () => {
  const github = app('github', { serverUrl: 'https://mcp.github.example/' });
  const jira = app('jira', { serverUrl: 'https://mcp.jira.example/' });
  const planner = app('planner', {
    type: 'a2a_agent',
    category: 'A2A Agents',
    serverUrl: 'https://a2a.example/',
  });
  const scanner = app('scanner', { type: 'auditor', category: 'Auditors', auditorId: 'scan' });
  const catalog = new Map([github, jira, planner, scanner].map((a) => [a.app_id, a]));

  it('lists installed MCP servers and required tools, never a blocked one', () => {
    const rulings = toolRulings(
      [tool('acme-home/org:acme', 'jira', 'required'), tool('team/workspace:ws', 'blocked-one', 'blocked')],
      tiers,
    );
    const blockedApp = app('blocked-one');
    expect(agentTools([github, scanner, planner, blockedApp], rulings, (id) => catalog.get(id))).toEqual([
      { name: 'github', serverUrl: 'https://mcp.github.example/', source: 'app', app: 'github' },
      { name: 'jira', serverUrl: 'https://mcp.jira.example/', source: 'org', app: 'jira' },
    ]);
    // A required tool the agent installed itself is listed once, as its install.
    expect(agentTools([jira], rulings, (id) => catalog.get(id)).map((t) => t.source)).toEqual(['app']);
  });

  it('lists installed A2A agents as connections', () => {
    expect(a2aConnections([github, planner, scanner])).toEqual([
      { name: 'planner', app: 'planner', url: 'https://a2a.example/' },
    ]);
  });
});
