// The registry lists and the Verifier side of auditor self-registration:
//   POST /v1/auditors/register  an org administrator or a Gateway key (the Gateway relays);
//                               a Gateway key only for its workspaces and never changing an
//                               existing registration's endpoint, auth, mode or workspaces (403)
//   GET  /v1/auditors           built-in catalog entries and AuditorRegistrations
//   POST /v1/models/register    an org administrator: the ModelRegistration of a model id
//   GET  /v1/models             ModelRegistrations
// A registration becomes (or updates) the cluster-scoped AuditorRegistration;
// built-in auditors are known already and are acknowledged without a write.
import { isBuiltinAuditor } from '../../auditors/builtin.ts';
import {
  REGISTRATION_BODY,
  registeredTier,
  placementProblem,
  registrationFrom,
  vocabularySource,
  withVocabulary,
  type RegistrationBody,
} from '../registry/auditors.ts';
import { fetchVocabulary } from '../registry/vocabulary-fetch.ts';
import { NO_CREDENTIALS } from '../../base/registry-credentials.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { defaultWorkspaces, registrationVerdict } from '../registry/registration-access.ts';
import { BUILTIN_CATALOG_ENTRIES } from '../../auditors/catalog/index.ts';
import { HttpError, unprocessable } from '../../base/http-error.ts';
import { apiStatus } from '../../base/kube.ts';
import {
  MODEL_BODY,
  modelBodyProblem,
  modelObjectName,
  modelRegistrationFrom,
  type ModelBody,
} from '../registry/models.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { AUDITOR_LIST, AUDITOR_REGISTERED, MODEL_LIST, MODEL_REGISTERED } from './responses.ts';

/** The registration the request describes, with its vocabulary fetched when it names one (422 when unusable). */
async function described(
  rc: RouteCtx,
  existing: AuditorRegistration | undefined,
): Promise<{ next: AuditorRegistration; fetched: boolean }> {
  const body = rc.body as RegistrationBody;
  const draft = registrationFrom(body, existing, defaultWorkspaces(rc.principal));
  // Refused callers are refused before the Verifier fetches anything for them.
  const verdict = registrationVerdict(rc.principal, draft.spec, existing?.spec);
  if (verdict.kind === 'refuse') throw new HttpError(403, verdict.detail, verdict.code);
  const placement = placementProblem(draft.spec);
  if (placement) throw new HttpError(422, placement, 'invalid_registration');
  const url = vocabularySource(body, draft);
  if (!url) return { next: draft, fetched: false };
  const access = {
    holder: { kind: 'auditor' as const, name: draft.metadata.name ?? body.auditor_id },
    endpoint: draft.spec.endpoint,
    auth: draft.spec.auth,
    credentials: rc.deps.registryCredentials ?? NO_CREDENTIALS,
  };
  const synced = await fetchVocabulary(body.auditor_id, url, access);
  return { next: withVocabulary(draft, body, synced), fetched: true };
}

/**
 * A re-registration replaces the object with the resourceVersion it read; the operator writes
 * `Ready` (and health) into its status meanwhile, which is a 409 for nothing the caller did.
 * The registration is read and decided once more; a second 409 is the caller's.
 */
async function onceMoreOnConflict(write: () => Promise<unknown>): Promise<unknown> {
  try {
    return await write();
  } catch (err) {
    if (apiStatus(err) !== 409) throw err;
  }
  return write();
}

async function register(rc: RouteCtx): Promise<unknown> {
  const id = (rc.body as RegistrationBody).auditor_id;
  rc.audit = { resource: `auditorregistrations/${id}` };
  if (isBuiltinAuditor(id)) return { registered: true, auditor_id: id, vocabulary_synced: true };
  const existing = await rc.deps.writer.readAuditorRegistration(id);
  const { next, fetched } = await described(rc, existing);
  const verdict = registrationVerdict(rc.principal, next.spec, existing?.spec);
  if (verdict.kind === 'refuse') throw new HttpError(403, verdict.detail, verdict.code);
  // Acknowledged: nothing this key may change differs, so nothing is written.
  const saved =
    verdict.kind === 'acknowledge' && existing
      ? existing
      : await rc.deps.writer.applyAuditorRegistration(next);
  rc.audit.details = {
    deploymentMode: saved.spec.deploymentMode,
    created: !existing,
    written: verdict.kind === 'write',
    vocabularyFetched: fetched,
  };
  return {
    registered: true,
    auditor_id: id,
    // A fetched vocabulary declares at least one claim; an acknowledged out-of-scope request stores nothing.
    vocabulary_synced: (saved.spec.claims?.length ?? 0) > 0,
  };
}

function listAuditors(rc: RouteCtx): Promise<unknown> {
  rc.audit = { resource: 'auditors' };
  const builtin = BUILTIN_CATALOG_ENTRIES.map((e) => ({
    auditor_id: e.id,
    name: e.name,
    category: e.category,
    phase: e.phase,
    builtin: true,
    deployment_mode: 'sidecar',
    workspaces: [],
    trust_tier: registeredTier(e.id, undefined),
    claims: e.claims.map((c) => ({ name: c.name, type: c.type })),
  }));
  const registered = rc.deps.auditors
    .list()
    .filter((r) => !isBuiltinAuditor(r.spec.auditorId))
    .map((r) => ({
      auditor_id: r.spec.auditorId,
      name: r.spec.displayName ?? r.spec.auditorId,
      category: r.spec.category,
      phase: r.spec.phase,
      builtin: false,
      deployment_mode: r.spec.deploymentMode,
      endpoint: r.spec.endpoint ?? null,
      // The operator's last probe of GET /health (decision 114); null until probed.
      health: r.status?.health?.status ?? null,
      workspaces: r.spec.workspaces ?? [],
      trust_tier: registeredTier(r.spec.auditorId, r),
      claims: (r.spec.claims ?? []).map((c) => ({ name: c.name, type: c.type })),
    }));
  return Promise.resolve({ items: [...builtin, ...registered] });
}

async function registerModel(rc: RouteCtx): Promise<unknown> {
  const body = rc.body as ModelBody;
  const problem = modelBodyProblem(body);
  if (problem) throw unprocessable(problem, 'invalid_registration');
  const name = modelObjectName(body.model_id);
  rc.audit = { resource: `modelregistrations/${name}` };
  const existing = await rc.deps.writer.readModelRegistration(name);
  const saved = await rc.deps.writer.applyModelRegistration(modelRegistrationFrom(body, existing));
  rc.audit.details = { deploymentMode: saved.spec.deploymentMode, created: !existing };
  return { registered: true, model_id: saved.spec.modelId, name };
}

function listModels(rc: RouteCtx): Promise<unknown> {
  rc.audit = { resource: 'models' };
  const items = rc.deps.models.list().map((m) => ({
    name: m.metadata.name,
    model_id: m.spec.modelId,
    model_type: m.spec.modelType ?? null,
    deployment_mode: m.spec.deploymentMode,
    endpoint: m.spec.endpoint ?? null,
    image: m.spec.image ?? null,
    image_digest: m.spec.imageDigest ?? null,
  }));
  return Promise.resolve({ items });
}

export const AUDITOR_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: '/v1/auditors/register',
    action: 'auditor.register',
    summary: 'Register an auditor (self-registration, relayed by the Gateway)',
    success: 200,
    response: AUDITOR_REGISTERED,
    body: REGISTRATION_BODY,
    handle: (rc) => onceMoreOnConflict(() => register(rc)),
  },
  {
    method: 'GET',
    path: '/v1/auditors',
    action: 'auditor.list',
    summary: 'Built-in and registered auditors',
    success: 200,
    response: AUDITOR_LIST,
    handle: listAuditors,
  },
  {
    method: 'POST',
    path: '/v1/models/register',
    action: 'model.register',
    summary: 'Register (or re-register) a model',
    success: 200,
    response: MODEL_REGISTERED,
    body: MODEL_BODY,
    handle: (rc) => onceMoreOnConflict(() => registerModel(rc)),
  },
  {
    method: 'GET',
    path: '/v1/models',
    action: 'model.list',
    summary: 'Registered models',
    success: 200,
    response: MODEL_LIST,
    handle: listModels,
  },
];
