// An auditor's settings schema, as the settings panels and the settings API
// check values against it: the built-in catalog's claim settings (type, min,
// max, options) or a registration's claim settings (type only). Pure.
import { BUILTIN_CATALOG_ENTRIES } from '../../auditors/catalog/index.ts';
import { camelToSnake, settingValueMatches } from '../../auditors/sdk/setting-names.ts';
import type { SettingType } from '../../auditors/sdk/types.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';

export interface SettingRule {
  type: SettingType;
  min?: number;
  max?: number;
  options?: readonly string[];
}

/** snake_case setting key → its rule. */
export type SettingsSchema = ReadonlyMap<string, SettingRule>;

function builtinSchema(auditorId: string): SettingsSchema | undefined {
  const entry = BUILTIN_CATALOG_ENTRIES.find((e) => e.id === auditorId);
  if (!entry) return undefined;
  const out = new Map<string, SettingRule>();
  for (const claim of entry.claims) {
    for (const s of claim.settings)
      out.set(s.key, { type: s.type, min: s.min, max: s.max, options: s.options });
  }
  return out;
}

/** The schema of a built-in auditor, else of its registration; undefined for an unknown auditor. */
export function settingsSchemaOf(
  auditorId: string,
  registration: AuditorRegistration | undefined,
): SettingsSchema | undefined {
  const builtin = builtinSchema(auditorId);
  if (builtin) return builtin;
  if (!registration) return undefined;
  const out = new Map<string, SettingRule>();
  for (const claim of registration.spec.claims ?? []) {
    for (const s of claim.settings ?? []) out.set(s.key, { type: s.type as SettingType });
  }
  return out;
}

const show = (v: unknown): string => JSON.stringify(v);

function boundsProblem(rule: SettingRule, value: unknown): string {
  if (typeof value !== 'number') return '';
  if (rule.min !== undefined && value < rule.min) return `must be >= ${rule.min}; got ${show(value)}`;
  if (rule.max !== undefined && value > rule.max) return `must be <= ${rule.max}; got ${show(value)}`;
  return '';
}

function optionsProblem(rule: SettingRule, value: unknown): string {
  if (!rule.options || rule.options.length === 0) return '';
  const items = Array.isArray(value) ? value : [value];
  const bad = items.filter((v) => typeof v === 'string' && !rule.options!.includes(v));
  return bad.length === 0 ? '' : `must be one of ${show(rule.options)}; got ${show(value)}`;
}

/**
 * Why `value` cannot be `<auditorId>.<setting>` under `schema` ('' when it can),
 * the field named first. `setting` may be camelCase or snake_case.
 */
export function settingProblem(
  auditorId: string,
  setting: string,
  value: unknown,
  schema: SettingsSchema,
): string {
  const field = `${auditorId}.${setting}`;
  const rule = schema.get(camelToSnake(setting));
  if (!rule) return `${field}: auditor ${auditorId} has no setting ${setting}`;
  if (value === null) return '';
  if (!settingValueMatches(rule.type, value))
    return `${field}: must be of type ${rule.type}; got ${show(value)}`;
  const problem = boundsProblem(rule, value) || optionsProblem(rule, value);
  return problem ? `${field}: ${problem}` : '';
}
