// Chain policy (spec "Chain policy"): the final auditor chain is the system
// auditors (always) + org-required + workspace-required + framework-required
// + installed apps' auditors + user-selected. Scopes merge and never subtract; order is kept and the
// first occurrence of an auditor wins; only user-selected auditors can be
// removed, and removing any other is refused with the scope that requires it.
import { DEFAULT_CHAIN_IDS, SYSTEM_AUDITOR_IDS } from '../../auditors/builtin.ts';

export const SYSTEM_AUDITORS: readonly string[] = SYSTEM_AUDITOR_IDS;
/** The built-in default chain's own auditors (`injection`, `toxicity`); user-selected, so removable. */
export const DEFAULT_CHAIN: readonly string[] = DEFAULT_CHAIN_IDS;

/** Where an auditor in the chain comes from; every scope but `user` is binding. */
export type ChainScope = 'system' | 'org' | 'workspace' | 'framework' | 'app' | 'user';

export interface FrameworkRequirement {
  name: string;
  requiredAuditors: readonly string[];
}

export interface ChainInput {
  /**
   * The built-in default chain's auditors, for an agent no workspace or
   * selection gives a chain: user-selected, placed before the system auditors
   * as the built-in default chain orders them.
   */
  builtinDefault?: readonly string[];
  orgName?: string;
  orgRequired?: readonly string[];
  workspaceName?: string;
  workspaceRequired?: readonly string[];
  /** The frameworks the workspace (or agent) selected, resolved from the Organization. */
  frameworks?: readonly FrameworkRequirement[];
  /**
   * The auditors the agent's installed catalog apps bring (the app's own and
   * its auditor requirements): binding while the app is installed (decision 111).
   */
  installedApps?: readonly { app: string; auditors: readonly string[] }[];
  /** User-selected auditors, in order (workspace defaults then agent choices). */
  userSelected?: readonly string[];
}

export interface ChainEntry {
  auditorId: string;
  scope: ChainScope;
  /** Who requires it: the org, workspace or framework name; empty for system and user. */
  requiredBy: string;
}

/** The composed chain with the origin of each auditor (the first scope that brought it). */
export function composeChain(input: ChainInput): ChainEntry[] {
  const out: ChainEntry[] = [];
  const seen = new Set<string>();
  const add = (ids: readonly string[] | undefined, scope: ChainScope, requiredBy: string): void => {
    for (const auditorId of ids ?? []) {
      if (seen.has(auditorId)) continue;
      seen.add(auditorId);
      out.push({ auditorId, scope, requiredBy });
    }
  };
  add(input.builtinDefault, 'user', '');
  add(SYSTEM_AUDITORS, 'system', '');
  add(input.orgRequired, 'org', input.orgName ?? '');
  add(input.workspaceRequired, 'workspace', input.workspaceName ?? '');
  for (const f of input.frameworks ?? []) add(f.requiredAuditors, 'framework', f.name);
  for (const a of input.installedApps ?? []) add(a.auditors, 'app', a.app);
  add(input.userSelected, 'user', '');
  return out;
}

export function chainIds(chain: readonly ChainEntry[]): string[] {
  return chain.map((e) => e.auditorId);
}

/** Why `entry` cannot be removed, naming the scope that requires it. */
export function removalRefusal(entry: ChainEntry): string {
  switch (entry.scope) {
    case 'system':
      return `auditor ${entry.auditorId} is a system auditor and cannot be removed`;
    case 'org':
      return `auditor ${entry.auditorId} is required by organization ${entry.requiredBy} and cannot be removed`;
    case 'workspace':
      return `auditor ${entry.auditorId} is required by workspace ${entry.requiredBy} and cannot be removed`;
    case 'framework':
      return `auditor ${entry.auditorId} is required by compliance framework ${entry.requiredBy} and cannot be removed`;
    case 'app':
      return `auditor ${entry.auditorId} is required by installed app ${entry.requiredBy}; uninstall the app to remove it`;
    default:
      return '';
  }
}

export interface RemovalResult {
  chain: ChainEntry[];
  /** One message per refused removal; the refused auditors stay in the chain. */
  refused: string[];
}

/** Removes user-selected auditors; refuses (and keeps) any other. Unknown ids are ignored. */
export function removeAuditors(chain: readonly ChainEntry[], ids: readonly string[]): RemovalResult {
  const remove = new Set(ids);
  const refused: string[] = [];
  const kept = chain.filter((entry) => {
    if (!remove.has(entry.auditorId)) return true;
    if (entry.scope === 'user') return false;
    refused.push(removalRefusal(entry));
    return true;
  });
  return { chain: kept, refused };
}

/**
 * An explicit chain (for example the `platform.computing/auditor-chain`
 * annotation on a PlatformAgent) states the user's selection in full: the
 * user-selected auditors it omits are removed, required ones it omits are
 * kept and reported, auditors it adds become user-selected, system auditors
 * and installed apps' auditors are kept silently.
 */
export function applyExplicitChain(input: ChainInput, explicit: readonly string[]): RemovalResult {
  const composed = composeChain({ ...input, userSelected: [...(input.userSelected ?? []), ...explicit] });
  const wanted = new Set(explicit);
  // System auditors are appended when an explicit chain omits them (CLARIFICATIONS), not removed;
  // so are installed apps' auditors: installing was as explicit a choice (decision 111).
  const omitted = composed.filter(
    (e) => !wanted.has(e.auditorId) && e.scope !== 'system' && e.scope !== 'app',
  );
  return removeAuditors(
    composed,
    omitted.map((e) => e.auditorId),
  );
}

/** Auditors of the chain that are not known (builtin or registered). */
export function unknownAuditors(chain: readonly ChainEntry[], known: ReadonlySet<string>): string[] {
  return chain.filter((e) => !known.has(e.auditorId)).map((e) => e.auditorId);
}

/** `preRequest` / `postResponse` lists of a resource's auditorChain, as ids. */
export function chainLists(chain?: {
  preRequest?: { auditorId: string }[];
  postResponse?: { auditorId: string }[];
}): { preRequest: string[]; postResponse: string[] } {
  return {
    preRequest: (chain?.preRequest ?? []).map((e) => e.auditorId),
    postResponse: (chain?.postResponse ?? []).map((e) => e.auditorId),
  };
}

/** Parses a comma list (`a, b,c`), dropping blanks. */
export function parseIdList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
