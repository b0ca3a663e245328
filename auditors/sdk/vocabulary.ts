// A compact constructor for vocabulary entries (spec: Vocabulary).
import type { ClaimType, SettingDeclaration, VocabularyEntry } from './types.ts';

/** A vocabulary entry; `settings` is left out when none are given. */
export function vocabularyEntry(
  name: string,
  type: ClaimType,
  description: string,
  schema: Record<string, unknown>,
  settings?: SettingDeclaration[],
): VocabularyEntry {
  return { name, type, description, value_schema: schema, ...(settings ? { settings } : {}) };
}
