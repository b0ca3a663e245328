// One pure module for the three spellings of an auditor setting (see
// CLARIFICATIONS "setting names"): the vocabulary's snake_case key
// (`ban_substrings`), the definition file's camelCase (`banSubstrings`) and the
// environment variable `<AUDITOR>_<KEY>` (`INJECTION_BAN_SUBSTRINGS`). Also the
// typed parsing of a setting value from its environment text, and its inverse.
import type { SettingType, SettingValue } from './types.ts';

/** A snake_case key: lower-case segments, each starting with a letter, joined by `_`. */
export const SNAKE_KEY_RE = /^[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)*$/;
/** A camelCase key whose snake_case form satisfies SNAKE_KEY_RE. */
export const CAMEL_KEY_RE = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$/;

export const SETTING_TYPES: readonly SettingType[] = ['number', 'boolean', 'string', 'string[]'];

export function isSnakeKey(key: string): boolean {
  return SNAKE_KEY_RE.test(key);
}

/** `ban_substrings` → `banSubstrings`. */
export function snakeToCamel(key: string): string {
  return key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** `banSubstrings` → `ban_substrings`. Already-snake keys are returned unchanged. */
export function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `model-context` → `MODEL_CONTEXT`: the prefix of the auditor's environment variables. */
export function envPrefix(auditorId: string): string {
  return auditorId
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

/** (`injection`, `ban_substrings` or `banSubstrings`) → `INJECTION_BAN_SUBSTRINGS`. */
export function envName(auditorId: string, key: string): string {
  return `${envPrefix(auditorId)}_${camelToSnake(key).toUpperCase()}`;
}

/** `INJECTION_BAN_SUBSTRINGS` → `ban_substrings`; undefined when the variable is not the auditor's. */
export function keyFromEnvName(auditorId: string, variable: string): string | undefined {
  const prefix = `${envPrefix(auditorId)}_`;
  if (!variable.startsWith(prefix)) return undefined;
  const key = variable.slice(prefix.length).toLowerCase();
  return isSnakeKey(key) ? key : undefined;
}

/** Whether `value` is a legal value of a setting of `type` (null is the "no value" default). */
export function settingValueMatches(type: SettingType, value: unknown): value is SettingValue {
  if (value === null) return true;
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
  }
}

export type ParsedSetting = { ok: true; value: SettingValue } | { ok: false; problem: string };

/**
 * Parses an environment variable's text as a setting of `type`. Lists are
 * comma-separated (`a, b`) or a JSON array (`["a,b","c"]`).
 */
export function parseSettingText(type: SettingType, raw: string): ParsedSetting {
  const text = raw.trim();
  switch (type) {
    case 'number': {
      const n = Number(text);
      return text !== '' && Number.isFinite(n)
        ? { ok: true, value: n }
        : { ok: false, problem: 'expected a number' };
    }
    case 'boolean':
      if (/^(true|1|yes)$/i.test(text)) return { ok: true, value: true };
      if (/^(false|0|no)$/i.test(text)) return { ok: true, value: false };
      return { ok: false, problem: 'expected true or false' };
    case 'string':
      return { ok: true, value: raw };
    case 'string[]':
      return parseList(text);
  }
}

function parseList(text: string): ParsedSetting {
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (settingValueMatches('string[]', parsed) && parsed !== null) return { ok: true, value: parsed };
    } catch {
      // fall through to the problem below
    }
    return { ok: false, problem: 'expected a JSON array of strings or a comma-separated list' };
  }
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return { ok: true, value: items };
}

/**
 * A setting value as environment text that `parseSettingText` reads back:
 * lists comma-separated when every item survives that (non-empty, trimmed,
 * no comma, not starting a JSON array), else as a JSON array.
 */
export function settingEnvText(value: Exclude<SettingValue, null>): string {
  if (!Array.isArray(value)) return String(value);
  const plain =
    value.length > 0 &&
    !value[0]!.startsWith('[') &&
    value.every((v) => v !== '' && v === v.trim() && !v.includes(','));
  return plain ? value.join(',') : JSON.stringify(value);
}
