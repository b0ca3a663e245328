// Agent identity, pure: the SPIFFE ID, and the email and handle an agent may
// claim. Email and handle are unique across the agents the operator sees: an
// agent keeps what it already holds (status), a newcomer asking for a taken
// one gets a conflict and nothing is overwritten; between two newcomers the
// older agent (creation time, then namespace/name) wins.
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import type { PlatformAgent } from './types.ts';
import { agentIdOf } from '../../contract/agent-id.ts';

export const CONDITION_IDENTITY_CONFLICT = 'IdentityConflict';

export function spiffeId(trustDomain: string, agent: PlatformAgent): string {
  return `spiffe://${trustDomain}/agent/${agentIdOf(agent)}`;
}

/** The email and handle the agent asks for: its spec, else derived from its id. */
export function wantedIdentity(agent: PlatformAgent, emailDomain: string): { email: string; handle: string } {
  const name = agent.metadata?.name ?? '';
  const namespace = agent.metadata?.namespace ?? '';
  const handle =
    agent.spec?.handle ??
    agentIdOf(agent)
      .slice(0, 63)
      .replace(/[^a-z0-9]+$/, '');
  return { email: agent.spec?.email ?? `${name}.${namespace}@${emailDomain}`, handle };
}

export interface IdentityClaim {
  email?: string;
  handle?: string;
  conflicts: string[];
}

type Field = 'email' | 'handle';

const keyOf = (a: PlatformAgent): string => `${a.metadata?.namespace}/${a.metadata?.name}`;
/** Creation time in ms whether the client gave a Date or an RFC 3339 string. */
const createdMs = (a: PlatformAgent): number => {
  const t = a.metadata.creationTimestamp as Date | string | undefined;
  const ms = t === undefined ? NaN : new Date(t).getTime();
  return Number.isNaN(ms) ? Number.MAX_SAFE_INTEGER : ms;
};
const olderThan = (a: PlatformAgent, b: PlatformAgent): boolean => {
  const ta = createdMs(a);
  const tb = createdMs(b);
  return ta !== tb ? ta < tb : keyOf(a) < keyOf(b);
};

/** The agent that holds, or has the older claim on, `field` = `value` (an email or a handle). */
function holder(
  { field, value }: { field: Field; value: string },
  agent: PlatformAgent,
  others: readonly PlatformAgent[],
  emailDomain: string,
): PlatformAgent | undefined {
  const rivals = others.filter((o) => keyOf(o) !== keyOf(agent));
  const held = rivals.find((o) => o.status?.[field] === value);
  if (held) return held;
  if (agent.status?.[field] === value) return undefined;
  return rivals.find(
    (o) => !o.status?.[field] && wantedIdentity(o, emailDomain)[field] === value && olderThan(o, agent),
  );
}

/** What `agent` may hold; a clash keeps the previous value and reports who holds the wanted one. */
export function claimIdentity(
  agent: PlatformAgent,
  others: readonly PlatformAgent[],
  emailDomain: string,
): IdentityClaim {
  const wanted = wantedIdentity(agent, emailDomain);
  const claim: IdentityClaim = { conflicts: [] };
  for (const field of ['email', 'handle'] as const) {
    const taken = holder({ field, value: wanted[field] }, agent, others, emailDomain);
    if (taken) {
      claim.conflicts.push(`${field} ${wanted[field]} is already held by agent ${agentIdOf(taken)}`);
      const previous = agent.status?.[field];
      if (previous) claim[field] = previous;
    } else {
      claim[field] = wanted[field];
    }
  }
  return claim;
}

export function identityCondition(claim: IdentityClaim): DesiredCondition {
  if (claim.conflicts.length === 0) {
    return {
      type: CONDITION_IDENTITY_CONFLICT,
      status: 'False',
      reason: 'Unique',
      message: 'email and handle are unique',
    };
  }
  const reason = claim.conflicts.every((c) => c.startsWith('handle'))
    ? 'HandleTaken'
    : claim.conflicts.every((c) => c.startsWith('email'))
      ? 'EmailTaken'
      : 'EmailAndHandleTaken';
  return {
    type: CONDITION_IDENTITY_CONFLICT,
    status: 'True',
    reason,
    message: `${claim.conflicts.join('; ')}; choose another and the agent keeps its identity until then`,
  };
}
