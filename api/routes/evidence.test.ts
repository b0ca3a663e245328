import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/principal.ts';
import { gatewayScopeProblem } from './evidence.ts';

const gateway = (over: Partial<Principal> = {}): Principal => ({
  subject: 'gateway:team.bot',
  method: 'api_key',
  orgAdmin: false,
  workspaceAdminOf: [],
  gateway: true,
  ...over,
});

describe('gatewayScopeProblem', () => {
  it('lets an unlimited gateway key submit for any agent', () => {
    expect(gatewayScopeProblem(gateway(), 'any.agent')).toBe('');
  });

  it('limits a workspace key to its namespaces and an agent-bound key to its own agent', () => {
    const minted = gateway({ gatewayWorkspaces: ['team'], gatewayAgents: ['team.bot'] });
    expect(gatewayScopeProblem(minted, 'team.bot')).toBe('');
    expect(gatewayScopeProblem(minted, 'team.other')).toBe(
      'this gateway key submits Evidence only for agent team.bot',
    );
    expect(gatewayScopeProblem(minted, 'elsewhere.bot')).toBe(
      'this gateway key submits Evidence only for workspaces team',
    );
  });

  it('leaves a missing agent id to the Evidence validation', () => {
    expect(gatewayScopeProblem(gateway({ gatewayAgents: ['team.bot'] }), undefined)).toBe('');
  });
});
