// Pure agent logic: ids, the API view, the share dialog's edits, the stale
// list and the access review. Handlers fetch, call these and write.
import type { PlatformAgent, PlatformAgentSpec } from '../../crds/generated/types.ts';
import { badRequest, notFound, unprocessable } from '../../base/http-error.ts';
import type { Owner } from '../policy/roles.ts';
import { agentIdOf, parseAgentId as parseId, type AgentName } from '../../contract/agent-id.ts';

export type { PlatformAgent };
export type ShareRole = Owner['role'];

/** The agent an id names; a malformed id is the client's 400. */
export function parseAgentId(id: string): AgentName {
  const agent = parseId(id);
  if (!agent) {
    throw badRequest(
      `invalid agent id ${JSON.stringify(id.slice(0, 80))}: expected <namespace>.<name>`,
      'invalid_id',
    );
  }
  return agent;
}

export interface AgentView {
  agent_id: string;
  namespace: string;
  name: string;
  phase: string;
  created_at?: string;
  spec: PlatformAgentSpec;
  status: Record<string, unknown>;
}

export function agentView(a: PlatformAgent): AgentView {
  return {
    agent_id: agentIdOf(a),
    namespace: a.metadata.namespace ?? '',
    name: a.metadata.name ?? '',
    phase: a.status?.phase ?? 'pending',
    ...(a.metadata.creationTimestamp ? { created_at: String(a.metadata.creationTimestamp) } : {}),
    spec: a.spec,
    status: (a.status ?? {}) as Record<string, unknown>,
  };
}

export const ownerCount = (owners: readonly Owner[] | undefined): number =>
  (owners ?? []).filter((o) => o.role === 'Owner').length;

/** Adds a share or changes its role. */
export function setShare(owners: readonly Owner[] | undefined, subject: string, role: ShareRole): Owner[] {
  const rest = (owners ?? []).filter((o) => o.subject !== subject);
  return [...rest, { subject, role }];
}

/** Removes a share; removing the last Owner is allowed (the controller suspends the agent). */
export function removeShare(owners: readonly Owner[] | undefined, subject: string): Owner[] {
  const list = owners ?? [];
  if (!list.some((o) => o.subject === subject)) throw notFound(`${subject} has no share on this agent`);
  return list.filter((o) => o.subject !== subject);
}

/** Whether an edit touches the Owner role (and so needs `agent.shares.write_owner`). */
export function touchesOwner(
  owners: readonly Owner[] | undefined,
  subject: string,
  newRole?: ShareRole,
): boolean {
  const current = (owners ?? []).find((o) => o.subject === subject)?.role;
  return current === 'Owner' || newRole === 'Owner';
}

/** Spec fields the general update may not change: each has its own operation. */
const RESERVED_FIELDS = ['owners', 'suspend'] as const;

/** Applies a JSON merge patch (RFC 7386) to the spec. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base =
    target && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete base[k];
    else base[k] = mergePatch(base[k], v);
  }
  return base;
}

export function updatedSpec(spec: PlatformAgentSpec, patch: Record<string, unknown>): PlatformAgentSpec {
  for (const field of RESERVED_FIELDS) {
    if (field in patch) {
      throw unprocessable(
        `spec.${field} cannot be changed by update; use ${field === 'owners' ? 'the shares endpoints' : 'suspend/reactivate'}`,
        'reserved_field',
      );
    }
  }
  return mergePatch(spec, patch) as PlatformAgentSpec;
}

export function requireOwnerOnCreate(spec: PlatformAgentSpec): void {
  if (ownerCount(spec.owners) === 0) {
    throw unprocessable('spec.owners needs at least one entry with role Owner', 'owner_required');
  }
}

const DAY_MS = 86_400_000;

export function lastActivityMs(a: PlatformAgent): number {
  const t = a.status?.lastActivityTime ?? a.metadata.creationTimestamp;
  return t ? Date.parse(String(t)) : 0;
}

export interface StaleEntry {
  agent_id: string;
  last_activity: string | null;
  idle_days: number;
  phase: string;
  owners: number;
}

export function staleList(agents: Iterable<PlatformAgent>, days: number, nowMs: number): StaleEntry[] {
  const out: StaleEntry[] = [];
  for (const a of agents) {
    const last = lastActivityMs(a);
    const idleDays = Math.floor((nowMs - last) / DAY_MS);
    if (idleDays < days) continue;
    out.push({
      agent_id: agentIdOf(a),
      last_activity: last > 0 ? new Date(last).toISOString() : null,
      idle_days: idleDays,
      phase: a.status?.phase ?? 'pending',
      owners: ownerCount(a.spec.owners),
    });
  }
  return out.sort((x, y) => y.idle_days - x.idle_days || x.agent_id.localeCompare(y.agent_id));
}

export interface AccessReview {
  agent_id: string;
  reviewed_at: string;
  shares: Owner[];
  counts: Record<ShareRole, number>;
  findings: string[];
}

export function accessReview(a: PlatformAgent, nowMs: number, staleDays = 30): AccessReview {
  const shares = [...(a.spec.owners ?? [])];
  const counts = { Owner: 0, Editor: 0, Viewer: 0 };
  for (const s of shares) counts[s.role]++;
  const findings: string[] = [];
  if (counts.Owner === 0) findings.push('no Owner: the agent is suspended until an Owner is added');
  if (counts.Owner === 1)
    findings.push('a single Owner: add a second Owner so approvals do not depend on one person');
  if (counts.Editor > counts.Owner * 5)
    findings.push('many Editors per Owner: review whether each still needs access');
  const idle = Math.floor((nowMs - lastActivityMs(a)) / DAY_MS);
  if (idle >= staleDays) findings.push(`no activity for ${idle} days: consider suspending the agent`);
  if (a.spec.suspend) findings.push('suspended on request');
  return { agent_id: agentIdOf(a), reviewed_at: new Date(nowMs).toISOString(), shares, counts, findings };
}
