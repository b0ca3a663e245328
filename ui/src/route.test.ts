import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute } from './route.ts';

describe('routes', () => {
  it('parse every page and round-trip through hrefOf', () => {
    for (const hash of [
      '#/agents',
      '#/agents/team-a.release-bot',
      '#/approvals',
      '#/approvals/delegations',
      '#/login',
    ])
      expect(hrefOf(parseRoute(hash))).toBe(hash);
  });

  it('default to the agent list and refuse what is not an agent id', () => {
    expect(parseRoute('')).toEqual({ page: 'agents' });
    expect(parseRoute('#/')).toEqual({ page: 'agents' });
    expect(parseRoute('#/agents/no-dot')).toEqual({ page: 'not-found', path: '/agents/no-dot' });
    expect(parseRoute('#/agents/a.b/c')).toEqual({ page: 'not-found', path: '/agents/a.b/c' });
  });
});
