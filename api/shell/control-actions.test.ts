import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../audit/log.ts';
import { controlActionsFrom, SHELL_ACTION } from './control-actions.ts';

let seq = 0;
const entry = (
  requestId: string,
  status: number,
  details: Record<string, unknown>,
  subject = 'o@x',
): AuditEntry => {
  seq += 1;
  return {
    seq,
    time: `2026-01-01T00:00:${String(seq).padStart(2, '0')}Z`,
    prevHash: '',
    hash: '',
    subject,
    method: 'api_key',
    action: SHELL_ACTION,
    resource: 'ns.a',
    namespace: 'ns',
    status,
    outcome: status === 101 ? 'allowed' : status === 403 ? 'denied' : 'failed',
    requestId,
    details,
  };
};

const ended = entry('s1', 101, {
  agent_uid: 'u1',
  phase: 'ended',
  started_at: '2026-01-01T00:00:00Z',
  ended_at: '2026-01-01T00:00:05Z',
  duration_ms: 5000,
  exit_code: 0,
  commands: ['echo hi', 'id -u'],
  commands_omitted: 3,
});
const started = entry('s1', 101, { agent_uid: 'u1', phase: 'started', started_at: '2026-01-01T00:00:00Z' });
const open = entry('s2', 101, { agent_uid: 'u1', phase: 'started', started_at: '2026-01-01T00:01:00Z' });
const refused = entry('s3', 403, { agent_uid: 'u1' }, 'e@x');
const predecessor = entry('s4', 101, { agent_uid: 'u0', phase: 'ended', commands: ['rm -rf /tmp/x'] });
// Newest first, as the audit log answers.
const log = [predecessor, refused, open, ended, started];

describe("the passport's control actions", () => {
  it('shows a session once, by its end entry, with its duration, exit code and command count', () => {
    const actions = controlActionsFrom(log, 'u1', true);
    expect(actions.map((a) => a.session_id)).toEqual(['s3', 's2', 's1']);
    expect(actions[2]).toMatchObject({
      subject: 'o@x',
      time: '2026-01-01T00:00:00Z',
      outcome: 'allowed',
      ended_at: '2026-01-01T00:00:05Z',
      duration_ms: 5000,
      exit_code: 0,
      commands_count: 5,
      commands: ['echo hi', 'id -u'],
    });
  });

  it('shows a session without an end entry as not ended, and a refusal with its status', () => {
    const [refusal, openSession] = controlActionsFrom(log, 'u1', true);
    expect(refusal).toMatchObject({
      subject: 'e@x',
      outcome: 'denied',
      status: 403,
      ended_at: null,
      commands_count: 0,
    });
    expect(openSession).toMatchObject({ ended_at: null, duration_ms: null, exit_code: null });
  });

  it('leaves out the commands for a caller who may not open the shell, and a predecessor’s sessions', () => {
    const actions = controlActionsFrom(log, 'u1', false);
    expect(actions.every((a) => a.commands === undefined)).toBe(true);
    expect(actions.find((a) => a.session_id === 's1')?.commands_count).toBe(5);
    expect(actions.some((a) => a.session_id === 's4')).toBe(false);
  });

  it('stops at the limit', () => {
    expect(controlActionsFrom(log, 'u1', true, 2)).toHaveLength(2);
  });
});
