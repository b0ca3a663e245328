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

/** The 0–1 slider of a score threshold. */
export const UNIT_SLIDER = { min: 0, max: 1, step: 0.05, control: 'slider' } as const;

/**
 * Catalog claims of an auditor's own definition: each setting labelled by its
 * key (`severe_threshold` → `severe threshold`), with `ranges[key]` when the
 * auditor gives one, otherwise the 0–1 slider for numbers.
 */
export function vocabularyClaims(
  vocabulary: VocabularyEntry[],
  ranges: SettingHints = {},
): AuditorCatalogEntry['claims'] {
  return vocabulary.map((v) => ({
    name: v.name,
    type: v.type,
    description: v.description,
    settings: (v.settings ?? []).map((s) => ({
      key: s.key,
      label: s.key.replace(/_/g, ' '),
      type: s.type,
      default: s.default,
      ...(ranges[s.key] ?? (s.type === 'number' ? UNIT_SLIDER : {})),
    })),
  }));
}
