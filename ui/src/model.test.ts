import { describe, expect, it } from 'vitest';
import {
  accessOf,
  leavesNoOwner,
  relativeTime,
  searchAgents,
  statusOf,
  ttlProblem,
  type AgentView,
} from './model.ts';

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

describe('statusOf', () => {
  const ready = (status: string) => ({ conditions: [{ type: 'Ready', status }] });
  it('adds Ready as the cluster reports it, except for a suspended agent', () => {
    expect(statusOf({ phase: 'running', status: ready('True') })).toBe('running · ready');
    expect(statusOf({ phase: 'pending', status: ready('False') })).toBe('pending · not ready');
    expect(statusOf({ phase: 'suspended', status: ready('False') })).toBe('suspended');
    expect(statusOf({ phase: 'pending', status: {} })).toBe('pending');
  });
  it('lets the search find ready agents', () => {
    const live = { ...agent('a.bot', ['o']), status: ready('True') };
    expect(searchAgents([live, agent('b.other', ['o'])], 'ready')).toEqual([live]);
  });
});

describe('accessOf', () => {
  const who = (subject: string, org_admin = false, workspace_admin_of: string[] = []) => ({
    subject,
    method: 'api_key',
    org_admin,
    workspace_admin_of,
  });
  const shares = [
    { subject: 'o@x', role: 'Owner' as const },
    { subject: 'e@x', role: 'Editor' as const },
    { subject: 'v@x', role: 'Viewer' as const },
  ];
  it('lets Owners, Editors and administrators change the agent, and a Viewer only see it', () => {
    expect(accessOf(who('o@x'), shares, 'ns')).toEqual({ role: 'Owner', mayChange: true });
    expect(accessOf(who('e@x'), shares, 'ns')).toEqual({ role: 'Editor', mayChange: true });
    expect(accessOf(who('v@x'), shares, 'ns')).toEqual({ role: 'Viewer', mayChange: false });
    expect(accessOf(who('admin', true), shares, 'ns')).toEqual({ mayChange: true });
    expect(accessOf(who('wa', false, ['ns']), shares, 'ns')).toEqual({ mayChange: true });
    expect(accessOf(who('wa', false, ['other']), shares, 'ns')).toEqual({ mayChange: false });
  });
});
