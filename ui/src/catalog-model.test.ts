import { describe, expect, it } from 'vitest';
import { agentNameProblem, byCategory, toInstall, wizardTools, type CatalogApp } from './catalog-model.ts';

const app = (app_id: string, category: string, name = app_id): CatalogApp => ({
  app_id,
  name,
  category,
  type: 'mcp_server',
  trust_tier: 'basic',
  builtin: false,
  install_count: 0,
});

describe('catalog', () => {
  it('groups by category in the catalog order, names sorted', () => {
    const groups = byCategory([
      app('z', 'Auditors'),
      app('b', 'MCP Servers'),
      app('a', 'MCP Servers'),
      app('q', 'Other'),
    ]);
    expect(groups.map(([c, l]) => [c, l.map((a) => a.app_id)])).toEqual([
      ['MCP Servers', ['a', 'b']],
      ['Auditors', ['z']],
      ['Other', ['q']],
    ]);
  });

  it('the wizard hides blocked tools and marks required ones (blocked > required > available)', () => {
    const tools = wizardTools(
      [
        app('jira', 'MCP Servers'),
        app('wiki', 'MCP Servers'),
        app('banned', 'MCP Servers'),
        app('free', 'Skills'),
      ],
      [
        { tool: 'jira', state: 'required', scope: 'org', scope_id: 'acme' },
        { tool: 'wiki', state: 'available', scope: 'workspace', scope_id: 'team.ws' },
        { tool: 'banned', state: 'blocked', scope: 'workspace', scope_id: 'team.ws' },
      ],
    );
    expect(tools.map((t) => [t.app_id, t.requiredBy])).toEqual([
      ['jira', 'organization acme'],
      ['wiki', undefined],
      ['free', undefined],
    ]);
    expect(toInstall(tools, new Set(['free']))).toEqual(['jira', 'free']);
    expect(toInstall(tools, new Set(['banned']))).toEqual(['jira']);
  });

  it('checks an agent name as Kubernetes does', () => {
    expect(agentNameProblem('release-bot')).toBe('');
    expect(agentNameProblem('')).toBe('Enter a name.');
    expect(agentNameProblem('Release_Bot')).toMatch(/Lower-case/);
    expect(agentNameProblem('a'.repeat(64))).toBe('At most 63 characters.');
  });
});
