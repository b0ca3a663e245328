import { describe, expect, it } from 'vitest';
import type { PlatformAgent } from '../agents/model.ts';
import type { Principal } from '../auth/principal.ts';
import { AgentIndex, MemoryCache, page } from './cache.ts';

const agent = (ns: string, name: string, subjects: string[]): PlatformAgent => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformAgent',
  metadata: { namespace: ns, name },
  spec: { owners: subjects.map((subject) => ({ subject, role: 'Viewer' as const })) },
});
const who = (subject: string, extra: Partial<Principal> = {}): Principal => ({
  subject,
  method: 'oidc',
  orgAdmin: false,
  workspaceAdminOf: [],
  ...extra,
});

describe('the agent index', () => {
  it('follows share changes and deletions', () => {
    const cache = new MemoryCache<PlatformAgent>();
    const index = new AgentIndex(cache);
    cache.set(agent('b', 'x', ['ann']));
    cache.set(agent('a', 'y', ['ann', 'bo']));
    expect(index.visibleKeys(who('ann'))).toEqual(['a/y', 'b/x']);
    cache.set(agent('a', 'y', ['bo']));
    expect(index.visibleKeys(who('ann'))).toEqual(['b/x']);
    cache.delete(agent('b', 'x', []));
    expect(index.visibleKeys(who('ann'))).toEqual([]);
    expect(index.visibleKeys(who('zed', { workspaceAdminOf: ['a'] }))).toEqual(['a/y']);
    expect(index.visibleKeys(who('zed', { orgAdmin: true }))).toEqual(['a/y']);
  });
});

describe('paging', () => {
  it('continues after the last key', () => {
    const keys = ['a', 'b', 'c', 'd', 'e'];
    expect(page(keys, 2)).toEqual({ items: ['a', 'b'], next: 'b' });
    expect(page(keys, 2, 'b')).toEqual({ items: ['c', 'd'], next: 'd' });
    expect(page(keys, 2, 'd')).toEqual({ items: ['e'] });
    expect(page(keys, 2, 'bb')).toEqual({ items: ['c', 'd'], next: 'd' });
  });
});
