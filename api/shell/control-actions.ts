// The passport's control actions: the agent's console shell sessions and the
// attempts refused, read back from the audit log (one entry when a session
// starts, one when it ends, both under the session's request id; one for a
// refusal). Who sees the commands typed is decision 179. Pure.
import type { AuditEntry } from '../audit/log.ts';

export const SHELL_ACTION = 'agent.console.shell';
/** Control actions the passport shows. */
export const PASSPORT_CONTROL_ACTIONS = 20;

export interface ControlAction {
  action: typeof SHELL_ACTION;
  session_id: string;
  subject: string;
  /** When the session started, or the attempt was refused. */
  time: string;
  outcome: AuditEntry['outcome'];
  status: number;
  /** Null for a refusal, or a session still open (or cut off by a crash). */
  ended_at: string | null;
  duration_ms: number | null;
  exit_code: number | null;
  /** Lines sent to the shell, those past the recorded 200 included. */
  commands_count: number;
  /** The lines themselves: only for callers who may open the shell themselves (decision 179). */
  commands?: string[];
}

interface SessionDetails {
  agent_uid?: unknown;
  started_at?: unknown;
  ended_at?: unknown;
  duration_ms?: unknown;
  exit_code?: unknown;
  commands?: unknown;
  commands_omitted?: unknown;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

function controlActionOf(e: AuditEntry, showCommands: boolean): ControlAction {
  const d = (e.details ?? {}) as SessionDetails;
  const commands = strings(d.commands);
  return {
    action: SHELL_ACTION,
    session_id: e.requestId,
    subject: e.subject,
    time: str(d.started_at) ?? e.time,
    outcome: e.outcome,
    status: e.status,
    ended_at: str(d.ended_at),
    duration_ms: num(d.duration_ms),
    exit_code: num(d.exit_code),
    commands_count: commands.length + (num(d.commands_omitted) ?? 0),
    ...(showCommands ? { commands } : {}),
  };
}

/**
 * The newest `limit` control actions of an agent from its shell audit
 * entries (newest first): a session's end entry stands for it, its start
 * entry only while there is none. Entries recorded for an earlier agent of
 * the same name (another uid) are left out.
 */
export function controlActionsFrom(
  entries: readonly AuditEntry[],
  agentUid: string,
  showCommands: boolean,
  limit = PASSPORT_CONTROL_ACTIONS,
): ControlAction[] {
  const seen = new Set<string>();
  const out: ControlAction[] = [];
  for (const e of entries) {
    const uid = (e.details as SessionDetails | undefined)?.agent_uid;
    if (e.action !== SHELL_ACTION || (typeof uid === 'string' && uid !== agentUid)) continue;
    if (seen.has(e.requestId)) continue;
    seen.add(e.requestId);
    out.push(controlActionOf(e, showCommands));
    if (out.length === limit) break;
  }
  return out;
}
