// Pure: the tiers a person may pick (GET /v1/scopes and the agents list) as
// the options of the scope picker, and the picked option back as a target.
import type { SettingsScope } from './route.ts';

export interface ScopesView {
  organizations: { name: string; home_namespace: string | null; can_write: boolean }[];
  workspaces: {
    namespace: string;
    name: string;
    scope_id: string;
    organization: string | null;
    can_write: boolean;
  }[];
}

export type Tier = SettingsScope['scope'];

export interface TierOption {
  /** The select's value: the org name, `<namespace>/<workspace>`, or the agent id. */
  value: string;
  label: string;
  canWrite: boolean;
}

export function tierOptions(tier: Tier, scopes: ScopesView, agentIds: readonly string[]): TierOption[] {
  if (tier === 'org')
    return scopes.organizations.map((o) => ({
      value: o.name,
      label: o.can_write ? o.name : `${o.name} (read only)`,
      canWrite: o.can_write,
    }));
  if (tier === 'workspace')
    return scopes.workspaces.map((w) => {
      const label = `${w.namespace}/${w.name}${w.organization ? ` · ${w.organization}` : ''}`;
      return {
        value: `${w.namespace}/${w.name}`,
        label: w.can_write ? label : `${label} (read only)`,
        canWrite: w.can_write,
      };
    });
  return agentIds.map((id) => ({ value: id, label: id, canWrite: true }));
}

/** The target the picked value names, or undefined for an empty or malformed value. */
export function targetOf(tier: Tier, value: string): SettingsScope | undefined {
  if (!value) return undefined;
  if (tier === 'org') return { scope: 'org', organization: value };
  if (tier === 'agent') return { scope: 'agent', agent_id: value };
  const [namespace, workspace, ...rest] = value.split('/');
  return namespace && workspace && rest.length === 0
    ? { scope: 'workspace', namespace, workspace }
    : undefined;
}

const NONE: Record<Tier, string> = {
  org: 'There is no organization you may see.',
  workspace: 'There is no workspace you may see.',
  agent: 'There is no agent you may see.',
};

/** What to say when a tier has nothing to pick. */
export const noneWords = (tier: Tier): string => NONE[tier];
