// The org → workspace → agent credential cascade, pure (decision 149): which
// ScopedCredential applies to an agent for each service, and why the others
// do not. `inherit` is a default a lower tier may override, `enforce` is
// imposed on every tier below (an org enforce beats anything the workspace
// holds for that service, enforce included), `isolated` is never shared with
// a child scope (so never reaches an agent). The MCP tool install flow's
// step 2 asks `enforcedCredential`.
import type { ScopedCredential } from '../../crds/generated/types.ts';
import { tierOf, type ToolTiers } from '../catalog/tool-cascade.ts';

export type SharingMode = 'inherit' | 'enforce' | 'isolated';
export type AuthStatus = NonNullable<NonNullable<ScopedCredential['status']>['authStatus']>;

/** The tiers above one agent (the same as the tool cascade's). */
export type CascadeTiers = ToolTiers;

/** Why a credential of a tier above the agent does not apply to it. */
export type WithheldReason =
  /** `isolated`: not shared with child scopes. */
  | 'isolated'
  /** The organization enforces another credential for the service. */
  | 'enforced_above'
  /** An `inherit` default the workspace overrides with its own. */
  | 'overridden'
  /** Another credential of the same tier and service was chosen (only possible past the API). */
  | 'duplicate';

export interface EffectiveCredential {
  service: string;
  credential: ScopedCredential;
  /** Enforced by its tier: the agent must use it and cannot connect another. */
  enforced: boolean;
}

export interface WithheldCredential {
  credential: ScopedCredential;
  reason: WithheldReason;
}

export interface CredentialResolution {
  /** By service. */
  effective: Map<string, EffectiveCredential>;
  withheld: WithheldCredential[];
}

export const sharingModeOf = (c: ScopedCredential): SharingMode => c.spec.sharingMode ?? 'inherit';

/** Stored status, else what the record itself shows: material held → connected, an OAuth flow not run → pending. */
export const authStatusOf = (c: ScopedCredential): AuthStatus =>
  c.status?.authStatus ?? (c.spec.secretRef ? 'connected' : 'pending');

const MODE_RANK: Record<SharingMode, number> = { enforce: 0, inherit: 1, isolated: 2 };

/** Within one tier and service: enforce first, then the oldest, then by name (deterministic). */
function tierOrder(a: ScopedCredential, b: ScopedCredential): number {
  return (
    MODE_RANK[sharingModeOf(a)] - MODE_RANK[sharingModeOf(b)] ||
    String(a.metadata.creationTimestamp ?? '').localeCompare(String(b.metadata.creationTimestamp ?? '')) ||
    (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')
  );
}

interface TierPick {
  chosen?: ScopedCredential;
  withheld: WithheldCredential[];
}

/** The one credential a tier shares for a service, and what it holds but does not share. */
function pickInTier(creds: readonly ScopedCredential[]): TierPick {
  const withheld: WithheldCredential[] = [];
  let chosen: ScopedCredential | undefined;
  for (const c of [...creds].sort(tierOrder)) {
    if (sharingModeOf(c) === 'isolated') withheld.push({ credential: c, reason: 'isolated' });
    else if (chosen) withheld.push({ credential: c, reason: 'duplicate' });
    else chosen = c;
  }
  return { chosen, withheld };
}

/** One service's resolution: an org enforce wins, else the workspace's own, else the org default. */
function resolveService(org: TierPick, ws: TierPick): TierPick & { enforced: boolean } {
  const withheld = [...org.withheld, ...ws.withheld];
  const orgEnforces = org.chosen && sharingModeOf(org.chosen) === 'enforce';
  if (org.chosen && (orgEnforces || !ws.chosen)) {
    if (ws.chosen) withheld.push({ credential: ws.chosen, reason: 'enforced_above' });
    return { chosen: org.chosen, withheld, enforced: !!orgEnforces };
  }
  if (org.chosen) withheld.push({ credential: org.chosen, reason: 'overridden' });
  const enforced = !!ws.chosen && sharingModeOf(ws.chosen) === 'enforce';
  return { chosen: ws.chosen, withheld, enforced };
}

function byService(creds: readonly ScopedCredential[]): Map<string, ScopedCredential[]> {
  const out = new Map<string, ScopedCredential[]>();
  for (const c of creds) out.set(c.spec.service, [...(out.get(c.spec.service) ?? []), c]);
  return out;
}

/**
 * For each service, the credential that applies to an agent below `tiers`.
 * Credentials of other orgs, workspaces or namespaces are ignored.
 */
export function resolveCredentials(
  creds: readonly ScopedCredential[],
  tiers: CascadeTiers,
): CredentialResolution {
  const placed = creds.filter((c) => tierOf(c, tiers));
  const org = byService(placed.filter((c) => c.spec.scope === 'org'));
  const ws = byService(placed.filter((c) => c.spec.scope === 'workspace'));
  const effective = new Map<string, EffectiveCredential>();
  const withheld: WithheldCredential[] = [];
  for (const service of [...new Set([...org.keys(), ...ws.keys()])].sort()) {
    const r = resolveService(pickInTier(org.get(service) ?? []), pickInTier(ws.get(service) ?? []));
    withheld.push(...r.withheld);
    if (r.chosen) effective.set(service, { service, credential: r.chosen, enforced: r.enforced });
  }
  return { effective, withheld };
}

/** The credential enforced on the agent for `service` (install flow step 2), if any. */
export function enforcedCredential(
  resolution: CredentialResolution,
  service: string,
): EffectiveCredential | undefined {
  const e = resolution.effective.get(service);
  return e?.enforced ? e : undefined;
}

/**
 * Why a workspace may not hold a credential for `service`: its organization
 * enforces one (the two enforce modes would conflict; decision 149).
 * `orgCreds` are the org tier's credentials.
 */
export function workspaceCredentialRefusal(
  orgCreds: readonly ScopedCredential[],
  service: string,
): string | undefined {
  const enforced = orgCreds.find((c) => c.spec.service === service && sharingModeOf(c) === 'enforce');
  if (!enforced) return undefined;
  return `organization ${enforced.spec.scopeId} enforces its credential for service ${service}; a workspace cannot hold another (an org administrator may change its sharing mode)`;
}
