// The CLI's local configuration file: the Verifier's address and the API key
// `platform login` minted. It holds a secret, so it is written with mode 0600
// in a 0700 directory, atomically (a temporary file renamed into place).
// PLATFORM_API_KEY and PLATFORM_SERVER override what it says.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { usageError } from './errors.ts';

export const DEFAULT_SERVER = 'http://127.0.0.1:8000';

export interface CliConfig {
  server?: string;
  api_key?: string;
  key_id?: string;
  subject?: string;
  expires_at?: string | null;
}

type Env = Record<string, string | undefined>;

/** `$PLATFORM_CONFIG`, else `$XDG_CONFIG_HOME/platform/config.yaml`, else `~/.config/platform/config.yaml`. */
export function configPath(env: Env = process.env): string {
  if (env.PLATFORM_CONFIG) return env.PLATFORM_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'platform', 'config.yaml');
}

const FIELDS = ['server', 'api_key', 'key_id', 'subject', 'expires_at'] as const;

function parseYaml(path: string, text: string): unknown {
  try {
    return parse(text);
  } catch {
    throw usageError(`${path} is not valid YAML`, 'fix it or run `platform logout` to remove it');
  }
}

/** The configuration file's contents; an absent file is an empty configuration. */
export function readConfig(path: string): CliConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw usageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const doc = parseYaml(path, text);
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw usageError(`${path} is not a YAML mapping`);
  const out: CliConfig = {};
  for (const f of FIELDS) {
    const v = (doc as Record<string, unknown>)[f];
    if (typeof v === 'string') out[f] = v;
  }
  return out;
}

export function writeConfig(path: string, config: CliConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, stringify(config), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

export function removeConfig(path: string): boolean {
  try {
    rmSync(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

export interface ResolvedTarget {
  server: string;
  apiKey?: string;
  /** Where the key came from, for the 401 hint. */
  keySource: 'env' | 'config' | 'none';
}

/** The server and key a command uses: flag, then environment, then the configuration file. */
export function resolveTarget(flags: { server?: string }, env: Env, config: CliConfig): ResolvedTarget {
  const server = (flags.server ?? env.PLATFORM_SERVER ?? config.server ?? DEFAULT_SERVER).replace(/\/+$/, '');
  try {
    const u = new URL(server);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw usageError(
      `invalid server address '${server}'`,
      'give an http:// or https:// URL, e.g. --server http://127.0.0.1:8000',
    );
  }
  if (env.PLATFORM_API_KEY) return { server, apiKey: env.PLATFORM_API_KEY, keySource: 'env' };
  if (config.api_key) return { server, apiKey: config.api_key, keySource: 'config' };
  return { server, keySource: 'none' };
}
