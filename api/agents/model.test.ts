import { describe, expect, it } from 'vitest';
import { HttpError } from '../../base/http-error.ts';
import {
  accessReview,
  mergePatch,
  parseAgentId,
  removeShare,
  setShare,
  staleList,
  touchesOwner,
  updatedSpec,
  type PlatformAgent,
} from './model.ts';

const agent = (name: string, lastActivityTime?: string): PlatformAgent => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformAgent',
  metadata: { namespace: 'ns', name, creationTimestamp: '2024-01-01T00:00:00Z' as never },
  spec: { owners: [{ subject: 'o', role: 'Owner' }] },
  ...(lastActivityTime ? { status: { lastActivityTime } } : {}),
});

describe('agent ids', () => {
  it('split at the first dot', () => {
    expect(parseAgentId('team.agent.v2')).toEqual({ namespace: 'team', name: 'agent.v2' });
  });
  it.each(['..', 'nodot', '.x', 'ns.', 'ns../etc', 'NS.a', 'ns.a/b', `ns.${'a'.repeat(300)}`])(
    'rejects %s with 400',
    (id) => {
      expect(() => parseAgentId(id)).toThrow(HttpError);
    },
  );
});

describe('the share dialog', () => {
  it('adds, changes and removes shares', () => {
    const owners = setShare([{ subject: 'o', role: 'Owner' }], 'v', 'Viewer');
    expect(setShare(owners, 'v', 'Editor')).toEqual([
      { subject: 'o', role: 'Owner' },
      { subject: 'v', role: 'Editor' },
    ]);
    expect(removeShare(owners, 'o')).toEqual([{ subject: 'v', role: 'Viewer' }]);
    expect(() => removeShare(owners, 'nobody')).toThrow(/no share/);
  });
  it('knows which edits touch the Owner role', () => {
    const owners = [{ subject: 'o', role: 'Owner' as const }];
    expect(touchesOwner(owners, 'o')).toBe(true);
    expect(touchesOwner(owners, 'x', 'Owner')).toBe(true);
    expect(touchesOwner(owners, 'x', 'Viewer')).toBe(false);
  });
});

describe('updates', () => {
  it('merge-patch the spec and refuse owners and suspend', () => {
    expect(mergePatch({ a: { b: 1, c: 2 } }, { a: { b: null, d: 3 } })).toEqual({ a: { c: 2, d: 3 } });
    expect(() => updatedSpec({}, { owners: [] })).toThrow(/shares/);
    expect(() => updatedSpec({}, { suspend: false })).toThrow(/suspend/);
  });
});

describe('stale list and access review', () => {
  const now = Date.parse('2024-03-01T00:00:00Z');
  it('lists agents idle for at least `days`, oldest first', () => {
    const list = staleList(
      [agent('new', '2024-02-28T00:00:00Z'), agent('old'), agent('mid', '2024-02-01T00:00:00Z')],
      20,
      now,
    );
    expect(list.map((e) => e.agent_id)).toEqual(['ns.old', 'ns.mid']);
  });
  it('reports a single Owner and idleness', () => {
    expect(accessReview(agent('old'), now).findings).toEqual([
      expect.stringContaining('single Owner'),
      expect.stringContaining('no activity for 60 days'),
    ]);
  });
});
