// Resolved `auditorSettings` (definition files: `<auditor_id>.<settingName>`)
// as the environment of each auditor sidecar, `<AUDITOR>_<KEY>` (spec: Limits,
// auditor environment settings). The built-in auditors' declarations (their
// vocabularies' settings and their configuration) give each key its type, so
// a value an auditor would refuse at start-up is refused here instead. Pure;
// shared by the agent controller (before it writes the pod) and the webhook.
import { BUILTIN_AUDITOR_TABLE } from '../builtin.ts';
import {
  CAMEL_KEY_RE,
  camelToSnake,
  envName,
  settingEnvText,
  settingValueMatches,
  SNAKE_KEY_RE,
} from '../sdk/setting-names.ts';
import type { SettingType, SettingValue, Vocabulary, VocabularyEntry } from '../sdk/types.ts';

/** `<auditor_id>` → `<settingName>` (camelCase or snake_case) → value. */
export type AuditorSettingValues = Record<string, Record<string, unknown>>;

const AUDITOR_ID_RE = /^[a-z0-9]([-_a-z0-9]{0,61}[a-z0-9])?$/;

/** Variables the webhook sets on every auditor sidecar itself; a setting may not shadow them. */
export const RESERVED_AUDITOR_ENV: ReadonlySet<string> = new Set([
  'PLATFORM_AUDITOR_ID',
  'PLATFORM_CHAIN_NEXT',
  'PLATFORM_GATEWAY_URL',
  'PLATFORM_API_KEY',
  'TEE_PROVIDER',
  'PORT',
]);

type Configuration = NonNullable<Vocabulary['configuration']>;

function declaredTypes(
  entries: VocabularyEntry[],
  configuration: Configuration = {},
): Map<string, SettingType> {
  const out = new Map<string, SettingType>();
  for (const e of entries) for (const s of e.settings ?? []) out.set(s.key, s.type);
  for (const [key, decl] of Object.entries(configuration)) out.set(key, decl.type);
  return out;
}

/** Built-in auditor → snake_case setting key → type. */
export const BUILTIN_SETTING_TYPES: ReadonlyMap<string, ReadonlyMap<string, SettingType>> = new Map(
  BUILTIN_AUDITOR_TABLE.map((a) => [a.id, declaredTypes(a.vocabulary, a.configuration)]),
);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why one value cannot be a setting ('' when it can): a number, boolean, string or list of strings. */
function valueProblem(auditorId: string, key: string, value: unknown): string {
  const declared = BUILTIN_SETTING_TYPES.get(auditorId);
  if (declared) {
    const type = declared.get(camelToSnake(key));
    if (!type) return `auditor ${auditorId} has no setting ${key}`;
    return settingValueMatches(type, value) ? '' : `${auditorId}.${key} must be of type ${type}`;
  }
  const shapes: SettingType[] = ['number', 'boolean', 'string', 'string[]'];
  return shapes.some((t) => settingValueMatches(t, value))
    ? ''
    : `${auditorId}.${key} must be a number, boolean, string or list of strings`;
}

function auditorProblems(auditorId: string, settings: unknown): string[] {
  if (!AUDITOR_ID_RE.test(auditorId)) return [`${JSON.stringify(auditorId)} is not an auditor id`];
  if (!isObject(settings)) return [`${auditorId}: expected an object of settings`];
  const problems: string[] = [];
  const names = new Map<string, string>();
  for (const [key, value] of Object.entries(settings)) {
    if (!CAMEL_KEY_RE.test(key) && !SNAKE_KEY_RE.test(key)) {
      problems.push(`${auditorId}: ${JSON.stringify(key)} is not a setting name`);
      continue;
    }
    const variable = envName(auditorId, key);
    if (RESERVED_AUDITOR_ENV.has(variable)) problems.push(`${auditorId}.${key} would set ${variable}`);
    else if (names.has(variable))
      problems.push(`${auditorId}: ${names.get(variable)} and ${key} are one setting`);
    names.set(variable, key);
    const problem = valueProblem(auditorId, key, value);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** Every problem with a set of resolved settings (empty when each auditor can be given them). */
export function auditorSettingsProblems(settings: unknown): string[] {
  if (!isObject(settings)) return ['expected a JSON object {auditor: {setting: value}}'];
  return Object.entries(settings).flatMap(([id, values]) => auditorProblems(id, values));
}

/** One auditor's settings as environment variables, sorted by name; a null value sets nothing. */
export function auditorSettingsEnv(
  auditorId: string,
  settings: Record<string, unknown> | undefined,
): { name: string; value: string }[] {
  return Object.entries(settings ?? {})
    .filter((e): e is [string, Exclude<SettingValue, null>] => e[1] !== null && e[1] !== undefined)
    .map(([key, value]) => ({ name: envName(auditorId, key), value: settingEnvText(value) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
