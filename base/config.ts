// Declarative configuration from flags and environment variables. Every bad
// value is reported at once, each with the variable or flag that carried it.

export type SettingType = 'string' | 'integer' | 'port' | 'boolean' | 'url' | 'duration' | 'list';

export interface SettingSpec {
  /** Environment variable name, e.g. `PLATFORM_API_PORT`. */
  env: string;
  /** Command-line flag (without dashes), e.g. `port`. Flags win over the environment. */
  flag?: string;
  type: SettingType;
  default?: string;
  required?: boolean;
  /** Allowed values (for `string`). */
  choices?: readonly string[];
  description: string;
}

export type SettingValue = string | number | boolean | string[] | undefined;

/** `KUBECONFIG` / `--set kubeconfig=…`, shared by the roles that talk to the apiserver. */
export const KUBECONFIG_SETTING = {
  env: 'KUBECONFIG',
  flag: 'kubeconfig',
  type: 'string',
  description: 'kubeconfig path; in-cluster when unset',
} as const satisfies SettingSpec;

type BaseValue<S extends SettingSpec> = S['type'] extends 'integer' | 'port' | 'duration'
  ? number
  : S['type'] extends 'boolean'
    ? boolean
    : S['type'] extends 'list'
      ? string[]
      : string;

/** The parsed value of one setting: defined when it has a default or is required. */
export type SettingOf<S extends SettingSpec> = S extends { default: string } | { required: true }
  ? BaseValue<S>
  : BaseValue<S> | undefined;

export type Settings<T extends Record<string, SettingSpec>> = { [K in keyof T]: SettingOf<T[K]> };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const DURATION_RE = /^(\d+)(ms|s|m|h)$/;
const DURATION_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses `250ms`, `30s`, `15m`, `1h` into milliseconds; undefined when malformed. */
export function parseDurationMs(text: string): number | undefined {
  const m = DURATION_RE.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * (DURATION_UNIT_MS[m[2] as string] as number);
}

type Converter = (raw: string, spec: SettingSpec) => { value: SettingValue } | { expected: string };

function convertUrl(raw: string): { value: SettingValue } | { expected: string } {
  try {
    if (/^https?:$/.test(new URL(raw).protocol)) return { value: raw.replace(/\/+$/, '') };
  } catch {
    /* fall through */
  }
  return { expected: 'an http(s) URL' };
}

const CONVERTERS: Record<SettingType, Converter> = {
  string: (raw, spec) =>
    spec.choices && !spec.choices.includes(raw)
      ? { expected: `one of ${spec.choices.join(', ')}` }
      : { value: raw },
  integer: (raw) => (/^-?\d+$/.test(raw) ? { value: Number(raw) } : { expected: 'an integer' }),
  port: (raw) =>
    /^\d+$/.test(raw) && Number(raw) <= 65535
      ? { value: Number(raw) }
      : { expected: 'a port number 0-65535' },
  boolean: (raw) => {
    if (/^(true|1|yes)$/i.test(raw)) return { value: true };
    if (/^(false|0|no)$/i.test(raw)) return { value: false };
    return { expected: 'true or false' };
  },
  url: convertUrl,
  duration: (raw) => {
    const ms = parseDurationMs(raw);
    return ms === undefined ? { expected: 'a duration such as 500ms, 30s, 15m or 1h' } : { value: ms };
  },
  list: (raw) => ({
    value: raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  }),
};

function convert(spec: SettingSpec, raw: string, origin: string): { value?: SettingValue; problem?: string } {
  const result = CONVERTERS[spec.type](raw, spec);
  return 'expected' in result
    ? { problem: `${origin}=${JSON.stringify(raw)}: expected ${result.expected}` }
    : result;
}

/** The setting's text and where it came from: its flag, else its (non-empty) variable, else the default. */
function rawSetting(
  spec: SettingSpec,
  env: NodeJS.ProcessEnv,
  flags: Record<string, string | undefined>,
): { raw: string | undefined; origin: string } {
  const fromFlag = spec.flag !== undefined ? flags[spec.flag] : undefined;
  if (fromFlag !== undefined) return { raw: fromFlag, origin: `--${spec.flag}` };
  const fromEnv = env[spec.env];
  return { raw: fromEnv !== undefined && fromEnv !== '' ? fromEnv : spec.default, origin: spec.env };
}

/**
 * Resolves every setting from flags (highest), then the environment, then the
 * default. Throws one ConfigError listing every problem.
 */
export function loadSettings<T extends Record<string, SettingSpec>>(
  specs: T,
  env: NodeJS.ProcessEnv = process.env,
  flags: Record<string, string | undefined> = {},
): Settings<T> {
  const out: Record<string, SettingValue> = {};
  const problems: string[] = [];
  for (const key of Object.keys(specs)) {
    const spec = specs[key] as SettingSpec;
    const { raw, origin } = rawSetting(spec, env, flags);
    if (raw === undefined) {
      if (spec.required) problems.push(`${spec.env} is required: ${spec.description}`);
      out[key] = undefined;
      continue;
    }
    const { value, problem } = convert(spec, raw, origin);
    if (problem) problems.push(problem);
    out[key] = value;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as Settings<T>;
}

/**
 * `loadSettings` plus the checks a table cannot express (ranges, one setting
 * against another). Each setting is read on its own and `check` sees those
 * that parsed (a setting that did not is absent, an unset one is undefined),
 * so one bad value never hides a problem with another.
 */
export function loadCheckedSettings<T extends Record<string, SettingSpec>>(
  specs: T,
  env: NodeJS.ProcessEnv,
  flags: Record<string, string | undefined>,
  check: (parsed: Partial<Settings<T>>) => string[],
): Settings<T> {
  const out: Record<string, SettingValue> = {};
  const problems: string[] = [];
  for (const key of Object.keys(specs)) {
    try {
      out[key] = loadSettings({ [key]: specs[key] as SettingSpec }, env, flags)[key];
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems);
    }
  }
  problems.push(...check(out as Partial<Settings<T>>));
  if (problems.length > 0) throw new ConfigError(problems);
  return out as Settings<T>;
}

/** Inclusive bounds of numeric settings, with the wording of the expected range. */
export type SettingBounds<T extends Record<string, SettingSpec>> = Partial<
  Record<keyof T, [min: number, max: number, expected: string]>
>;

/** The settings of `parsed` outside their bounds, each naming its variable and what was expected. */
export function boundsProblems<T extends Record<string, SettingSpec>>(
  specs: T,
  bounds: SettingBounds<T>,
  parsed: Partial<Settings<T>>,
  env: NodeJS.ProcessEnv,
): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(bounds) as (keyof T)[]) {
    const [min, max, expected] = bounds[key] as [number, number, string];
    const value = parsed[key];
    if (typeof value !== 'number' || (value >= min && value <= max)) continue;
    // Bounded settings are read from the environment (none has a flag).
    const name = (specs[key] as SettingSpec).env;
    problems.push(`${name}=${JSON.stringify(env[name])}: expected ${expected}`);
  }
  return problems;
}
