import { describe, expect, it } from 'vitest';
import { leavesNoOwner, relativeTime, searchAgents, ttlProblem, type AgentView } from './model.ts';

const agent = (id: string, owners: string[], trustTier?: string): AgentView => ({
  agent_id: id,
  namespace: id.split('.')[0]!,
  name: id.split('.')[1]!,
  phase: 'running',
  spec: { owners: owners.map((subject) => ({ subject, role: 'Owner' })) },
  status: trustTier ? { trustTier } : {},
});

describe('searchAgents', () => {
  const agents = [
    agent('a.release-bot', ['olivia@example.com'], 'mtls_verified'),
    agent('b.triage', ['sam@x']),
  ];
  it('matches every word against id, owners, phase and tier', () => {
    expect(searchAgents(agents, 'release').map((a) => a.agent_id)).toEqual(['a.release-bot']);
    expect(searchAgents(agents, 'OLIVIA mtls').map((a) => a.agent_id)).toEqual(['a.release-bot']);
    expect(searchAgents(agents, 'olivia sam')).toEqual([]);
    expect(searchAgents(agents, '  ')).toHaveLength(2);
  });
});

describe('leavesNoOwner', () => {
  const shares = [
    { subject: 'o', role: 'Owner' as const },
    { subject: 'e', role: 'Editor' as const },
  ];
  it('warns on removing or demoting the last Owner only', () => {
    expect(leavesNoOwner(shares, 'o')).toBe(true);
    expect(leavesNoOwner(shares, 'o', 'Viewer')).toBe(true);
    expect(leavesNoOwner(shares, 'e')).toBe(false);
    expect(leavesNoOwner([...shares, { subject: 'p', role: 'Owner' }], 'o')).toBe(false);
    expect(leavesNoOwner([{ subject: 'e', role: 'Editor' }], 'e')).toBe(false);
  });
});

describe('relativeTime and ttlProblem', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it('say how far a time is', () => {
    expect(relativeTime('2030-01-01T02:05:00Z', now)).toBe('in 2 h 5 min');
    expect(relativeTime('2029-12-31T23:57:00Z', now)).toBe('3 min ago');
    expect(relativeTime(null, now)).toBe('unknown');
  });
  it('accept the API durations only', () => {
    expect(ttlProblem('8h')).toBeUndefined();
    expect(ttlProblem('0h')).toMatch(/30m or 8h/);
    expect(ttlProblem('2 days')).toMatch(/30m or 8h/);
  });
});
