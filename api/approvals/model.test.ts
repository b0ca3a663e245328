import { describe, expect, it } from 'vitest';
import type { Owner } from '../policy/roles.ts';
import {
  approversFor,
  approvalView,
  decisionRefusal,
  findPending,
  newApproval,
  type ApprovalInput,
} from './model.ts';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const owners: Owner[] = [
  { subject: 'olivia', role: 'Owner' },
  { subject: 'oscar', role: 'Owner' },
  { subject: 'eddie', role: 'Editor' },
];

function request(
  requestedBy: string,
  agentOwners: readonly Owner[] = owners,
  extra: Partial<ApprovalInput> = {},
) {
  return newApproval(
    {
      namespace: 'team-a',
      agent: 'bot',
      action: 'delete',
      target: 'platformagents/team-a/bot',
      operation: 'agent.delete',
      requestedBy,
      approvers: approversFor(agentOwners, requestedBy),
      ...extra,
    },
    NOW,
    3_600_000,
  );
}

describe('who decides an approval', () => {
  it('records the agent’s Owners at request time, without the requester', () => {
    expect(request('olivia').spec.approvers).toEqual(['oscar']);
    expect(request('eddie').spec.approvers).toEqual(['olivia', 'oscar']);
    expect(approvalView(request('eddie'), NOW)).toMatchObject({
      requested_by: 'eddie',
      approvers: ['olivia', 'oscar'],
    });
  });

  it('refuses the requester, even an Owner', () => {
    expect(decisionRefusal(request('olivia'), 'olivia')).toMatchObject({ code: 'own_request' });
    expect(decisionRefusal(request('olivia'), 'oscar')).toBeUndefined();
  });

  it('refuses a subject who became Owner after the request (an administrator sharing to itself)', () => {
    const a = request('eddie');
    expect(decisionRefusal(a, 'wanda-admin')).toMatchObject({ code: 'not_an_approver' });
    expect(decisionRefusal(a, 'olivia')).toBeUndefined();
  });

  it('lets nobody decide a request that recorded no approvers (made before they were recorded)', () => {
    const a = request('eddie');
    delete a.spec.approvers;
    expect(decisionRefusal(a, 'olivia')).toMatchObject({ code: 'not_an_approver' });
  });
});

describe('a repeated request', () => {
  const input = {
    namespace: 'team-a',
    agent: 'bot',
    action: 'delete' as const,
    target: 'platformagents/team-a/bot',
    operation: 'agent.delete' as const,
  };

  it('finds the pending request while one of its approvers is still an Owner', () => {
    const a = request('eddie');
    expect(findPending([a], input, owners, NOW)).toBe(a);
    expect(findPending([a], { ...input, operation: 'external' }, owners, NOW)).toBeUndefined();
  });

  it('ignores a pending request none of whose approvers is an Owner any more', () => {
    const a = request('olivia');
    const oscarLeft = owners.filter((o) => o.subject !== 'oscar');
    expect(findPending([a], input, oscarLeft, NOW)).toBeUndefined();
  });
});
