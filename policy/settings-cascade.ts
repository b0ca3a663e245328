// The auditor-settings cascade org → workspace → agent (spec "Inheritance
// badges", definition files "agent wins"): the most specific scope wins unless
// a value is enforced above it; an enforced value is locked for every scope
// below. Each resolved setting carries the badge the settings panel shows.

export type Scope = 'org' | 'workspace' | 'agent';

export interface SettingValue {
  value: unknown;
  enforced?: boolean;
}

/** `<auditor_id>` → `<settingName>` → `{value, enforced}`, as the resources store it. */
export type AuditorSettings = Record<string, Record<string, SettingValue>>;

export type Badge =
  | { kind: 'LOCKED'; by: 'org' | 'workspace'; label: string }
  | { kind: 'INHERITED'; from: 'org' | 'workspace'; label: string }
  | { kind: 'OVERRIDDEN'; parentValue: unknown; parentScope: 'org' | 'workspace'; label: string }
  | { kind: 'DIRECT'; label: string };

export interface ResolvedSetting {
  auditorId: string;
  setting: string;
  value: unknown;
  /** The scope whose value is in effect. */
  source: Scope;
  badge: Badge;
  /** Set when a scope below tried to change a locked value; its value was ignored. */
  ignoredOverride?: { scope: Scope; value: unknown };
}

export interface CascadeInput {
  org?: AuditorSettings;
  workspace?: AuditorSettings;
  agent?: AuditorSettings;
}

const SCOPES: readonly Scope[] = ['org', 'workspace', 'agent'];

function keysOf(input: CascadeInput): [string, string][] {
  const out = new Map<string, [string, string]>();
  for (const scope of SCOPES) {
    for (const [auditorId, settings] of Object.entries(input[scope] ?? {})) {
      for (const setting of Object.keys(settings ?? {})) {
        out.set(`${auditorId}\u0000${setting}`, [auditorId, setting]);
      }
    }
  }
  return [...out.values()].sort(([a1, s1], [a2, s2]) => a1.localeCompare(a2) || s1.localeCompare(s2));
}

const show = (v: unknown): string => JSON.stringify(v);

function lockedBadge(by: 'org' | 'workspace'): Badge {
  return {
    kind: 'LOCKED',
    by,
    label: by === 'org' ? 'LOCKED (Set by Org Admin)' : 'LOCKED (Set by Workspace)',
  };
}

/** The badge of a setting seen at `viewer`, given the scope whose value is in effect. */
function badgeFor(
  viewer: Scope,
  source: Scope,
  locked: boolean,
  parent: { scope: 'org' | 'workspace'; value: unknown } | undefined,
): Badge {
  if (locked && source !== viewer) return lockedBadge(source as 'org' | 'workspace');
  if (source !== viewer) {
    const from = source as 'org' | 'workspace';
    return { kind: 'INHERITED', from, label: `INHERITED (from: ${from})` };
  }
  if (parent) {
    return {
      kind: 'OVERRIDDEN',
      parentValue: parent.value,
      parentScope: parent.scope,
      label: `OVERRIDDEN (${parent.scope} default: ${show(parent.value)})`,
    };
  }
  return { kind: 'DIRECT', label: 'DIRECT' };
}

/** Where the walk down the scopes stands for one setting. */
interface CascadeWalk {
  current?: { scope: Scope; value: unknown };
  parent?: { scope: 'org' | 'workspace'; value: unknown };
  locked: boolean;
  ignoredOverride?: ResolvedSetting['ignoredOverride'];
}

/** One scope's entry applied to the walk: below a lock it changes nothing but is recorded when it differs. */
function step(walk: CascadeWalk, scope: Scope, entry: SettingValue): CascadeWalk {
  const { current } = walk;
  if (walk.locked) {
    const differs = JSON.stringify(entry.value) !== JSON.stringify(current?.value);
    return differs ? { ...walk, ignoredOverride: { scope, value: entry.value } } : walk;
  }
  const parent =
    current && current.scope !== 'agent' ? { scope: current.scope, value: current.value } : walk.parent;
  return {
    ...walk,
    ...(parent ? { parent } : {}),
    current: { scope, value: entry.value },
    locked: entry.enforced === true && scope !== 'agent',
  };
}

function resolveOne(input: CascadeInput, auditorId: string, setting: string, viewer: Scope): ResolvedSetting {
  let walk: CascadeWalk = { locked: false };
  for (const scope of SCOPES.slice(0, SCOPES.indexOf(viewer) + 1)) {
    const entry = input[scope]?.[auditorId]?.[setting];
    if (entry) walk = step(walk, scope, entry);
  }
  const source = walk.current!.scope;
  const result: ResolvedSetting = {
    auditorId,
    setting,
    value: walk.current!.value,
    source,
    badge: badgeFor(viewer, source, walk.locked, source === viewer ? walk.parent : undefined),
  };
  if (walk.ignoredOverride) result.ignoredOverride = walk.ignoredOverride;
  return result;
}

/**
 * Every setting set at any scope up to `viewer`, resolved as `viewer` sees it
 * (default: the agent). Sorted by auditor and setting name.
 */
export function resolveSettings(input: CascadeInput, viewer: Scope = 'agent'): ResolvedSetting[] {
  const visible: CascadeInput = {};
  for (const scope of SCOPES.slice(0, SCOPES.indexOf(viewer) + 1)) visible[scope] = input[scope];
  return keysOf(visible).map(([auditorId, setting]) => resolveOne(visible, auditorId, setting, viewer));
}

/** The effective values only: `<auditor_id>` → `<setting>` → value. */
export function effectiveSettings(
  resolved: readonly ResolvedSetting[],
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const r of resolved) (out[r.auditorId] ??= {})[r.setting] = r.value;
  return out;
}

/** One message per ignored override, e.g. for a `SettingLocked` condition. */
export function lockViolations(resolved: readonly ResolvedSetting[]): string[] {
  return resolved
    .filter((r) => r.ignoredOverride)
    .map(
      (r) =>
        `${r.auditorId}.${r.setting} is locked by ${r.source}; the ${r.ignoredOverride!.scope} value ${show(r.ignoredOverride!.value)} is ignored`,
    );
}
