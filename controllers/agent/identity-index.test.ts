import { describe, expect, it } from 'vitest';
import { IdentityIndex } from './identity-index.ts';
import type { PlatformAgent } from './types.ts';

const agent = (name: string, email?: string, held?: string): PlatformAgent => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformAgent',
  metadata: { name, namespace: 'team' },
  spec: email ? { email } : {},
  ...(held ? { status: { email: held } } : {}),
});

describe('IdentityIndex', () => {
  it('finds only the agents naming the same email or handle, and forgets removed ones', () => {
    const all = new Map<string, PlatformAgent>();
    const index = new IdentityIndex('d', (k) => all.get(k));
    const add = (a: PlatformAgent) => {
      all.set(`team/${a.metadata.name}`, a);
      index.upsert(a);
    };
    add(agent('a', 'x@e.com', 'x@e.com'));
    add(agent('b', 'x@e.com'));
    add(agent('c', 'y@e.com'));
    expect(index.rivals(agent('b', 'x@e.com')).map((a) => a.metadata.name)).toEqual(['a']);
    index.remove(all.get('team/a')!);
    all.delete('team/a');
    expect(index.rivals(agent('c', 'x@e.com')).map((a) => a.metadata.name)).toEqual(['b']);
  });
});
