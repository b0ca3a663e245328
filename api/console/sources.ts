// What each source contributes to the console stream, as pure conversions:
// a stored Evidence (the Gateway's chain decision on one model call, and the
// errors of auditors it could not reach), a data-access record (a tool call
// through the credential proxy), a pending ApprovalRequest or ConsentRequest,
// and a line of the agent container's log. Each event's key is fixed by its
// source, so every replica publishing the same thing stores it once.
import type { ApprovalRequest, ConsentRequest } from '../../crds/generated/types.ts';
import type { ConsoleEventInput, Severity } from '../../contract/console.ts';
import { SUBAGENT_PATTERN } from '../../contract/console.ts';
import type { StoredEvidence } from '../../evidence/store.ts';
import type { StoredAccess } from '../../accesses/store.ts';
import { approvalView } from '../approvals/model.ts';

const SUBAGENT_RE = new RegExp(SUBAGENT_PATTERN);

/** A subagent name as a source carried it; anything else is not attributed. */
export const subagentOf = (value: unknown): string | null =>
  typeof value === 'string' && SUBAGENT_RE.test(value) ? value : null;

type Base = Pick<ConsoleEventInput, 'agent_id' | 'subagent' | 'timestamp'>;

const event = (
  base: Base,
  rest: Omit<ConsoleEventInput, keyof Base | 'auditor' | 'auditors'> &
    Partial<Pick<ConsoleEventInput, 'auditor' | 'auditors'>>,
): ConsoleEventInput => ({ auditor: null, auditors: [], ...base, ...rest });

function decisionSeverity(e: StoredEvidence['evidence']): Severity {
  if (e.blocked) return 'error';
  return e.decision === 'deny' ? 'warning' : 'info';
}

/** A boolean `…detected` claim that is true: what a refusal is about. */
const detects = (c: { name: string; value?: unknown }): boolean =>
  /detected$/.test(c.name) && c.value === true;

/**
 * The auditor a decision is about: on a deny, the first in the chain that
 * contributed a true `…detected` claim, else one a reason names (a policy id
 * such as `injection-block`); the only auditor of a one-auditor chain.
 */
function decidingAuditor(e: StoredEvidence['evidence']): string | null {
  if (e.decision === 'deny') {
    const detected = new Set(e.claims.filter(detects).map((c) => c.name));
    const byClaim = e.auditors.find((a) => a.claims.some((c) => detected.has(c)));
    if (byClaim) return byClaim.auditor_id;
    const byReason = e.auditors.find((a) => e.decision_reasons.some((r) => r.includes(a.auditor_id)));
    if (byReason) return byReason.auditor_id;
  }
  return e.auditors.length === 1 ? (e.auditors[0]?.auditor_id ?? null) : null;
}

/** One Evidence: the model call, the chain's decision on it, and an error per auditor that failed. */
export function evidenceEvents(stored: StoredEvidence): ConsoleEventInput[] {
  const e = stored.evidence;
  const base: Base = {
    agent_id: stored.agent_id,
    subagent: subagentOf((e as { subagent?: unknown }).subagent),
    timestamp: e.generated_at,
  };
  const auditors = e.auditors.map((a) => a.auditor_id);
  const call = {
    evidence_id: e.evidence_id,
    trace_id: e.trace_id,
    phase: e.phase,
    model: e.model_id ?? null,
  };
  const out = [
    event(base, {
      type: 'model_call',
      severity: 'info',
      auditors,
      payload: { ...call, user_id: e.user_id ?? null, blocked: e.blocked },
      key: `evidence:${e.evidence_id}:model_call`,
    }),
    event(base, {
      type: 'chain_decision',
      severity: decisionSeverity(e),
      auditor: decidingAuditor(e),
      auditors,
      payload: {
        ...call,
        decision: e.decision,
        blocked: e.blocked,
        audit_mode: e.audit_mode,
        reasons: e.decision_reasons,
        policy_id: e.policy_id,
        claims: e.claims.map((c) => c.name),
        trust_tier: stored.result.trust_tier ?? null,
      },
      key: `evidence:${e.evidence_id}:decision`,
    }),
  ];
  for (const a of e.auditors.filter((x) => x.status === 'error')) {
    out.push(
      event(base, {
        type: 'error',
        severity: 'error',
        auditor: a.auditor_id,
        auditors: [a.auditor_id],
        payload: { ...call, source: 'auditor', error: a.error ?? null, attempts: a.attempts },
        key: `evidence:${e.evidence_id}:error:${a.auditor_id}`,
      }),
    );
  }
  return out;
}

const ACCESS_SEVERITY: Record<string, Severity> = {
  forwarded: 'info',
  denied: 'warning',
  approval_denied: 'warning',
  approval_timeout: 'warning',
  upstream_error: 'error',
};

/** One data-access record: a tool call the credential proxy saw (never its credential: the record has none). */
export function accessEvent(stored: StoredAccess): ConsoleEventInput {
  const a = stored.access;
  return event(
    {
      agent_id: stored.agent_id,
      subagent: subagentOf((a as { subagent?: unknown }).subagent),
      timestamp: a.at,
    },
    {
      type: 'tool_call',
      severity: ACCESS_SEVERITY[a.outcome] ?? 'info',
      payload: {
        access_seq: stored.seq,
        kind: a.kind,
        method: a.method,
        action: a.action,
        destination: a.destination,
        path: a.path,
        status: a.status,
        outcome: a.outcome,
        reason: a.reason,
        service: a.service,
        injection_method: a.injection_method,
        approval_id: a.approval_id,
        duration_ms: a.duration_ms,
      },
      key: `access:${stored.agent_uid}:${stored.seq}`,
    },
  );
}

/** A pending ApprovalRequest: an Owner's decision is needed. */
export function approvalEvent(a: ApprovalRequest, nowMs: number): ConsoleEventInput {
  const view = approvalView(a, nowMs);
  return event(
    {
      agent_id: String(view.agent_id),
      subagent: subagentOf(a.spec.details?.subagent),
      timestamp: String(view.requested_at ?? new Date(nowMs).toISOString()),
    },
    {
      type: 'approval_requested',
      severity: 'warning',
      payload: { kind: 'approval', ...view },
      key: `approval:${a.metadata.uid ?? view.id}`,
    },
  );
}

/** A pending ConsentRequest: the user is asked to delegate access (the spec's consent card). */
export function consentEvent(c: ConsentRequest, nowMs: number): ConsoleEventInput {
  const created = c.metadata.creationTimestamp;
  return event(
    {
      agent_id: `${c.metadata.namespace}.${c.spec.agent}`,
      subagent: null,
      timestamp: created ? String(created) : new Date(nowMs).toISOString(),
    },
    {
      type: 'approval_requested',
      severity: 'info',
      payload: {
        kind: 'consent',
        // The consent's id as the delegation routes name it.
        id: c.metadata.name,
        user: c.spec.user,
        service: c.spec.service,
        scopes: c.spec.scopes,
        ttl: c.spec.ttl ?? null,
        reason: c.spec.reason ?? null,
      },
      key: `consent:${c.metadata.uid ?? c.metadata.name}`,
    },
  );
}

/** The longest log line kept; the rest is cut and said so. */
export const MAX_LOG_LINE = 8192;

const LEVELS: Record<string, Severity> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warn: 'warning',
  warning: 'warning',
  error: 'error',
  err: 'error',
  fatal: 'critical',
  critical: 'critical',
  panic: 'critical',
};
/** pino's numeric levels. */
const PINO_LEVELS: [min: number, severity: Severity][] = [
  [60, 'critical'],
  [50, 'error'],
  [40, 'warning'],
  [30, 'info'],
  [0, 'debug'],
];

/** A JSON log line's own level (`level`, `severity`, pino's numbers), else info. */
export function logLineSeverity(line: string): Severity {
  if (!line.startsWith('{')) return 'info';
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return 'info';
  }
  const record = parsed as { level?: unknown; severity?: unknown };
  const level = record.level ?? record.severity;
  if (typeof level === 'number') return PINO_LEVELS.find(([min]) => level >= min)?.[1] ?? 'info';
  if (typeof level !== 'string') return 'info';
  return LEVELS[level.toLowerCase()] ?? 'info';
}

export interface LogLine {
  agentId: string;
  pod: string;
  podUid: string;
  container: string;
  /** The kubelet's RFC 3339 timestamp of the line (`timestamps=true`). */
  timestamp: string;
  text: string;
  /** Lines with the same timestamp are told apart by their order. */
  ordinal: number;
}

export function logEvent(l: LogLine): ConsoleEventInput {
  const cut = l.text.length > MAX_LOG_LINE;
  return event(
    { agent_id: l.agentId, subagent: null, timestamp: l.timestamp },
    {
      type: 'log',
      severity: logLineSeverity(l.text),
      payload: {
        pod: l.pod,
        container: l.container,
        line: cut ? l.text.slice(0, MAX_LOG_LINE) : l.text,
        ...(cut ? { truncated: true } : {}),
      },
      key: `log:${l.podUid}:${l.container}:${l.timestamp}:${l.ordinal}`,
    },
  );
}
