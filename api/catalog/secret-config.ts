// Secrets in an install's configuration overrides, pure (decision 127): an
// override whose key names a secret (password, secret, token, apiKey,
// privateKey, credentials, …) or whose value looks like one (a bearer token,
// a PEM private key, a well-known token format, a JWT) is refused, since
// secrets belong in ScopedCredentials; what was stored past the API is
// redacted before the API shows it.

/** Last words of a key that name a secret (`access_token`, `clientSecret`, `db-password`). */
const SECRET_LAST_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'credential',
  'credentials',
  'apikey',
  'privatekey',
  'authorization',
  'bearer',
  'cookie',
]);

const SECRET_VALUES: readonly RegExp[] = [
  /^\s*bearer\s+\S{8,}/i,
  /^\s*basic\s+[a-z0-9+/=]{8,}\s*$/i,
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/,
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}/,
  /\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bglpat-[A-Za-z0-9_-]{16,}/,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/,
];

/** The words of a key: camelCase, snake_case, kebab-case and dotted split, lower-cased. */
function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** Whether a key names a secret: its last word, or its last two joined (`api_key`, `private-key`). */
export function isSecretKey(key: string): boolean {
  const w = words(key);
  const last = w.at(-1) ?? '';
  const lastTwo = w.slice(-2).join('');
  return SECRET_LAST_WORDS.has(last) || SECRET_LAST_WORDS.has(lastTwo);
}

export const isSecretValue = (value: string): boolean => SECRET_VALUES.some((re) => re.test(value));

const MAX_DEPTH = 16;
const childPath = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** Children of an object or array, with their paths. */
function children(value: unknown, path: string): [string, string, unknown][] {
  if (Array.isArray(value)) return value.map((v, i) => [`${path}[${i}]`, '', v]);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).map(([k, v]) => [childPath(path, k), k, v]);
  }
  return [];
}

const hasValue = (v: unknown): boolean => v !== null && v !== undefined && v !== '';
/** An override whose key names a secret and that holds something (an empty one is harmless). */
const namesSecret = (key: string, v: unknown): boolean => key !== '' && isSecretKey(key) && hasValue(v);

/**
 * The path of the first override that is or names a secret (`auth.token`,
 * `headers[0]`), or undefined. The value itself is never returned.
 */
export function secretInConfiguration(value: unknown): string | undefined {
  return secretAt(value, '', 0);
}

function secretAt(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === 'string') return isSecretValue(value) ? path || '(value)' : undefined;
  if (depth > MAX_DEPTH) return undefined;
  for (const [at, key, child] of children(value, path)) {
    const found = namesSecret(key, child) ? at : secretAt(child, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

export const REDACTED = '[redacted]';

/** The configuration with every secret-looking override replaced by `[redacted]`. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return isSecretValue(value) ? REDACTED : value;
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, namesSecret(k, v) ? REDACTED : redactSecrets(v, depth + 1)]),
  );
}
