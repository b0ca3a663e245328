// The OAuth providers a credential can be connected with by popup (decision
// 274): configured by the platform's operator, never by API callers, in a
// YAML (or JSON) file named by PLATFORM_OAUTH_PROVIDERS_FILE (the ConfigMap
// `platform-oauth-providers` mounted into the facade). Each provider's client
// secret, when it has one, is a file too (a mounted Secret), read when used.
// Parsing is pure; `providerFile` re-reads the file when it changed.
import { readFile, stat } from 'node:fs/promises';
import { parse } from 'yaml';

export const CALLBACK_PATH = '/v1/scoped-credentials/oauth/callback';
const SERVICE_RE = /^[A-Za-z0-9]([A-Za-z0-9._:/-]*[A-Za-z0-9])?$/;
const SCOPE_TOKEN_RE = /^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const KEYS = new Set([
  'service',
  'display_name',
  'authorization_endpoint',
  'token_endpoint',
  'client_id',
  'client_secret_file',
  'scopes',
  'redirect_uri',
]);

export interface OAuthProvider {
  service: string;
  display_name: string;
  authorization_endpoint: string;
  token_endpoint: string;
  client_id: string;
  /** A file holding the client secret (a mounted Secret); none: a public client. */
  client_secret_file?: string;
  scopes: string[];
  /** The facade's callback as registered with the provider; its origin is the UI's. */
  redirect_uri: string;
}

/** https, or http on a loopback host; no credentials or fragment. */
function endpointProblem(value: unknown, field: string): string | undefined {
  if (typeof value !== 'string' || value.length > 2048) return `${field}: expected a URL`;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return `${field}: expected an absolute URL`;
  }
  const secure = u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname));
  if (!secure) return `${field}: expected https (http only on a loopback host)`;
  if (u.username || u.password || u.hash) return `${field}: no credentials or fragment allowed`;
  return undefined;
}

function redirectProblem(value: unknown): string | undefined {
  const problem = endpointProblem(value, 'redirect_uri');
  if (problem) return problem;
  const u = new URL(value as string);
  if (u.pathname !== CALLBACK_PATH || u.search)
    return `redirect_uri: expected <facade origin>${CALLBACK_PATH}`;
  return undefined;
}

const stringProblem = (value: unknown, field: string, max: number): string | undefined =>
  typeof value === 'string' && value.length > 0 && value.length <= max
    ? undefined
    : `${field}: expected a string of 1 to ${max} characters`;

function scopesProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const ok = Array.isArray(value) && value.length <= 64 && value.every((s) => SCOPE_TOKEN_RE.test(String(s)));
  return ok && value.every((s) => typeof s === 'string')
    ? undefined
    : 'scopes: expected a list of scope tokens';
}

function providerProblems(p: Record<string, unknown>): string[] {
  const unknown = Object.keys(p).filter((k) => !KEYS.has(k));
  return [
    ...unknown.map((k) => `unknown field ${k.slice(0, 40)}`),
    typeof p.service === 'string' && SERVICE_RE.test(p.service) && p.service.length <= 253
      ? undefined
      : 'service: expected a service name (letters, digits, . _ : / -)',
    p.display_name === undefined ? undefined : stringProblem(p.display_name, 'display_name', 120),
    endpointProblem(p.authorization_endpoint, 'authorization_endpoint'),
    endpointProblem(p.token_endpoint, 'token_endpoint'),
    stringProblem(p.client_id, 'client_id', 512),
    p.client_secret_file === undefined
      ? undefined
      : stringProblem(p.client_secret_file, 'client_secret_file', 1024),
    scopesProblem(p.scopes),
    redirectProblem(p.redirect_uri),
  ].filter((x): x is string => x !== undefined);
}

function providerOf(p: Record<string, unknown>): OAuthProvider {
  return {
    service: p.service as string,
    display_name: (p.display_name as string | undefined) ?? (p.service as string),
    authorization_endpoint: p.authorization_endpoint as string,
    token_endpoint: p.token_endpoint as string,
    client_id: p.client_id as string,
    ...(p.client_secret_file ? { client_secret_file: p.client_secret_file as string } : {}),
    scopes: [...new Set((p.scopes as string[] | undefined) ?? [])],
    redirect_uri: p.redirect_uri as string,
  };
}

export type ParsedProviders = { ok: true; providers: OAuthProvider[] } | { ok: false; problems: string[] };

/** The file's text: `{providers: [...]}`; every problem at once, each naming the provider's index. */
export function parseProviders(text: string): ParsedProviders {
  let doc: unknown;
  try {
    doc = parse(text) as unknown;
  } catch {
    return { ok: false, problems: ['not YAML or JSON'] };
  }
  if (doc === null || doc === undefined) return { ok: true, providers: [] };
  const list = (doc as { providers?: unknown }).providers;
  if (typeof doc !== 'object' || (list !== undefined && !Array.isArray(list))) {
    return { ok: false, problems: ['expected an object with a list `providers`'] };
  }
  const entries = (list ?? []) as unknown[];
  const problems: string[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    if (typeof entry !== 'object' || entry === null)
      return problems.push(`providers[${i}]: expected an object`);
    const p = entry as Record<string, unknown>;
    problems.push(...providerProblems(p).map((x) => `providers[${i}]: ${x}`));
    if (seen.has(String(p.service)))
      problems.push(`providers[${i}]: service ${String(p.service)} given twice`);
    seen.add(String(p.service));
    return undefined;
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, providers: entries.map((e) => providerOf(e as Record<string, unknown>)) };
}

export type ProviderSource = () => Promise<ParsedProviders>;

/** The providers of `path`, re-read when its size or modification time changes; none without a path or file. */
export function providerFile(path: string | undefined): ProviderSource {
  let cached: { key: string; parsed: ParsedProviders } | undefined;
  return async () => {
    if (!path) return { ok: true, providers: [] };
    const info = await stat(path).catch(() => undefined);
    if (!info) return { ok: true, providers: [] };
    const key = `${info.size}:${info.mtimeMs}`;
    if (cached?.key !== key) cached = { key, parsed: parseProviders(await readFile(path, 'utf8')) };
    return cached.parsed;
  };
}

/** The client secret of a confidential client (trailing newline dropped); undefined for a public one. */
export async function clientSecretOf(p: OAuthProvider): Promise<string | undefined> {
  if (!p.client_secret_file) return undefined;
  return (await readFile(p.client_secret_file, 'utf8')).replace(/\r?\n$/, '');
}
