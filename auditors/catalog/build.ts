// Builds catalog claim entries (spec: Auditor catalog entry,
// ClaimSettingDefinition) from an auditor's vocabulary plus UI hints, so the
// catalog cannot drift from what the auditor declares.
import type {
  AuditorCatalogEntry,
  ClaimSettingDefinition,
  SettingDeclaration,
  VocabularyEntry,
} from '../sdk/types.ts';

export type SettingHints = Record<string, Partial<Omit<ClaimSettingDefinition, 'key' | 'type' | 'default'>>>;

/** `near_limit_ratio` → `Near limit ratio`. */
export function labelOf(key: string): string {
  const words = key.replace(/[._]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function defaultControl(s: SettingDeclaration, hint: SettingHints[string]): string {
  switch (s.type) {
    case 'number':
      return hint.min !== undefined && hint.max !== undefined ? 'slider' : 'number';
    case 'boolean':
      return 'toggle';
    case 'string':
      return hint.options ? 'select' : 'text';
    case 'string[]':
      return 'tags';
  }
}

export function settingDefinition(s: SettingDeclaration, hints: SettingHints = {}): ClaimSettingDefinition {
  const hint = hints[s.key] ?? {};
  return {
    key: s.key,
    label: labelOf(s.key),
    type: s.type,
    default: s.default,
    ...hint,
    control: hint.control ?? defaultControl(s, hint),
  };
}

export function catalogClaims(
  vocabulary: VocabularyEntry[],
  hints: SettingHints = {},
): AuditorCatalogEntry['claims'] {
  return vocabulary.map((v) => ({
    name: v.name,
    type: v.type,
    description: v.description,
    settings: (v.settings ?? []).map((s) => settingDefinition(s, hints)),
  }));
}
