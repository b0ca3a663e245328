// Stale detection, pure: an agent's activity is its last evidence (the
// passport's last attestation) or proxied access (`status.lastActivityTime`),
// else its creation. Without activity for `staleAfterMs` it is Stale; until
// then the reconciler requeues at the moment it would become stale.
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import type { PlatformAgent } from '../agent/types.ts';

export const CONDITION_STALE = 'Stale';

export function lastActivityMs(agent: PlatformAgent): number | undefined {
  const times = [
    agent.status?.lastActivityTime,
    agent.status?.passport?.lastAttestationTime,
    agent.metadata.creationTimestamp as Date | string | undefined,
  ]
    .filter((t): t is string | Date => t !== undefined && t !== '')
    .map((t) => new Date(t).getTime())
    .filter((ms) => !Number.isNaN(ms));
  return times.length > 0 ? Math.max(...times) : undefined;
}

export interface StaleVerdict {
  stale: boolean;
  /** Milliseconds until the agent becomes stale (undefined once stale or unknown). */
  becomesStaleInMs?: number;
  condition: DesiredCondition;
}

export function staleVerdict(agent: PlatformAgent, now: Date, staleAfterMs: number): StaleVerdict {
  const last = lastActivityMs(agent);
  if (last === undefined) {
    return {
      stale: false,
      condition: { type: CONDITION_STALE, status: 'Unknown', reason: 'NoActivityRecorded' },
    };
  }
  const idleMs = now.getTime() - last;
  const since = new Date(last).toISOString();
  if (idleMs >= staleAfterMs) {
    return {
      stale: true,
      condition: {
        type: CONDITION_STALE,
        status: 'True',
        reason: 'NoRecentActivity',
        message: `no evidence or proxied access since ${since} (limit ${Math.round(staleAfterMs / 1000)} s); review its access or remove it`,
      },
    };
  }
  return {
    stale: false,
    becomesStaleInMs: staleAfterMs - idleMs,
    condition: { type: CONDITION_STALE, status: 'False', reason: 'RecentActivity' },
  };
}

/** The stale agents among `agents` (for `/v1/agents/stale`), oldest activity first. */
export function staleAgents(
  agents: readonly PlatformAgent[],
  now: Date,
  staleAfterMs: number,
): PlatformAgent[] {
  return agents
    .filter((a) => staleVerdict(a, now, staleAfterMs).stale)
    .sort((a, b) => (lastActivityMs(a) ?? 0) - (lastActivityMs(b) ?? 0));
}
