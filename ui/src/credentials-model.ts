// Credentials and tools per tier, the pure part: the API's shapes, the query
// a tier page sends, the words for auth status, sharing modes, withheld
// credentials and tool enforcement, the connect form's checks (never the
// secret's value in a message), a tier's tool rows, and the OAuth popup's
// message and session outcomes.
import type { SettingsScope } from './route.ts';
import type { ScopesView } from './scopes-model.ts';

export type Tier = SettingsScope;
export type SharingMode = 'inherit' | 'enforce' | 'isolated';
export type Enforcement = 'available' | 'required' | 'blocked';

export interface CredentialView {
  id: string;
  scope: 'org' | 'workspace';
  scope_id: string;
  service: string;
  type: 'oauth_token' | 'api_key' | 'oauth_flow';
  sharing_mode: SharingMode;
  auth_status: string;
  destinations: string[];
  created_at: string | null;
  last_rotated_at: string | null;
}

export interface EffectiveCredentials {
  agent_id: string;
  items: { service: string; enforced: boolean; credential: CredentialView }[];
  withheld: { reason: string; credential: CredentialView }[];
}

export interface ToolView {
  id: string;
  scope: 'org' | 'workspace';
  scope_id: string;
  tool: string;
  enforcement: Enforcement;
}

export interface EffectiveToolView {
  tool: string;
  state: Enforcement;
  scope: 'org' | 'workspace';
  scope_id: string;
  auth_status: string | null;
  tiers: { org?: Enforcement; workspace?: Enforcement };
  conflict?: string;
}

/** `scope` and `scope_id` of an org or workspace tier (an agent holds no credentials of its own). */
export function tierParams(t: Tier): { scope: 'org' | 'workspace'; scope_id: string } | undefined {
  if (t.scope === 'org') return { scope: 'org', scope_id: t.organization };
  if (t.scope === 'workspace') return { scope: 'workspace', scope_id: `${t.namespace}.${t.workspace}` };
  return undefined;
}

export const tierQuery = (t: Tier): string =>
  new URLSearchParams(tierParams(t) ?? { agent_id: (t as { agent_id: string }).agent_id }).toString();

/** "organization acme", "workspace team.research": where a credential or ruling lives. */
export const placeWords = (scope: 'org' | 'workspace', scopeId: string): string =>
  scope === 'org' ? `organization ${scopeId}` : `workspace ${scopeId.replace('.', '/')}`;

const AUTH_WORDS: Record<string, string> = {
  connected: 'Connected',
  pending: 'Waiting for its secret',
  expired: 'Expired: rotate it',
  revoked: 'Revoked at the provider',
  error: 'Error: the secret could not be read',
};
export const authWords = (s: string | null | undefined): string =>
  s ? (AUTH_WORDS[s] ?? s) : 'No credential applies';

const SHARING_WORDS: Record<SharingMode, string> = {
  inherit: 'Shared: lower tiers inherit it unless they hold their own',
  enforce: 'Enforced: lower tiers must use it',
  isolated: 'Isolated: never reaches an agent',
};
export const sharingWords = (m: SharingMode): string => SHARING_WORDS[m] ?? m;

const WITHHELD_WORDS: Record<string, string> = {
  isolated: 'it is isolated and never reaches an agent',
  enforced_above: 'the organization enforces its own credential for this service',
  overridden: 'the workspace holds its own credential for this service',
  duplicate: 'another credential of the same tier applies to this service',
};
export const withheldWords = (reason: string): string => WITHHELD_WORDS[reason] ?? reason;

export const TYPE_WORDS: Record<CredentialView['type'], string> = {
  api_key: 'API key',
  oauth_token: 'OAuth token',
  oauth_flow: 'OAuth connection',
};

const SERVICE = /^[A-Za-z0-9]([A-Za-z0-9._:/-]*[A-Za-z0-9])?$/;
const HOST = /^(\*\.)?[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$/;

/** Hosts typed as a list (commas, spaces or lines), deduplicated, lower-cased. */
export const parseHosts = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\s,]+/)
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  ),
];

export interface ConnectDraft {
  service: string;
  sharing_mode: SharingMode;
  destinations: string;
  material: string;
}

export type DraftProblems = Partial<Record<keyof ConnectDraft, string>>;

/** Why the connect form cannot be sent yet, per field ({} when it can). Never quotes the secret. */
export function connectProblems(d: ConnectDraft, needsMaterial = true): DraftProblems {
  const p: DraftProblems = {};
  const service = d.service.trim();
  if (service === '') p.service = 'Enter the service, for example github or jira.';
  else if (service.length > 253 || !SERVICE.test(service))
    p.service = 'Letters, digits and . _ : / - only, starting and ending with a letter or digit.';
  const bad = parseHosts(d.destinations).filter((h) => h.length > 253 || !HOST.test(h));
  if (bad.length > 0) p.destinations = `Not a host name: ${bad.join(', ')}.`;
  else if (parseHosts(d.destinations).length > 32) p.destinations = 'At most 32 hosts.';
  if (needsMaterial && d.material === '') p.material = 'Enter the API key.';
  else if (d.material.length > 16384) p.material = 'The key is longer than 16,384 characters.';
  return p;
}

/** The body of POST /v1/scoped-credentials for an API key (with material) or an OAuth start (without). */
export function connectBody(t: Tier, d: ConnectDraft, material: boolean): Record<string, unknown> {
  const hosts = parseHosts(d.destinations);
  return {
    ...tierParams(t),
    service: d.service.trim(),
    sharing_mode: d.sharing_mode,
    ...(hosts.length > 0 ? { destinations: hosts } : {}),
    ...(material ? { type: 'api_key', material: d.material } : {}),
  };
}

/** Which field a refused connect concerns, from the server's code or detail. */
export function fieldOfError(code: string | undefined, detail: string): keyof ConnectDraft | undefined {
  if (code === 'credential_enforced' || code === 'credential_exists') return 'service';
  if (code === 'material_required') return 'material';
  if (/destinations/.test(detail)) return 'destinations';
  if (/service/.test(detail)) return 'service';
  if (/material/.test(detail)) return 'material';
  return undefined;
}

export interface ToolRow {
  app_id: string;
  name: string;
  category: string;
  /** This tier's own install, if any. */
  install?: ToolView;
}

/** Every catalog app with this tier's own ruling on it: ruled ones first, then by name. */
export function toolRows(
  apps: readonly { app_id: string; name: string; category: string }[],
  installs: readonly ToolView[],
): ToolRow[] {
  const own = new Map(installs.map((i) => [i.tool, i]));
  const known = new Set(apps.map((a) => a.app_id));
  const rows: ToolRow[] = apps.map((a) => {
    const install = own.get(a.app_id);
    return { app_id: a.app_id, name: a.name, category: a.category, ...(install ? { install } : {}) };
  });
  for (const i of installs)
    if (!known.has(i.tool))
      rows.push({ app_id: i.tool, name: i.tool, category: 'Not in the catalog', install: i });
  return rows.sort((a, b) => Number(!a.install) - Number(!b.install) || a.name.localeCompare(b.name));
}

export const ENFORCEMENT_WORDS: Record<Enforcement, string> = {
  available: 'Available',
  required: 'Required',
  blocked: 'Blocked',
};

/** Where an agent's tool ruling comes from, with each tier's own ruling. */
export function rulingWords(t: EffectiveToolView): string {
  const parts = (['org', 'workspace'] as const)
    .filter((k) => t.tiers[k])
    .map((k) => `${k === 'org' ? 'organization' : 'workspace'}: ${t.tiers[k]}`);
  const from = `from the ${placeWords(t.scope, t.scope_id)}`;
  return parts.length > 1 ? `${from} (${parts.join(', ')})` : from;
}

export interface OAuthOutcome {
  status: 'pending' | 'connected' | 'error';
  credential_id?: string;
  error?: { code?: string; message: string };
}

const outcomeOf = (v: Record<string, unknown>): OAuthOutcome | undefined => {
  const status = v.status;
  if (status !== 'pending' && status !== 'connected' && status !== 'error') return undefined;
  const err = v.error as { code?: unknown; message?: unknown } | undefined;
  const message = typeof err?.message === 'string' ? err.message : 'the provider refused the connection';
  return {
    status,
    ...(typeof v.credential_id === 'string' ? { credential_id: v.credential_id } : {}),
    ...(status === 'error'
      ? { error: { message, ...(typeof err?.code === 'string' ? { code: err.code } : {}) } }
      : {}),
  };
};

/** The popup's postMessage, if it is ours (type platform-oauth, the state we started) and well formed. */
export function oauthMessage(data: unknown, state: string): OAuthOutcome | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const v = data as Record<string, unknown>;
  if (v.type !== 'platform-oauth' || v.state !== state) return undefined;
  const o = outcomeOf(v);
  return o?.status === 'pending' ? undefined : o;
}

/** GET /v1/scoped-credentials/oauth/sessions/{state}'s answer as an outcome. */
export const oauthSession = (body: unknown): OAuthOutcome | undefined =>
  typeof body === 'object' && body !== null ? outcomeOf(body as Record<string, unknown>) : undefined;

export function oauthWords(o: OAuthOutcome, service: string): string {
  if (o.status === 'connected') return `Connected to ${service}.`;
  if (o.status === 'pending') return `Waiting for ${service} to answer in the sign-in window…`;
  const m = o.error?.message.trim() ?? '';
  return `${service} was not connected: ${m}${/[.!?]$/.test(m) ? '' : '.'}`;
}

/** Whether GET /v1/scopes says the caller may change tier `t`; undefined when it does not list it. */
export function canWriteTier(scopes: ScopesView | undefined, t: Tier): boolean | undefined {
  if (!scopes) return undefined;
  if (t.scope === 'org') return scopes.organizations.find((o) => o.name === t.organization)?.can_write;
  if (t.scope === 'workspace')
    return scopes.workspaces.find((w) => w.namespace === t.namespace && w.name === t.workspace)?.can_write;
  return undefined;
}
