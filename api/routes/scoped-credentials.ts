// Scoped credentials (spec: Scoped credentials; decisions 148, 149, 151):
//   GET    /v1/scoped-credentials?scope=&scope_id=   the tier's credentials (metadata only)
//   POST   /v1/scoped-credentials                    connect: a ScopedCredential and its encrypted Secret
//   DELETE /v1/scoped-credentials/{id}               revoke: the credential and its Secret
//   POST   /v1/scoped-credentials/{id}/rotate        new material in the same Secret
//   (POST  /v1/scoped-credentials/{id}/reconnect     new OAuth tokens by popup: ./scoped-oauth.ts)
//   GET    /v1/scoped-credentials/effective?agent_id= the cascade resolved for one agent
// The material is read from the body, encrypted and written; it is never in
// an answer, a log line, an audit entry or an error.
import { badRequest, conflict, notFound, unprocessable } from '../../base/http-error.ts';
import { apiStatus } from '../../base/kube.ts';
import { HOST_PATTERN } from '../../crds/schema/parts.ts';
import type { JSONSchema } from '../../crds/kit.ts';
import type { ScopedCredential } from '../../crds/generated/types.ts';
import type { Keyring } from '../../base/crypto/envelope.ts';
import type * as k8s from '@kubernetes/client-node';
import { agentForQuery, checkTier, objectName, placeFor, scopeOf } from '../scoped/access.ts';
import { tierCredentials } from '../scoped/agent-cascade.ts';
import {
  resolveCredentials,
  workspaceCredentialRefusal,
  type SharingMode,
} from '../scoped/credential-cascade.ts';
import {
  credentialObject,
  credentialView,
  materialSecret,
  type CredentialInput,
  type CredentialType,
  type ScopePlace,
} from '../scoped/objects.ts';
import { stringQuery } from '../http/validate.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import {
  CREDENTIAL_LIST,
  CREDENTIAL_REVOKED,
  CREDENTIAL_VIEW,
  EFFECTIVE_CREDENTIALS,
} from './scoped-responses.ts';

const MATERIAL: JSONSchema = { type: 'string', minLength: 1, maxLength: 16384 };
export const SERVICE: JSONSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9]([A-Za-z0-9._:/-]*[A-Za-z0-9])?$',
};

export const CREATE_BODY: JSONSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['scope', 'scope_id', 'service'],
  properties: {
    scope: { type: 'string', enum: ['org', 'workspace'] },
    scope_id: { type: 'string', minLength: 1, maxLength: 317 },
    service: SERVICE,
    type: { type: 'string', enum: ['oauth_token', 'api_key', 'oauth_flow'] },
    sharing_mode: { type: 'string', enum: ['inherit', 'enforce', 'isolated'] },
    material: MATERIAL,
    destinations: {
      type: 'array',
      maxItems: 32,
      uniqueItems: true,
      items: { type: 'string', maxLength: 253, pattern: HOST_PATTERN },
    },
  },
};

const ROTATE_BODY: JSONSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['material'],
  properties: { material: MATERIAL },
};

interface CreateBody {
  scope: string;
  scope_id: string;
  service: string;
  type?: CredentialType;
  sharing_mode?: SharingMode;
  material?: string;
  destinations?: string[];
}

/** The `scope_id` query parameter, required. */
export function scopeIdQuery(rc: RouteCtx): string {
  const id = stringQuery(rc.query, 'scope_id', 317);
  if (!id) throw badRequest('query scope_id is required', 'invalid_query');
  return id;
}

async function list(rc: RouteCtx): Promise<unknown> {
  const place = await placeFor(rc, scopeOf(rc.query.scope), scopeIdQuery(rc), false);
  const items = (await rc.deps.writer.listCredentials(place.namespace))
    .filter((c) => c.spec.scope === place.scope && c.spec.scopeId === place.name)
    .sort((a, b) => a.spec.service.localeCompare(b.spec.service))
    .map(credentialView);
  return { items };
}

/** A workspace may not hold a credential for a service its organization enforces (409). */
export async function refuseUnderEnforce(rc: RouteCtx, place: ScopePlace, service: string): Promise<void> {
  if (place.scope !== 'workspace') return;
  const ws = await rc.deps.writer.readWorkspace(place.namespace, place.name);
  const org = ws?.spec.organization;
  const home = org ? (await rc.deps.writer.readOrganization(org))?.spec.homeNamespace : undefined;
  if (!org || !home) return;
  const orgCreds = await tierCredentials(rc.deps.writer, { org: { name: org, namespace: home } });
  const refusal = workspaceCredentialRefusal(
    orgCreds.filter((c) => c.spec.scope === 'org' && c.spec.scopeId === org),
    service,
  );
  if (refusal) throw conflict(refusal, 'credential_enforced');
}

export async function createOnce(rc: RouteCtx, cred: ScopedCredential): Promise<ScopedCredential> {
  try {
    return await rc.deps.writer.createCredential(cred);
  } catch (err) {
    if (apiStatus(err) !== 409) throw err;
    throw conflict(
      `this tier already holds a credential for service ${cred.spec.service} (${cred.metadata.namespace}.${cred.metadata.name}); rotate it or revoke it first`,
      'credential_exists',
    );
  }
}

/** Writes the material's Secret; without it no credential is left behind. */
async function storeMaterial(rc: RouteCtx, created: ScopedCredential, material: string): Promise<void> {
  const keyring = await rc.deps.keyring();
  try {
    await rc.deps.writer.putSecret(materialSecret(created, keyring, material));
  } catch (err) {
    await rc.deps.writer.deleteCredential(created.metadata.namespace ?? '', created.metadata.name ?? '');
    throw err;
  }
}

function credentialInput(body: CreateBody): CredentialInput {
  return {
    service: body.service,
    type: body.type ?? 'api_key',
    sharing_mode: body.sharing_mode ?? 'inherit',
    ...(body.destinations ? { destinations: body.destinations } : {}),
    hasMaterial: body.material !== undefined,
  };
}

async function create(rc: RouteCtx): Promise<unknown> {
  const body = rc.body as CreateBody;
  const place = await placeFor(rc, scopeOf(body.scope), body.scope_id, true);
  const input = credentialInput(body);
  if (input.type !== 'oauth_flow' && body.material === undefined) {
    throw unprocessable(`a credential of type ${input.type} needs its material`, 'material_required');
  }
  await refuseUnderEnforce(rc, place, body.service);
  // The keyring first: when it is unavailable (503), nothing is written.
  if (body.material !== undefined) await rc.deps.keyring();
  const created = await createOnce(rc, credentialObject(place, input));
  rc.audit.details = {
    service: body.service,
    sharing_mode: input.sharing_mode,
    credential: created.metadata.name,
  };
  if (body.material !== undefined) await storeMaterial(rc, created, body.material);
  return credentialView(created);
}

/** The credential `{id}` names, if the caller may change its tier. */
export async function ownCredential(rc: RouteCtx): Promise<ScopedCredential> {
  const { namespace, name } = objectName(rc.params.id ?? '', 'scoped credential');
  rc.audit = { resource: `scopedcredentials/${name}`, namespace };
  const cred = await rc.deps.writer.readCredential(namespace, name);
  if (!cred) throw notFound(`scoped credential ${(rc.params.id ?? '').slice(0, 80)} not found`);
  checkTier(rc, { scope: cred.spec.scope, namespace }, true);
  return cred;
}

async function revoke(rc: RouteCtx): Promise<unknown> {
  const cred = await ownCredential(rc);
  const namespace = cred.metadata.namespace ?? '';
  await rc.deps.writer.deleteCredential(namespace, cred.metadata.name ?? '');
  const secret = cred.spec.secretRef?.name;
  if (secret) {
    // Owned by the credential: the garbage collector removes it if this fails.
    await rc.deps.writer.deleteSecret(namespace, secret).catch((err: unknown) => {
      rc.deps.log.warn(
        { err: String(err), secret: `${namespace}/${secret}` },
        'credential Secret not deleted',
      );
    });
  }
  rc.audit.details = { service: cred.spec.service };
  return { id: rc.params.id, service: cred.spec.service, revoked: true };
}

/**
 * Replaces a credential's material (rotate, and an OAuth reconnect's new tokens):
 * its Secret rewritten, the credential connected and stamped rotated now.
 */
export async function replaceMaterial(
  rc: Pick<RouteCtx, 'deps'>,
  found: ScopedCredential,
  secretFor: (cred: ScopedCredential, keyring: Keyring) => k8s.V1Secret,
): Promise<ScopedCredential> {
  let cred = found;
  const keyring = await rc.deps.keyring();
  const namespace = cred.metadata.namespace ?? '';
  const name = cred.metadata.name ?? '';
  if (!cred.spec.secretRef) {
    // An OAuth flow credential gets its first material: it now names the Secret.
    cred = await rc.deps.writer.mergeCredential(namespace, name, {
      spec: { secretRef: { name, key: 'material' } },
    });
  }
  await rc.deps.writer.putSecret(secretFor(cred, keyring));
  const status = { authStatus: 'connected' as const, lastRotatedTime: new Date(rc.deps.now()).toISOString() };
  await rc.deps.writer.mergeCredentialStatus(namespace, name, status);
  return { ...cred, status: { ...cred.status, ...status } };
}

async function rotate(rc: RouteCtx): Promise<unknown> {
  const { material } = rc.body as { material: string };
  const cred = await ownCredential(rc);
  const rotated = await replaceMaterial(rc, cred, (c, keyring) => materialSecret(c, keyring, material));
  rc.audit.details = { service: cred.spec.service, rotated: true };
  return credentialView(rotated);
}

async function effective(rc: RouteCtx): Promise<unknown> {
  const { id, tiers } = await agentForQuery(rc);
  const r = resolveCredentials(await tierCredentials(rc.deps.writer, tiers), tiers);
  return {
    agent_id: id,
    items: [...r.effective.values()].map((e) => ({
      service: e.service,
      enforced: e.enforced,
      credential: credentialView(e.credential),
    })),
    withheld: r.withheld.map((w) => ({ reason: w.reason, credential: credentialView(w.credential) })),
  };
}

export const SCOPED_CREDENTIAL_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/scoped-credentials/effective',
    action: 'scoped.effective.read',
    summary: 'Which credential applies to an agent for each service, after the org → workspace cascade',
    success: 200,
    response: EFFECTIVE_CREDENTIALS,
    query: { agent_id: '<namespace>.<name> of the agent (required)' },
    handle: effective,
  },
  {
    method: 'GET',
    path: '/v1/scoped-credentials',
    action: 'scoped.list',
    summary: "A tier's scoped credentials: metadata only, never the material",
    success: 200,
    response: CREDENTIAL_LIST,
    query: {
      scope: 'org | workspace (required)',
      scope_id: 'the org name, or <namespace>.<workspace> (required)',
    },
    handle: list,
  },
  {
    method: 'POST',
    path: '/v1/scoped-credentials',
    action: 'scoped.write',
    summary: 'Connect a credential at org or workspace scope; its material is encrypted and never returned',
    success: 201,
    response: CREDENTIAL_VIEW,
    body: CREATE_BODY,
    handle: create,
  },
  {
    method: 'POST',
    path: '/v1/scoped-credentials/{id}/rotate',
    action: 'scoped.write',
    summary: "Replace a credential's material",
    success: 200,
    response: CREDENTIAL_VIEW,
    body: ROTATE_BODY,
    handle: rotate,
  },
  {
    method: 'DELETE',
    path: '/v1/scoped-credentials/{id}',
    action: 'scoped.write',
    summary: 'Revoke a credential: it and its material are deleted',
    success: 200,
    response: CREDENTIAL_REVOKED,
    handle: revoke,
  },
];
