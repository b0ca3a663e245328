// The API's shapes as the UI reads them, and the pure decisions the pages
// make from them: search, owners, the last-Owner warning, durations.

export type ShareRole = 'Owner' | 'Editor' | 'Viewer';
export const SHARE_ROLES: readonly ShareRole[] = ['Owner', 'Editor', 'Viewer'];

export interface Share {
  subject: string;
  role: ShareRole;
}

export interface AgentView {
  agent_id: string;
  namespace: string;
  name: string;
  phase: string;
  spec: { owners?: Share[]; model?: { id?: string }; auditMode?: string };
  status: { trustTier?: string; phase?: string; conditions?: { type: string; status: string }[] };
}

export interface ShareList {
  agent_id: string;
  shares: Share[];
  owners: number;
  suspended_for_owners: boolean;
}

export interface Whoami {
  subject: string;
  method: string;
  org_admin: boolean;
  workspace_admin_of: string[];
}

export const ownersOf = (agent: Pick<AgentView, 'spec'>): string[] =>
  (agent.spec.owners ?? []).filter((o) => o.role === 'Owner').map((o) => o.subject);

export const trustTierOf = (agent: Pick<AgentView, 'status'>): string => agent.status.trustTier ?? 'none yet';

/**
 * The agent's phase as the cluster says it and, while it is not suspended and
 * the controller reports it, whether it is Ready: "running · ready",
 * "pending · not ready", "suspended".
 */
export function statusOf(agent: Pick<AgentView, 'phase' | 'status'>): string {
  const ready = agent.status.conditions?.find((c) => c.type === 'Ready');
  if (!ready || agent.phase === 'suspended') return agent.phase;
  return `${agent.phase} · ${ready.status === 'True' ? 'ready' : 'not ready'}`;
}

/**
 * The caller's share role on an agent, and whether they may change it (its
 * shares, its settings): an org admin, an admin of the agent's namespace, an
 * Owner or an Editor may; a Viewer only sees it (the API's `agent.update`).
 */
export function accessOf(
  who: Whoami,
  shares: readonly Share[],
  namespace: string,
): { role?: ShareRole; mayChange: boolean } {
  const role = shares.find((s) => s.subject === who.subject)?.role;
  const admin = who.org_admin || who.workspace_admin_of.includes(namespace);
  return { ...(role ? { role } : {}), mayChange: admin || role === 'Owner' || role === 'Editor' };
}

/** Agents whose id, status, owners or trust tier contain every word of `query` (case-insensitive). */
export function searchAgents(agents: readonly AgentView[], query: string): AgentView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...agents];
  return agents.filter((a) => {
    const text = [a.agent_id, statusOf(a), trustTierOf(a), ...(a.spec.owners ?? []).map((o) => o.subject)]
      .join(' ')
      .toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/**
 * Whether a change leaves the agent without an Owner (it is then suspended):
 * removing `subject` (`role` undefined) or giving it `role`.
 */
export function leavesNoOwner(shares: readonly Share[], subject: string, role?: ShareRole): boolean {
  const after = shares
    .filter((s) => s.subject !== subject)
    .concat(role ? [{ subject, role }] : [])
    .filter((s) => s.role === 'Owner');
  const before = shares.filter((s) => s.role === 'Owner');
  return before.length > 0 && after.length === 0;
}

/** "in 2 h 5 min", "3 min ago": how far `iso` is from `now`. */
export function relativeTime(iso: string | null | undefined, now: number): string {
  if (!iso) return 'unknown';
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return 'unknown';
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const h = Math.floor(minutes / 60);
  const span = h > 0 ? `${h} h${minutes % 60 ? ` ${minutes % 60} min` : ''}` : `${minutes} min`;
  if (minutes === 0) return 'now';
  return ms > 0 ? `in ${span}` : `${span} ago`;
}

/** A delegation duration as the API takes it (`90m`, `8h`), or the words saying why not. */
export function ttlProblem(ttl: string): string | undefined {
  if (/^[1-9][0-9]{0,5}[mh]$/.test(ttl.trim())) return undefined;
  return 'Enter a duration in minutes or hours, such as 30m or 8h.';
}
