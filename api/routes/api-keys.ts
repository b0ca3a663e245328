// /v1/api-keys: mint, list, revoke. Anyone may mint user keys for
// themselves; keys for other subjects or with administrator roles need an
// org administrator. The plaintext key is returned once, at minting.
import type { ApiKeyRecord, MintRequest } from '../auth/key-store.ts';
import { API_KEY_ID_RE } from '../auth/api-key-format.ts';
import { KEY_ROLES, type KeyRole, type Principal } from '../auth/principal.ts';
import { badRequest, forbidden, notFound } from '../../base/http-error.ts';
import { bodyOf, type RouteCtx, type RouteSpec } from './route.ts';
import { API_KEY_LIST, API_KEY_MINTED, WHOAMI } from './responses.ts';

const MINT_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    subject: { type: 'string', minLength: 1, maxLength: 256, pattern: '^[^\\s,]+$' },
    role: { enum: [...KEY_ROLES] },
    workspaces: {
      type: 'array',
      maxItems: 64,
      items: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$' },
    },
    description: { type: 'string', maxLength: 1024 },
    expires_at: { type: 'string', format: 'date-time' },
  },
};

interface MintBody {
  subject?: string;
  role?: KeyRole;
  workspaces?: string[];
  description?: string;
  expires_at?: string;
}

/** Throws 403 unless the caller may mint this key: anyone a user key for themself, an org admin any key. */
function assertMayMint(p: Principal, subject: string, role: KeyRole): void {
  if (p.orgAdmin || (subject === p.subject && role === 'user')) return;
  throw forbidden('only an org administrator mints keys for other subjects or with administrator roles');
}

/** The key's expiry, normalized; throws 400 unless it is in the future. */
function expiryOf(expiresAt: string | undefined, nowMs: number): { expiresAt?: string } {
  if (expiresAt === undefined) return {};
  const ms = Date.parse(expiresAt);
  if (ms <= nowMs) throw badRequest('expires_at must be in the future');
  return expiresAt ? { expiresAt: new Date(ms).toISOString() } : {};
}

/** Roles that may be limited to workspaces; a gateway key then submits Evidence only for their agents. */
const SCOPED_ROLES: ReadonlySet<KeyRole> = new Set<KeyRole>(['workspace_admin', 'gateway']);

/** Pure: what the caller may mint; throws 403/400 otherwise. */
export function mintRequestFor(p: Principal, body: MintBody, nowMs: number): MintRequest {
  const subject = body.subject ?? p.subject;
  const role = body.role ?? 'user';
  assertMayMint(p, subject, role);
  const workspaces = body.workspaces ?? [];
  if (role === 'workspace_admin' && workspaces.length === 0) {
    throw badRequest('a workspace_admin key names its workspaces (namespaces)');
  }
  const expiry = expiryOf(body.expires_at, nowMs);
  return {
    subject,
    role,
    workspaces: SCOPED_ROLES.has(role) ? workspaces : [],
    description: body.description ?? '',
    ...expiry,
  };
}

const view = (r: ApiKeyRecord): Record<string, unknown> => ({
  id: r.id,
  subject: r.subject,
  role: r.role,
  workspaces: r.workspaces,
  agents: r.agents ?? [],
  description: r.description,
  created_by: r.createdBy,
  created_at: r.createdAt,
  expires_at: r.expiresAt ?? null,
});

async function mint(rc: RouteCtx): Promise<unknown> {
  const request = mintRequestFor(rc.principal, bodyOf<MintBody | undefined>(rc) ?? {}, rc.deps.now());
  const { key, record } = await rc.deps.keys.mint(request, rc.principal.subject);
  rc.audit = { resource: `apikey:${record.id}`, details: { subject: record.subject, role: record.role } };
  return { ...view(record), key };
}

function list(rc: RouteCtx): Promise<unknown> {
  const mine = (r: ApiKeyRecord): boolean => rc.principal.orgAdmin || r.subject === rc.principal.subject;
  rc.audit = { resource: 'apikeys' };
  return Promise.resolve({ items: rc.deps.keys.list().filter(mine).map(view) });
}

async function revoke(rc: RouteCtx): Promise<unknown> {
  const id = rc.params.id ?? '';
  if (!API_KEY_ID_RE.test(id)) throw badRequest('invalid key id: expected 16 hex characters', 'invalid_id');
  rc.audit = { resource: `apikey:${id}` };
  const record = rc.deps.keys.find(id) ?? (await rc.deps.keys.lookup(id));
  if (!record || (!rc.principal.orgAdmin && record.subject !== rc.principal.subject)) {
    throw notFound(`no API key ${id} of yours`);
  }
  await rc.deps.keys.revoke(id);
  return undefined;
}

/** Who the credential is: the UI shows it and picks the consent cards waiting for this subject. */
function whoami(rc: RouteCtx): Promise<unknown> {
  const p = rc.principal;
  rc.audit = { resource: 'whoami' };
  return Promise.resolve({
    subject: p.subject,
    method: p.method,
    org_admin: p.orgAdmin,
    workspace_admin_of: [...p.workspaceAdminOf],
  });
}

export const API_KEY_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: '/v1/api-keys',
    action: 'apikey.mint',
    summary: 'Mint an API key (returned once)',
    success: 201,
    response: API_KEY_MINTED,
    body: MINT_BODY,
    optionalBody: true,
    handle: mint,
  },
  {
    method: 'GET',
    path: '/v1/api-keys',
    action: 'apikey.list',
    summary: 'Your keys (all keys for org administrators)',
    success: 200,
    response: API_KEY_LIST,
    handle: list,
  },
  {
    method: 'DELETE',
    path: '/v1/api-keys/{id}',
    action: 'apikey.revoke',
    summary: 'Revoke a key',
    success: 204,
    handle: revoke,
  },
  {
    method: 'GET',
    path: '/v1/whoami',
    action: 'whoami.read',
    summary: 'Who the caller is: subject, authentication method and administrator grants',
    success: 200,
    response: WHOAMI,
    handle: whoami,
  },
];
