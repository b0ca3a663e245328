// AuditorPolicies (CLARIFICATIONS "policies") and presets:
//   GET/POST /v1/policies, GET/PUT/DELETE /v1/policies/{id}
//   GET  /v1/policies/{id}/effective          the chain a Gateway evaluates
//   POST /api/v1/workspaces/{id}/apply-preset {auditor, tier} | {bundle}
// A policy id is `<namespace>.<name>` of its AuditorPolicy. The route table
// admits administrators; here the namespace is checked: an org administrator
// writes anywhere, a workspace administrator writes workspace-scope policies
// in the namespaces it administers and reads org policies (they constrain it).
// Saving checks enforcement modes: 422 `{detail}` with the same message the
// AuditorPolicy admission webhook gives.
import {
  applyPresetTo,
  createPolicy,
  deletePolicy,
  effectivePolicy,
  existingPolicy,
  POLICY_ID,
  updatePolicy,
  type PresetRequest,
} from '../../policy/service.ts';
import { BUNDLES, PRESET_TIERS, PRESETS } from '../../policy/presets.ts';
import type { PolicyRecord } from '../../policy/types.ts';
import type { Principal } from '../auth/principal.ts';
import { forbidden } from '../../base/http-error.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { EFFECTIVE_POLICY, POLICY_RECORD, POLICY_LIST, PRESET_APPLIED } from './responses.ts';

const namespaceOf = (id: string): string => id.slice(0, Math.max(0, id.indexOf('.')));

function mayRead(p: Principal, policy: PolicyRecord): boolean {
  return (
    p.orgAdmin ||
    p.gateway === true ||
    policy.spec.scope === 'org' ||
    p.workspaceAdminOf.includes(namespaceOf(policy.id))
  );
}

function requireWrite(rc: RouteCtx, id: string, scope: string | undefined): void {
  const p = rc.principal;
  if (p.orgAdmin) return;
  const ns = namespaceOf(id);
  if (scope === 'org') throw forbidden('org-scope policies are written by org administrators');
  if (!p.workspaceAdminOf.includes(ns)) throw forbidden(`${p.subject} does not administer namespace ${ns}`);
}

async function readable(rc: RouteCtx): Promise<PolicyRecord> {
  const id = rc.params.id!;
  rc.audit = { resource: `policy:${id}`, namespace: namespaceOf(id) };
  const found = await existingPolicy(rc.deps.policy, id);
  if (!mayRead(rc.principal, found)) throw forbidden(`${rc.principal.subject} may not read policy ${id}`);
  return found;
}

async function list(rc: RouteCtx): Promise<unknown> {
  rc.audit = { resource: 'policies' };
  const all = await rc.deps.policy.policies.list();
  return { items: all.filter((p) => mayRead(rc.principal, p)) };
}

async function create(rc: RouteCtx): Promise<unknown> {
  const body = rc.body as { id?: string; spec?: { scope?: string } };
  const id = String(body.id ?? '');
  rc.audit = { resource: `policy:${id}`, namespace: namespaceOf(id) };
  if (POLICY_ID.test(id)) requireWrite(rc, id, body.spec?.scope);
  return createPolicy(rc.deps.policy, body);
}

async function update(rc: RouteCtx): Promise<unknown> {
  const current = await readable(rc);
  requireWrite(rc, current.id, current.spec.scope);
  requireWrite(rc, current.id, (rc.body as { spec?: { scope?: string } }).spec?.scope);
  return updatePolicy(rc.deps.policy, current.id, rc.body);
}

async function remove(rc: RouteCtx): Promise<unknown> {
  const current = await readable(rc);
  requireWrite(rc, current.id, current.spec.scope);
  await deletePolicy(rc.deps.policy, current.id);
  return undefined;
}

async function applyPreset(rc: RouteCtx): Promise<unknown> {
  const workspace = rc.params.id!;
  rc.audit = { resource: `workspace:${workspace}`, namespace: workspace };
  requireWrite(rc, `${workspace}.workspace-policy`, 'workspace');
  const body = rc.body as PresetRequest;
  rc.audit.details = { ...body };
  return applyPresetTo(rc.deps.policy, workspace, body);
}

const SPEC = { type: 'object' };
/** `<namespace>.<name>`, as the policy service reads it (the OpenAPI document points `spec` at the CRD's schema). */
const POLICY_ID_SCHEMA = { type: 'string', maxLength: 317, pattern: POLICY_ID.source };
const CREATE_BODY = {
  type: 'object',
  required: ['id', 'spec'],
  additionalProperties: false,
  properties: { id: POLICY_ID_SCHEMA, spec: SPEC },
};
const UPDATE_BODY = {
  type: 'object',
  required: ['spec'],
  additionalProperties: false,
  properties: { id: POLICY_ID_SCHEMA, spec: SPEC },
};
/** `{auditor, tier}` for one auditor with presets, or `{bundle}`: never both, never neither. */
const PRESET_BODY = {
  oneOf: [
    {
      type: 'object',
      required: ['auditor', 'tier'],
      additionalProperties: false,
      properties: { auditor: { enum: Object.keys(PRESETS) }, tier: { enum: [...PRESET_TIERS] } },
    },
    {
      type: 'object',
      required: ['bundle'],
      additionalProperties: false,
      properties: { bundle: { enum: [...BUNDLES] } },
    },
  ],
};
const POLICY_BODY_LIMIT = (): number => 256 * 1024;
const POLICY = '/v1/policies/{id}';

export const POLICY_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/policies',
    action: 'policy.list',
    summary: 'AuditorPolicies the caller administers, and the org policies above them',
    success: 200,
    response: POLICY_LIST,
    handle: list,
  },
  {
    method: 'POST',
    path: '/v1/policies',
    action: 'policy.write',
    summary: 'Create an AuditorPolicy (enforcement modes checked: 422)',
    success: 201,
    response: POLICY_RECORD,
    body: CREATE_BODY,
    maxBodyBytes: POLICY_BODY_LIMIT,
    handle: create,
  },
  {
    method: 'GET',
    path: POLICY,
    action: 'policy.read',
    summary: 'One AuditorPolicy',
    success: 200,
    response: POLICY_RECORD,
    handle: readable,
  },
  {
    method: 'PUT',
    path: POLICY,
    action: 'policy.write',
    summary: 'Replace an AuditorPolicy’s spec (enforcement modes checked: 422)',
    success: 200,
    response: POLICY_RECORD,
    body: UPDATE_BODY,
    maxBodyBytes: POLICY_BODY_LIMIT,
    handle: update,
  },
  {
    method: 'DELETE',
    path: POLICY,
    action: 'policy.write',
    summary: 'Delete an AuditorPolicy',
    success: 204,
    handle: remove,
  },
  {
    method: 'GET',
    path: `${POLICY}/effective`,
    action: 'policy.effective',
    summary: 'The chain a Gateway evaluates: org parents, then the policy',
    success: 200,
    response: EFFECTIVE_POLICY,
    handle: async (rc) => {
      await readable(rc);
      return effectivePolicy(rc.deps.policy, rc.params.id!);
    },
  },
  {
    method: 'POST',
    path: '/api/v1/workspaces/{id}/apply-preset',
    action: 'policy.apply_preset',
    summary: 'Apply a preset tier ({auditor, tier}) or bundle ({bundle}) to the workspace policy',
    success: 200,
    response: PRESET_APPLIED,
    body: PRESET_BODY,
    handle: applyPreset,
  },
];
