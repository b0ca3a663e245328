// The settings schema of an auditor (GET /v1/auditors/schema/{id}): each
// claim with its ClaimSettingDefinitions. A built-in auditor serves its own
// catalog entry's definitions; a registered one declares only `{key, type,
// default}` per setting, so the UI hints (label, control) are derived from the
// key and type (decision 115).
import { builtinAuditor } from '../../auditors/builtin.ts';
import type { ClaimSettingDefinition, SettingType, SettingValue } from '../../auditors/sdk/types.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';

export interface ClaimSettingsSchema {
  name: string;
  type: string;
  description: string;
  settings: ClaimSettingDefinition[];
}

export interface AuditorSettingsSchema {
  auditor_id: string;
  builtin: boolean;
  claims: ClaimSettingsSchema[];
}

/** How each setting type is rendered (spec: ClaimSettingDefinition rendering). */
const CONTROL: Record<SettingType, string> = {
  number: 'number',
  boolean: 'toggle',
  string: 'text',
  'string[]': 'tags',
};

/** `max_length` → `Max length`. */
export const labelOf = (key: string): string => {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

type RegisteredSetting = NonNullable<
  NonNullable<AuditorRegistration['spec']['claims']>[number]['settings']
>[number];

export function settingDefinition(s: RegisteredSetting): ClaimSettingDefinition {
  return {
    key: s.key,
    label: labelOf(s.key),
    type: s.type,
    default: (s.default ?? null) as SettingValue,
    control: CONTROL[s.type],
  };
}

function registeredSchema(r: AuditorRegistration): AuditorSettingsSchema {
  return {
    auditor_id: r.spec.auditorId,
    builtin: false,
    claims: (r.spec.claims ?? []).map((c) => ({
      name: c.name,
      type: c.type,
      description: c.description ?? '',
      settings: (c.settings ?? []).map(settingDefinition),
    })),
  };
}

/** The schema of a built-in or registered auditor; undefined when the id is unknown. */
export function auditorSettingsSchema(
  id: string,
  registration: AuditorRegistration | undefined,
): AuditorSettingsSchema | undefined {
  const builtin = builtinAuditor(id);
  if (builtin) {
    const claims = builtin.catalog.claims.map((c) => ({
      name: c.name,
      type: c.type,
      description: c.description,
      settings: c.settings.map((s) => ({ ...s })),
    }));
    return { auditor_id: id, builtin: true, claims };
  }
  return registration ? registeredSchema(registration) : undefined;
}
