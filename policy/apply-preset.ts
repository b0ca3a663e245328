// Applying a preset (one auditor's tier, or a bundle) to a workspace policy:
// its detection overrides replace the same settings, its response rules
// replace rules of the same name, and its Cedar rules replace the policies
// with the same @id. Everything else in the policy stays.
import { policySetTextToParts } from '@cedar-policy/cedar-wasm/nodejs';
import type { ClaimInfo } from './cedar-schema.ts';
import { presetCedar, type Preset } from './presets.ts';
import type { AuditorPolicySpec } from './types.ts';

function cedarWithout(cedar: string | undefined, names: Set<string>): string[] {
  if (!cedar?.trim()) return [];
  const parts = policySetTextToParts(cedar);
  if (parts.type === 'failure') return [cedar];
  return parts.policies.filter((p) => !names.has(/^\s*@id\("([^"\\]+)"\)/.exec(p)?.[1] ?? ''));
}

export function applyPreset(
  spec: AuditorPolicySpec,
  preset: Preset,
  claims: Map<string, ClaimInfo>,
): AuditorPolicySpec {
  const detection = { ...spec.detection };
  for (const [claim, settings] of Object.entries(preset.detection))
    detection[claim] = { ...detection[claim], ...settings };
  const names = new Set(preset.responseRules.map((r) => r.name));
  const rules = [...(spec.responseRules ?? []).filter((r) => !names.has(r.name)), ...preset.responseRules];
  const cedarNames = new Set(preset.cedarRules.map((r) => r.name));
  const cedar = [...cedarWithout(spec.cedar, cedarNames), presetCedar(preset, claims)]
    .filter(Boolean)
    .join('\n');
  const out: AuditorPolicySpec = { ...spec, detection, responseRules: rules };
  if (cedar) out.cedar = cedar;
  else delete out.cedar;
  return out;
}
