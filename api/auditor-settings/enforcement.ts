// AuditorPolicy enforcement modes applied to the auditor-settings cascade
// (decision 123), pure. A setting `<auditor>.<setting>` is the detection
// override `<claim>.<setting_key>` of every claim of that auditor that
// declares the setting; a policy of a tier above the one being written that
// sets a mode (exact, floor, ceiling, superset) on such an override bounds
// the value the tier may hold, with the same check and message as saving a
// policy (`policy/enforcement.ts`).
import { BUILTIN_CATALOG_ENTRIES } from '../../auditors/catalog/index.ts';
import { camelToSnake } from '../../auditors/sdk/setting-names.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { parentViolations, violationDetail } from '../../policy/enforcement.ts';
import type { Scope } from '../../policy/settings-cascade.ts';
import type { Detection, PolicyRecord } from '../../policy/types.ts';

/** Where a tier sits: what names the policies above it. */
export interface TierPlace {
  scope: Scope;
  organization?: string;
  namespace?: string;
  workspace?: string;
}

/** The claims of `auditorId` that declare `setting` (either spelling). */
export function settingClaims(
  auditorId: string,
  registration: AuditorRegistration | undefined,
  setting: string,
): string[] {
  const key = camelToSnake(setting);
  const builtin = BUILTIN_CATALOG_ENTRIES.find((e) => e.id === auditorId);
  const claims = builtin
    ? builtin.claims.map((c) => ({ name: c.name, keys: c.settings.map((s) => s.key) }))
    : (registration?.spec.claims ?? []).map((c) => ({
        name: c.name,
        keys: (c.settings ?? []).map((s) => s.key),
      }));
  return claims.filter((c) => c.keys.includes(key)).map((c) => c.name);
}

const namespaceOf = (p: PolicyRecord): string => p.id.split('.')[0] ?? '';

const orgPolicies = (place: TierPlace, all: PolicyRecord[]): PolicyRecord[] =>
  place.organization
    ? all.filter((p) => p.spec.scope === 'org' && p.spec.scopeId === place.organization)
    : [];

/** Workspace-scope policies of the agent's namespace for its workspace or the namespace itself. */
const workspacePolicies = (place: TierPlace, all: PolicyRecord[]): PolicyRecord[] =>
  all.filter(
    (p) =>
      p.spec.scope === 'workspace' &&
      namespaceOf(p) === place.namespace &&
      (p.spec.scopeId === place.workspace || p.spec.scopeId === place.namespace),
  );

const byId = (a: PolicyRecord, b: PolicyRecord): number => a.id.localeCompare(b.id);

/**
 * The policies whose modes bound a tier, org first: none above the org tier;
 * the Organization's org-scope policies above the workspace tier; those and
 * the agent's workspace-scope policies above the agent tier.
 */
export function policiesAbove(place: TierPlace, all: PolicyRecord[]): PolicyRecord[] {
  if (place.scope === 'org') return [];
  const org = orgPolicies(place, all).sort(byId);
  return place.scope === 'workspace' ? org : [...org, ...workspacePolicies(place, all).sort(byId)];
}

export interface SettingCandidate {
  auditorId: string;
  setting: string;
  value: unknown;
  claims: string[];
}

/** Why `value` at the tier breaks a mode of `policies` ('' when it does not), the setting named first. */
export function settingEnforcementDetail(candidate: SettingCandidate, policies: PolicyRecord[]): string {
  const key = camelToSnake(candidate.setting);
  const detection: Detection = Object.fromEntries(
    candidate.claims.map((claim) => [claim, { [key]: { value: candidate.value } }]),
  );
  const violations = parentViolations(detection, policies);
  if (violations.length === 0) return '';
  return `${candidate.auditorId}.${candidate.setting} breaks an AuditorPolicy enforcement mode: ${violationDetail(violations)}`;
}
