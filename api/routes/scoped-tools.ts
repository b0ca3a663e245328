// Scoped tool installs (spec: Scoped tools; decisions 148, 150, 151):
//   GET    /v1/scoped-tools?scope=&scope_id=    the tier's tool installs
//   POST   /v1/scoped-tools                     install (or change the enforcement of) a tool at a tier
//   DELETE /v1/scoped-tools/{id}                remove the install
//   GET    /v1/scoped-tools/effective?agent_id= each tool as available, required or blocked, with auth status
// A workspace refines its organization's policy or adds tools of its own; it
// cannot lift an org block or loosen an org requirement (409). What a tool's
// state does to agents is the catalog's (403 tool_blocked, 409 app_required).
import { conflict, notFound, unprocessable } from '../../base/http-error.ts';
import { formatAgentId } from '../../contract/agent-id.ts';
import type { JSONSchema } from '../../crds/kit.ts';
import type { ScopedToolInstall } from '../../crds/generated/types.ts';
import { findApp, withRegisteredAuditors } from '../catalog/entries.ts';
import { APP_ID } from '../catalog/installs.ts';
import { toolRulings, type ToolEnforcement } from '../catalog/tool-cascade.ts';
import { agentForQuery, checkTier, objectName, placeFor, scopeOf } from '../scoped/access.ts';
import { tierCredentials, tierToolInstalls } from '../scoped/agent-cascade.ts';
import { resolveCredentials } from '../scoped/credential-cascade.ts';
import {
  parseObjectId,
  scopedName,
  toolObject,
  toolView,
  type ScopePlace,
  type ToolInput,
} from '../scoped/objects.ts';
import { effectiveTools, workspaceToolRefusal } from '../scoped/tool-refinement.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { scopeIdQuery, SERVICE } from './scoped-credentials.ts';
import { EFFECTIVE_TOOLS, TOOL_LIST, TOOL_REMOVED, TOOL_VIEW } from './scoped-responses.ts';

const CREATE_BODY: JSONSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['scope', 'scope_id', 'tool'],
  properties: {
    scope: { type: 'string', enum: ['org', 'workspace'] },
    scope_id: { type: 'string', minLength: 1, maxLength: 317 },
    tool: APP_ID,
    enforcement: { type: 'string', enum: ['available', 'required', 'blocked'] },
    service: SERVICE,
    server_url: { type: 'string', maxLength: 2048, format: 'uri', pattern: '^https?://' },
    credential_id: { type: 'string', minLength: 1, maxLength: 317 },
  },
};

interface CreateBody {
  scope: string;
  scope_id: string;
  tool: string;
  enforcement?: ToolEnforcement;
  service?: string;
  server_url?: string;
  credential_id?: string;
}

async function list(rc: RouteCtx): Promise<unknown> {
  const place = await placeFor(rc, scopeOf(rc.query.scope), scopeIdQuery(rc), false);
  const items = (await rc.deps.writer.listToolInstalls(place.namespace))
    .filter((t) => t.spec.scope === place.scope && t.spec.scopeId === place.name)
    .sort((a, b) => a.spec.tool.localeCompare(b.spec.tool))
    .map(toolView);
  return { items };
}

/** Under its organization's ruling on the tool, a workspace may only tighten it (409 otherwise). */
async function refuseLoosening(rc: RouteCtx, place: ScopePlace, tool: string, wanted: ToolEnforcement) {
  if (place.scope !== 'workspace') return;
  const org = (await rc.deps.writer.readWorkspace(place.namespace, place.name))?.spec.organization;
  const home = org ? (await rc.deps.writer.readOrganization(org))?.spec.homeNamespace : undefined;
  if (!org || !home) return;
  const orgTier = { org: { name: org, namespace: home } };
  const ruling = toolRulings(await tierToolInstalls(rc.deps.writer, orgTier), orgTier).get(tool);
  const refusal = workspaceToolRefusal(ruling, wanted);
  if (refusal) throw conflict(refusal.detail, refusal.code);
}

/** The credential `credential_id` names: a ScopedCredential in the tool's own namespace (422 otherwise). */
async function credentialRefOf(
  rc: RouteCtx,
  place: ScopePlace,
  body: CreateBody,
): Promise<string | undefined> {
  if (body.credential_id === undefined) return undefined;
  if (body.enforcement === 'blocked')
    throw unprocessable('a blocked tool carries no credential', 'invalid_credential');
  const ref = parseObjectId(body.credential_id);
  const found =
    ref?.namespace === place.namespace && (await rc.deps.writer.readCredential(ref.namespace, ref.name));
  if (!ref || !found) {
    throw unprocessable(
      `credential_id names no scoped credential of this tier's namespace ${place.namespace}`,
      'unknown_credential',
    );
  }
  return ref.name;
}

async function create(rc: RouteCtx): Promise<unknown> {
  const body = rc.body as CreateBody;
  const place = await placeFor(rc, scopeOf(body.scope), body.scope_id, true);
  const enforcement = body.enforcement ?? 'available';
  const entries = withRegisteredAuditors(rc.deps.catalog.list(), rc.deps.auditors.list());
  if (!findApp(body.tool, entries))
    throw unprocessable(`tool ${body.tool} is not in the catalog`, 'unknown_app');
  await refuseLoosening(rc, place, body.tool, enforcement);
  const credentialRef = await credentialRefOf(rc, place, body);
  const input: ToolInput = {
    tool: body.tool,
    enforcement,
    ...(body.service ? { service: body.service } : {}),
    ...(body.server_url ? { server_url: body.server_url } : {}),
    ...(credentialRef ? { credential_ref: credentialRef } : {}),
  };
  const existing = await rc.deps.writer.readToolInstall(
    place.namespace,
    scopedName('tool', place, body.tool),
  );
  const saved = await rc.deps.writer.applyToolInstall(
    toolObject(place, input, existing?.metadata.resourceVersion),
  );
  if (existing) rc.status = 200;
  rc.audit.details = { tool: body.tool, enforcement, created: !existing };
  return toolView(saved);
}

async function remove(rc: RouteCtx): Promise<unknown> {
  const id = rc.params.id ?? '';
  const { namespace, name } = objectName(id, 'scoped tool');
  rc.audit = { resource: `scopedtoolinstalls/${name}`, namespace };
  const tool: ScopedToolInstall | undefined = await rc.deps.writer.readToolInstall(namespace, name);
  if (!tool) throw notFound(`scoped tool ${id.slice(0, 80)} not found`);
  checkTier(rc, { scope: tool.spec.scope, namespace }, true);
  if (!(await rc.deps.writer.deleteToolInstall(namespace, name)))
    throw notFound(`scoped tool ${id} not found`);
  rc.audit.details = { tool: tool.spec.tool };
  return { id: formatAgentId({ namespace, name }), tool: tool.spec.tool, removed: true };
}

async function effective(rc: RouteCtx): Promise<unknown> {
  const { id, tiers } = await agentForQuery(rc);
  const [installs, creds] = await Promise.all([
    tierToolInstalls(rc.deps.writer, tiers),
    tierCredentials(rc.deps.writer, tiers),
  ]);
  return { agent_id: id, items: effectiveTools(installs, tiers, resolveCredentials(creds, tiers)) };
}

export const SCOPED_TOOL_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/scoped-tools/effective',
    action: 'scoped.effective.read',
    summary: 'Each tool a tier above the agent rules on: available, required or blocked, with auth status',
    success: 200,
    response: EFFECTIVE_TOOLS,
    query: { agent_id: '<namespace>.<name> of the agent (required)' },
    handle: effective,
  },
  {
    method: 'GET',
    path: '/v1/scoped-tools',
    action: 'scoped.list',
    summary: "A tier's tool installs",
    success: 200,
    response: TOOL_LIST,
    query: {
      scope: 'org | workspace (required)',
      scope_id: 'the org name, or <namespace>.<workspace> (required)',
    },
    handle: list,
  },
  {
    method: 'POST',
    path: '/v1/scoped-tools',
    action: 'scoped.write',
    summary: 'Install a tool at org or workspace scope as available, required or blocked (again: changes it)',
    success: 201,
    response: TOOL_VIEW,
    otherSuccess: { 200: TOOL_VIEW },
    body: CREATE_BODY,
    handle: create,
  },
  {
    method: 'DELETE',
    path: '/v1/scoped-tools/{id}',
    action: 'scoped.write',
    summary: 'Remove a tool install from its tier',
    success: 200,
    response: TOOL_REMOVED,
    handle: remove,
  },
];
