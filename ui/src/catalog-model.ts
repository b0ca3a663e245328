// The app catalog's pure part: apps grouped by category, and the creation
// wizard's tool list from the scoped tool cascade (blocked > required >
// available): a blocked tool is left out, a required one is pre-selected and
// cannot be unselected.

export interface CatalogApp {
  app_id: string;
  name: string;
  description?: string;
  category: string;
  type: string;
  trust_tier: string;
  builtin: boolean;
  version?: string | null;
  install_count: number;
}

export interface InstalledApp {
  agent_id: string;
  app_id: string;
  name: string | null;
}

export interface EffectiveTool {
  tool: string;
  state: 'available' | 'required' | 'blocked';
  scope: 'org' | 'workspace';
  scope_id: string;
}

const ORDER = ['MCP Servers', 'Auditors', 'A2A Agents', 'Skills', 'Runtimes'];
const rank = (c: string): number => (ORDER.includes(c) ? ORDER.indexOf(c) : ORDER.length);

/** Apps by category (the catalog's order, then any other alphabetically), each sorted by name. */
export function byCategory<T extends CatalogApp>(apps: readonly T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const a of apps) groups.set(a.category, [...(groups.get(a.category) ?? []), a]);
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([c, list]) => [c, [...list].sort((x, y) => x.name.localeCompare(y.name))]);
}

export interface WizardTool extends CatalogApp {
  /** Required by a tier above the agent: pre-selected, cannot be unselected. */
  requiredBy?: string;
}

const tierWords = (t: EffectiveTool): string =>
  t.scope === 'org' ? `organization ${t.scope_id}` : `workspace ${t.scope_id}`;

/** The apps the wizard offers: blocked ones left out, required ones marked with the tier requiring them. */
export function wizardTools(apps: readonly CatalogApp[], effective: readonly EffectiveTool[]): WizardTool[] {
  const rulings = new Map(effective.map((t) => [t.tool, t]));
  return apps.flatMap((a): WizardTool[] => {
    const r = rulings.get(a.app_id);
    if (r?.state === 'blocked') return [];
    return [r?.state === 'required' ? { ...a, requiredBy: tierWords(r) } : a];
  });
}

/** What the wizard installs: every required tool, then what was chosen. */
export function toInstall(tools: readonly WizardTool[], chosen: ReadonlySet<string>): string[] {
  return tools.filter((t) => t.requiredBy !== undefined || chosen.has(t.app_id)).map((t) => t.app_id);
}

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why `name` cannot name an agent ('' when it can): a DNS label. */
export function agentNameProblem(name: string): string {
  if (name === '') return 'Enter a name.';
  if (name.length > 63) return 'At most 63 characters.';
  return NAME.test(name)
    ? ''
    : 'Lower-case letters, digits and hyphens, starting and ending with a letter or digit.';
}
