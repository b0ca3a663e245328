// Writes to one tier of the auditor-settings cascade, as pure functions over
// the stored `<auditor_id>` → `<settingName>` → `{value, enforced}` maps, and
// the view of a resolved setting the settings API answers with.
import { snakeToCamel } from '../../auditors/sdk/setting-names.ts';
import {
  resolveSettings,
  type AuditorSettings,
  type CascadeInput,
  type ResolvedSetting,
  type Scope,
} from '../../policy/settings-cascade.ts';

const ABOVE: Record<Scope, readonly ('org' | 'workspace')[]> = {
  org: [],
  workspace: ['org'],
  agent: ['org', 'workspace'],
};

/** Setting names are stored camelCase, as definition files write them. */
export const storedKey = (setting: string): string => snakeToCamel(setting);

/** The tier above `tier` that locks `<auditorId>.<setting>` (the highest one), if any. */
export function lockedBy(
  input: CascadeInput,
  tier: Scope,
  auditorId: string,
  setting: string,
): 'org' | 'workspace' | undefined {
  const key = storedKey(setting);
  return ABOVE[tier].find((above) => input[above]?.[auditorId]?.[key]?.enforced === true);
}

export function lockDetail(auditorId: string, setting: string, by: 'org' | 'workspace'): string {
  const label = by === 'org' ? 'LOCKED (Set by Org Admin)' : 'LOCKED (Set by Workspace)';
  return `${auditorId}.${storedKey(setting)} is ${label}: the ${by} tier enforces it, so a lower tier cannot change or reset it`;
}

/** `settings` with `<auditorId>.<setting>` set to `value` (locked when `enforced`). */
export function withSetting(
  settings: AuditorSettings | undefined,
  auditorId: string,
  setting: string,
  entry: { value: unknown; enforced: boolean },
): AuditorSettings {
  const forAuditor = { ...(settings?.[auditorId] ?? {}) };
  forAuditor[storedKey(setting)] = entry.enforced
    ? { value: entry.value, enforced: true }
    : { value: entry.value };
  return { ...(settings ?? {}), [auditorId]: forAuditor };
}

/** `settings` without `<auditorId>.<setting>` (either spelling); `removed` says whether it was there. */
export function withoutSetting(
  settings: AuditorSettings | undefined,
  auditorId: string,
  setting: string,
): { next: AuditorSettings; removed: boolean } {
  const forAuditor = { ...(settings?.[auditorId] ?? {}) };
  const names = new Set([setting, storedKey(setting)]);
  const removed = Object.keys(forAuditor).some((k) => names.has(k));
  for (const name of names) delete forAuditor[name];
  const next = { ...(settings ?? {}) };
  if (Object.keys(forAuditor).length > 0) next[auditorId] = forAuditor;
  else delete next[auditorId];
  return { next, removed };
}

export interface SettingView {
  auditor_id: string;
  setting: string;
  value: unknown;
  /** The tier whose value is in effect. */
  source: Scope;
  badge: string;
  badge_kind: 'LOCKED' | 'INHERITED' | 'OVERRIDDEN' | 'DIRECT';
  /** Set at this tier with `enforced`: every tier below sees it LOCKED. */
  locked: boolean;
  /** False when a tier above locks it. */
  editable: boolean;
  parent_value?: unknown;
  parent_scope?: 'org' | 'workspace';
}

function viewOf(r: ResolvedSetting, input: CascadeInput, tier: Scope): SettingView {
  const view: SettingView = {
    auditor_id: r.auditorId,
    setting: r.setting,
    value: r.value,
    source: r.source,
    badge: r.badge.label,
    badge_kind: r.badge.kind,
    locked: tier !== 'agent' && input[tier]?.[r.auditorId]?.[r.setting]?.enforced === true,
    editable: r.badge.kind !== 'LOCKED',
  };
  if (r.badge.kind === 'OVERRIDDEN') {
    view.parent_value = r.badge.parentValue;
    view.parent_scope = r.badge.parentScope;
  }
  return view;
}

/** Every setting set at `tier` or above, as `tier` sees it. */
export function settingsView(input: CascadeInput, tier: Scope): SettingView[] {
  return resolveSettings(input, tier).map((r) => viewOf(r, input, tier));
}
