// The policy operations behind the REST routes, transport-free: create,
// update, delete, the effective chain and applying a preset. Failures are
// HttpErrors (status, detail, code), which the API's error shaper answers as
// `{detail, code}`.
import type { Vocabulary } from '../auditors/sdk/types.ts';
import { HttpError } from '../base/http-error.ts';
import { applyPreset } from './apply-preset.ts';
import { indexVocabularies } from './cedar-schema.ts';
import { bundlePreset, presetFor, type Preset } from './presets.ts';
import type { PolicyRepository } from './repository.ts';
import { chainVersion, checkPolicySave, policyChain } from './save.ts';
import type { AuditorPolicySpec, PolicyRecord } from './types.ts';

export interface PolicyServiceDeps {
  policies: PolicyRepository;
  /** The registered auditors' vocabularies (the Cedar schema is generated from them). */
  vocabularies: () => Vocabulary[] | Promise<Vocabulary[]>;
  /** The Organization of workspace `name` in `namespace`; undefined when unknown (then every org policy is a parent). */
  organizationOf?: (namespace: string, name: string) => Promise<string | undefined>;
}

/** The organization above a workspace policy `id` (`<namespace>.<name>`), when the workspace names one. */
async function organizationAbove(
  deps: PolicyServiceDeps,
  id: string,
  spec: AuditorPolicySpec,
): Promise<string | undefined> {
  if (spec.scope !== 'workspace' || !deps.organizationOf) return undefined;
  return deps.organizationOf(id.split('.')[0] ?? '', spec.scopeId);
}

export const POLICY_ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\.[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export interface PresetRequest {
  auditor?: string;
  tier?: string;
  bundle?: string;
}

export interface PresetOutcome {
  workspace_id: string;
  policy_id: string;
  policy_version: string;
  applied: PresetRequest;
  spec: AuditorPolicySpec;
}

/** Checks enforcement modes and rules, then stores with the next version. */
export async function savePolicy(
  deps: PolicyServiceDeps,
  id: string,
  spec: AuditorPolicySpec,
  previous?: PolicyRecord,
): Promise<PolicyRecord> {
  const check = checkPolicySave(id, spec, {
    all: await deps.policies.list(),
    vocabularies: await deps.vocabularies(),
    organization: await organizationAbove(deps, id, spec),
  });
  if (!check.ok) throw new HttpError(422, check.detail, check.code);
  const version = String(Number(previous?.version ?? 0) + 1);
  return deps.policies.put({ id, version, spec: { ...spec, version } });
}

export function specOf(body: unknown): AuditorPolicySpec {
  const spec = (body as { spec?: unknown } | null)?.spec;
  if (!spec || typeof spec !== 'object' || Array.isArray(spec))
    throw new HttpError(400, 'body is {id, spec}', 'invalid_request');
  return spec as AuditorPolicySpec;
}

export async function existingPolicy(deps: PolicyServiceDeps, id: string): Promise<PolicyRecord> {
  const found = POLICY_ID.test(id) ? await deps.policies.get(id) : undefined;
  if (!found) throw new HttpError(404, `PolicyNotFound: no policy '${id}'`, 'not_found');
  return found;
}

export async function createPolicy(deps: PolicyServiceDeps, body: unknown): Promise<PolicyRecord> {
  const id = String((body as { id?: unknown } | null)?.id ?? '');
  if (!POLICY_ID.test(id)) throw new HttpError(400, 'id is <namespace>.<name>', 'invalid_request');
  const spec = specOf(body);
  if (await deps.policies.get(id)) throw new HttpError(409, `policy ${id} exists`, 'conflict');
  return savePolicy(deps, id, spec);
}

export async function updatePolicy(
  deps: PolicyServiceDeps,
  id: string,
  body: unknown,
): Promise<PolicyRecord> {
  const previous = await existingPolicy(deps, id);
  return savePolicy(deps, previous.id, specOf(body), previous);
}

export async function deletePolicy(deps: PolicyServiceDeps, id: string): Promise<void> {
  await existingPolicy(deps, id);
  await deps.policies.delete(id);
}

/** The chain the Gateway evaluates: the org parents, then the policy. */
export async function effectivePolicy(
  deps: PolicyServiceDeps,
  id: string,
): Promise<{ policy_id: string; policy_version: string; chain: PolicyRecord[] }> {
  const target = await existingPolicy(deps, id);
  const organization = await organizationAbove(deps, target.id, target.spec);
  const chain = policyChain(target, await deps.policies.list(), organization);
  return { policy_id: target.id, policy_version: chainVersion(chain), chain };
}

/** The workspace's policy: scope `workspace` with this scopeId, in the workspace's namespace when it has one. */
async function workspacePolicy(
  deps: PolicyServiceDeps,
  workspaceId: string,
): Promise<PolicyRecord | undefined> {
  const all = await deps.policies.list();
  return all.find((p) => p.spec.scope === 'workspace' && p.spec.scopeId === workspaceId);
}

/** The preset `body` names; 400 when it names none. */
function requestedPreset(body: PresetRequest): Preset {
  const preset = body.bundle ? bundlePreset(body.bundle) : presetFor(body.auditor ?? '', body.tier ?? '');
  if (preset) return preset;
  throw new HttpError(
    400,
    'send {auditor, tier} (Starter, Balanced, Strict) or {bundle} (solo_builder, production_team, regulated_enterprise)',
    'unknown_preset',
  );
}

/** `base` with `preset` applied; 422 when the preset does not fit the registered auditors. */
function presetSpec(
  base: AuditorPolicySpec,
  preset: Preset,
  claims: Parameters<typeof applyPreset>[2],
): AuditorPolicySpec {
  try {
    return applyPreset(base, preset, claims);
  } catch (err) {
    throw new HttpError(
      422,
      `preset does not fit the registered auditors: ${(err as Error).message}`,
      'invalid_policy',
    );
  }
}

/** Applies `{auditor, tier}` or `{bundle}` to the workspace policy (created as `<workspace>.workspace-policy`). */
export async function applyPresetTo(
  deps: PolicyServiceDeps,
  workspaceId: string,
  body: PresetRequest,
): Promise<PresetOutcome> {
  const preset = requestedPreset(body);
  const current = await workspacePolicy(deps, workspaceId);
  const base: AuditorPolicySpec = current?.spec ?? { scope: 'workspace', scopeId: workspaceId };
  const { claims } = indexVocabularies(await deps.vocabularies());
  const spec = presetSpec(base, preset, claims);
  const id = current?.id ?? `${workspaceId}.workspace-policy`;
  const saved = await savePolicy(deps, id, spec, current);
  const applied = body.bundle ? { bundle: body.bundle } : { auditor: body.auditor, tier: body.tier };
  return {
    workspace_id: workspaceId,
    policy_id: saved.id,
    policy_version: saved.version,
    applied,
    spec: saved.spec,
  };
}
