// The org → workspace tiers of the tool cascade, pure: which ScopedToolInstalls
// concern an agent (org tier: in the Organization's home namespace, naming the
// org; workspace tier: in the agent's namespace, naming its workspace), and
// for each tool the strictest enforcement of the two tiers (decision 126).
import type { ScopedToolInstall } from '../../crds/generated/types.ts';

export type ToolEnforcement = 'available' | 'required' | 'blocked';

/** The tiers above one agent; a standalone agent (no workspace) has none. */
export interface ToolTiers {
  org?: { name: string; namespace: string };
  workspace?: { name: string; namespace: string };
}

export interface ToolRuling {
  tool: string;
  enforcement: ToolEnforcement;
  scope: 'org' | 'workspace';
  scopeId: string;
  serverUrl?: string;
}

const RANK: Record<ToolEnforcement, number> = { available: 0, required: 1, blocked: 2 };

/** What the tiers need of a scoped object (a ScopedToolInstall or a ScopedCredential). */
export interface TierPlaced {
  metadata: { namespace?: string };
  spec: { scope: string; scopeId: string };
}

/** The tier above the agent that `t` belongs to; undefined for another org's, workspace's or namespace's. */
export function tierOf(t: TierPlaced, tiers: ToolTiers): ToolTiers['org'] {
  const tier =
    t.spec.scope === 'org' ? tiers.org : t.spec.scope === 'workspace' ? tiers.workspace : undefined;
  return tier && tier.name === t.spec.scopeId && tier.namespace === t.metadata.namespace ? tier : undefined;
}

function rulingOf(t: ScopedToolInstall): ToolRuling {
  return {
    tool: t.spec.tool,
    enforcement: (t.spec.enforcement ?? 'available') as ToolEnforcement,
    scope: t.spec.scope as ToolRuling['scope'],
    scopeId: t.spec.scopeId,
    ...(t.spec.serverUrl ? { serverUrl: t.spec.serverUrl } : {}),
  };
}

/**
 * Per tool, the strictest ruling of the tiers above the agent (blocked over
 * required over available; the org tier first on a tie). Installs of other
 * orgs, workspaces or namespaces are ignored.
 */
export function toolRulings(
  installs: readonly ScopedToolInstall[],
  tiers: ToolTiers,
): Map<string, ToolRuling> {
  const rulings = new Map<string, ToolRuling>();
  const ordered = [...installs].sort(
    (a, b) => (a.spec.scope === 'org' ? 0 : 1) - (b.spec.scope === 'org' ? 0 : 1),
  );
  for (const t of ordered) {
    if (!tierOf(t, tiers)) continue;
    const ruling = rulingOf(t);
    const held = rulings.get(ruling.tool);
    if (!held || RANK[ruling.enforcement] > RANK[held.enforcement]) rulings.set(ruling.tool, ruling);
  }
  return rulings;
}

/** The namespaces whose ScopedToolInstalls concern the agent (org home first, no repeats). */
export function tierNamespaces(tiers: ToolTiers): string[] {
  return [...new Set([tiers.org?.namespace, tiers.workspace?.namespace].filter((n): n is string => !!n))];
}

export const rulingLabel = (r: ToolRuling): string =>
  `${r.scope === 'org' ? 'organization' : 'workspace'} ${r.scopeId}`;
