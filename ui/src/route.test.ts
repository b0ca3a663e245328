import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute } from './route.ts';

describe('routes', () => {
  it('parse every page and round-trip through hrefOf', () => {
    for (const hash of [
      '#/agents',
      '#/agents/new',
      '#/agents/team-a.release-bot',
      '#/agents/team-a.release-bot/console',
      '#/approvals',
      '#/approvals/delegations',
      '#/login',
      '#/catalog',
      '#/definitions',
      '#/definitions/user-context',
      '#/settings',
      '#/settings/org/acme',
      '#/settings/workspace/team-a/ws',
      '#/settings/agent/team-a.release-bot',
      '#/credentials',
      '#/credentials/org/acme',
      '#/credentials/workspace/team-a/ws',
      '#/credentials/agent/team-a.release-bot',
    ])
      expect(hrefOf(parseRoute(hash))).toBe(hash);
  });

  it('default to the agent list and refuse what is not an agent id', () => {
    expect(parseRoute('')).toEqual({ page: 'agents' });
    expect(parseRoute('#/')).toEqual({ page: 'agents' });
    expect(parseRoute('#/agents/no-dot')).toEqual({ page: 'not-found', path: '/agents/no-dot' });
    expect(parseRoute('#/agents/a.b/c')).toEqual({ page: 'not-found', path: '/agents/a.b/c' });
    expect(parseRoute('#/agents/a.b/console')).toEqual({ page: 'console', id: 'a.b' });
    expect(parseRoute('#/agents/no-dot/console').page).toBe('not-found');
  });

  it('name a settings tier, and refuse a malformed one', () => {
    expect(parseRoute('#/settings/workspace/team-a/ws')).toEqual({
      page: 'settings',
      target: { scope: 'workspace', namespace: 'team-a', workspace: 'ws' },
    });
    expect(parseRoute('#/settings/agent/no-dot').page).toBe('not-found');
    expect(parseRoute('#/settings/org/Bad_Name').page).toBe('not-found');
    expect(parseRoute('#/settings/cluster/x').page).toBe('not-found');
  });
});
