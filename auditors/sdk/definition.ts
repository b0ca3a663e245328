// Checks an AuditorDefinition once at start-up and derives the `/vocabulary`
// declaration from it. A definition error is a programming error in the
// auditor: it stops start-up with every problem listed.
import { SETTING_TYPES, isSnakeKey, settingValueMatches } from './setting-names.ts';
import {
  CLAIM_TYPES,
  REQUEST_PHASES,
  type AuditorDefinition,
  type SettingDeclaration,
  type Vocabulary,
} from './types.ts';

/** Flat snake_case, dotted groups allowed (`toxicity.insult`). */
export const CLAIM_NAME_RE = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*$/;

/** Problems of one declared setting; `typeOfKey` remembers each key's type across claims. */
function declaredSettingProblems(
  at: string,
  s: SettingDeclaration,
  typeOfKey: Map<string, string>,
): string[] {
  const problems: string[] = [];
  if (!isSnakeKey(s.key)) problems.push(`${at}: key must be snake_case`);
  if (!SETTING_TYPES.includes(s.type)) problems.push(`${at}: unknown type ${JSON.stringify(s.type)}`);
  else if (!settingValueMatches(s.type, s.default))
    problems.push(`${at}: default does not match type ${s.type}`);
  const seen = typeOfKey.get(s.key);
  if (seen && seen !== s.type) problems.push(`${at}: key shared with another claim under a different type`);
  typeOfKey.set(s.key, s.type);
  return problems;
}

function settingProblems(def: AuditorDefinition): string[] {
  const problems: string[] = [];
  const typeOfKey = new Map<string, string>();
  for (const entry of def.vocabulary) {
    for (const s of entry.settings ?? []) {
      problems.push(...declaredSettingProblems(`${entry.name}.settings.${s.key}`, s, typeOfKey));
    }
  }
  for (const [key, c] of Object.entries(def.configuration ?? {})) {
    if (!isSnakeKey(key)) problems.push(`configuration.${key}: key must be snake_case`);
    if (!settingValueMatches(c.type, c.default))
      problems.push(`configuration.${key}: default does not match type`);
  }
  return problems;
}

export function definitionProblems(def: AuditorDefinition): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const entry of def.vocabulary) {
    if (!CLAIM_NAME_RE.test(entry.name))
      problems.push(`claim ${JSON.stringify(entry.name)}: name must be snake_case`);
    if (names.has(entry.name)) problems.push(`claim ${entry.name}: declared twice`);
    names.add(entry.name);
    if (!CLAIM_TYPES.includes(entry.type))
      problems.push(`claim ${entry.name}: unknown type ${JSON.stringify(entry.type)}`);
  }
  if (def.vocabulary.length === 0) problems.push('the vocabulary declares no claims');
  if (def.phases.length === 0 || def.phases.some((p) => !REQUEST_PHASES.includes(p))) {
    problems.push(`phases must be a non-empty subset of ${REQUEST_PHASES.join(', ')}`);
  }
  if (def.catalog.id !== def.id)
    problems.push(`catalog.id ${def.catalog.id} differs from the auditor id ${def.id}`);
  return [...problems, ...settingProblems(def)];
}

/** The `GET /vocabulary` body. */
export function vocabularyDeclaration(def: AuditorDefinition, auditorId: string): Vocabulary {
  const declaration: Vocabulary = {
    auditor_id: auditorId,
    version: def.version,
    vocabulary: def.vocabulary.map((v) => ({ ...v, settings: v.settings ?? [] })),
    phases: [...def.phases],
  };
  if (def.configuration) declaration.configuration = def.configuration;
  return declaration;
}
