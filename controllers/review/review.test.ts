import { describe, expect, it } from 'vitest';
import type { PlatformAgent } from '../agent/types.ts';
import { accessReview } from './access-review.ts';
import { staleAgents, staleVerdict } from './stale.ts';

const agent = (
  extra: Partial<PlatformAgent['spec']> = {},
  status?: PlatformAgent['status'],
): PlatformAgent => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformAgent',
  metadata: {
    name: 'bot',
    namespace: 'team',
    generation: 1,
    creationTimestamp: new Date('2026-01-01T00:00:00Z'),
  },
  spec: { owners: [{ subject: 'alice@example.com', role: 'Owner' }], ...extra },
  ...(status ? { status } : {}),
});

const DAY_MS = 86_400_000;

describe('staleVerdict', () => {
  it('is not stale within the period and says when it will be', () => {
    const v = staleVerdict(
      agent({}, { lastActivityTime: '2026-01-10T00:00:00Z' }),
      new Date('2026-01-11T00:00:00Z'),
      3 * DAY_MS,
    );
    expect(v).toMatchObject({ stale: false, becomesStaleInMs: 2 * DAY_MS, condition: { status: 'False' } });
  });

  it('is stale when neither evidence nor proxied access happened for the period', () => {
    const v = staleVerdict(agent(), new Date('2026-02-01T00:00:00Z'), 30 * DAY_MS);
    expect(v.stale).toBe(true);
    expect(v.condition).toMatchObject({ status: 'True', reason: 'NoRecentActivity' });
    expect(v.condition.message).toContain('2026-01-01T00:00:00.000Z');
  });

  it('counts the last attestation as activity and lists stale agents oldest first', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    const attested = agent({}, { passport: { lastAttestationTime: '2026-02-28T00:00:00Z' } });
    expect(staleVerdict(attested, now, 7 * DAY_MS).stale).toBe(false);
    const older = {
      ...agent(),
      metadata: { ...agent().metadata, name: 'old', creationTimestamp: new Date('2025-01-01T00:00:00Z') },
    };
    expect(staleAgents([agent(), attested, older], now, 7 * DAY_MS).map((a) => a.metadata.name)).toEqual([
      'old',
      'bot',
    ]);
  });
});

describe('accessReview', () => {
  it('lists what the agent can reach and who granted each, with blocked tools apart', () => {
    const a = agent({
      environment: {
        credentialRouting: [
          { destination: 'api.github.com', credentialRef: 'gh', injectionMethod: 'sidecar' },
        ],
      },
    });
    const review = accessReview({
      agent: a,
      orgId: 'acme',
      workspaceId: 'team',
      grants: [
        {
          apiVersion: 'platform.io/v1alpha1',
          kind: 'DelegationGrant',
          metadata: { name: 'g1' },
          spec: {
            user: 'bob@example.com',
            agent: 'bot',
            service: 'slack',
            scopes: ['chat:write'],
            grantedAt: 't0',
            expiresAt: 't1',
          },
          status: { phase: 'active' },
        },
        {
          apiVersion: 'platform.io/v1alpha1',
          kind: 'DelegationGrant',
          metadata: { name: 'g2' },
          spec: {
            user: 'bob@example.com',
            agent: 'bot',
            service: 'mail',
            scopes: ['send'],
            grantedAt: 't0',
            expiresAt: 't1',
          },
          status: { phase: 'revoked' },
        },
      ],
      credentials: [
        {
          apiVersion: 'platform.io/v1alpha1',
          kind: 'ScopedCredential',
          metadata: { name: 'jira' },
          spec: { scope: 'org', scopeId: 'acme', service: 'jira', type: 'api_key', sharingMode: 'enforce' },
        },
        {
          apiVersion: 'platform.io/v1alpha1',
          kind: 'ScopedCredential',
          metadata: { name: 'other' },
          spec: { scope: 'workspace', scopeId: 'elsewhere', service: 'x', type: 'api_key' },
        },
      ],
      toolInstalls: [
        {
          apiVersion: 'platform.io/v1alpha1',
          kind: 'ScopedToolInstall',
          metadata: { name: 't1' },
          spec: { scope: 'workspace', scopeId: 'team', tool: 'github', enforcement: 'required' },
        },
        {
          apiVersion: 'platform.io/v1alpha1',
          kind: 'ScopedToolInstall',
          metadata: { name: 't2' },
          spec: { scope: 'org', scopeId: 'acme', tool: 'shell', enforcement: 'blocked' },
        },
      ],
    });
    expect(review.agentId).toBe('team.bot');
    expect(review.entries.map((e) => [e.kind, e.target, e.grantedBy])).toEqual([
      ['delegation', 'slack', 'bob@example.com'],
      ['credential', 'api.github.com', 'alice@example.com'],
      ['credential', 'jira', 'org:acme'],
      ['tool', 'github', 'workspace:team'],
    ]);
    expect(review.blockedTools).toEqual([{ tool: 'shell', blockedBy: 'org:acme' }]);
  });
});
