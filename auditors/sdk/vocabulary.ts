// A compact constructor for vocabulary entries (spec: Vocabulary).
import type { ClaimType, SettingDeclaration, VocabularyEntry } from './types.ts';

/** A claim's type together with the JSON schema of its values. */
export interface ClaimValue {
  type: ClaimType;
  schema: Record<string, unknown>;
}

/** The value shapes the built-in auditors' claims use. */
export const CLAIM_VALUES = {
  score: { type: 'score_normalized', schema: { type: 'number', minimum: 0, maximum: 1 } },
  bool: { type: 'boolean', schema: { type: 'boolean' } },
  list: { type: 'string_list', schema: { type: 'array', items: { type: 'string' } } },
  count: { type: 'count', schema: { type: 'integer', minimum: 0 } },
  text: { type: 'string', schema: { type: 'string' } },
} satisfies Record<string, ClaimValue>;

/** A vocabulary entry; `settings` is left out when none are given. */
export function vocabularyEntry(
  name: string,
  value: ClaimValue,
  description: string,
  settings?: SettingDeclaration[],
): VocabularyEntry {
  return {
    name,
    type: value.type,
    description,
    value_schema: value.schema,
    ...(settings ? { settings } : {}),
  };
}
