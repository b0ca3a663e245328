// The policy a Gateway applies when no AuditorPolicy governs its agent: the
// Balanced tier of every built-in auditor (the `production_team` bundle),
// narrowed to the claims the pod's chain declares, so a rule never names a
// claim no auditor of this chain can produce (that would be a compile error
// and deny every request). The audit mode does not pick the rules: observe
// mode records exactly what enforce mode would block. Pure.
import { createHash } from 'node:crypto';
import type { ClaimInfo } from './cedar-schema.ts';
import { BUNDLE_TIERS, bundlePreset, presetCedar, type Preset, type PresetTier } from './presets.ts';
import type { Detection, PolicyRecord } from './types.ts';

/** Not `<namespace>.<name>`: no AuditorPolicy can take this id. */
export const DEFAULT_POLICY_ID = 'platform:default';
export const DEFAULT_POLICY_BUNDLE = 'production_team';
export const DEFAULT_POLICY_TIER: PresetTier = BUNDLE_TIERS[DEFAULT_POLICY_BUNDLE];

/** The parts of `preset` whose claims are all declared in `claims`. */
export function narrowPreset(preset: Preset, claims: ReadonlyMap<string, ClaimInfo>): Preset {
  const detection: Detection = {};
  for (const [claim, settings] of Object.entries(preset.detection))
    if (claims.has(claim)) detection[claim] = settings;
  return {
    detection,
    responseRules: preset.responseRules.filter((r) => claims.has(r.claim)),
    cedarRules: preset.cedarRules.filter((r) => r.when.every((c) => claims.has(c.claim))),
  };
}

/** The default policy for a chain whose vocabularies declare `claims`; its version names its content. */
export function defaultPolicy(claims: Map<string, ClaimInfo>): PolicyRecord {
  const preset = narrowPreset(bundlePreset(DEFAULT_POLICY_BUNDLE)!, claims);
  const cedar = presetCedar(preset, claims);
  const spec: PolicyRecord['spec'] = {
    scope: 'org',
    scopeId: 'platform',
    description: `built-in default: the ${DEFAULT_POLICY_TIER} tier of every auditor in the chain`,
    detection: preset.detection,
    responseRules: preset.responseRules,
    ...(cedar ? { cedar } : {}),
  };
  const digest = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 12);
  const version = `${DEFAULT_POLICY_TIER.toLowerCase()}-${digest}`;
  return { id: DEFAULT_POLICY_ID, version, spec: { ...spec, version } };
}
