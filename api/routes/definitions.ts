// The definition editor's server side (issue 22 step 8, decisions 282-284):
//   POST /v1/definitions/validate  a definition file (text/yaml, or JSON {text}) → every error at its line
//   POST /v1/definitions/apply     the same file, validated, then server-side applied as `platform-ui`
// Validation is `platform apply`'s (crds/definitions); applying checks who
// may (api/definitions/authorize.ts) for every resource and dry-runs every
// one on the server before anything is written, so a refusal, a conflict or
// a lowered audit mode leaves nothing half-applied.
import { badRequest, conflict, HttpError, unprocessable } from '../../base/http-error.ts';
import { assertClean, bodyProblem, refusedCharacter } from '../../base/hygiene.ts';
import { IDENTIFIER_CHARACTERS } from '../../base/hygiene.ts';
import { apiMessage, apiStatus } from '../../base/kube.ts';
import type { Resource } from '../../crds/definitions/validate.ts';
import type { JSONSchema } from '../../crds/kit.ts';
import { NAMESPACE_PATTERN } from '../../contract/agent-id.ts';
import type { PlatformAgent } from '../agents/model.ts';
import { applyRefusal, auditModeRefusal, type Refusal } from '../definitions/authorize.ts';
import { loadDefinitions, resourceRef, type LoadedDefinitions } from '../definitions/load.ts';
import type { DefinitionObject } from '../store/cluster.ts';
import { bodyOf, type RouteCtx, type RouteSpec } from './route.ts';

/** The largest definition file the facade reads (413 above it). */
export const DEFINITION_MAX_BYTES = 256 * 1024;
/** Who the apiserver records as the manager of the fields the editor applies. */
export const UI_FIELD_MANAGER = 'platform-ui';

const BODY: JSONSchema = {
  type: 'object',
  required: ['text'],
  additionalProperties: false,
  properties: {
    // Free text (a YAML file has line breaks): the handler refuses control characters with 422.
    text: { type: 'string', maxLength: DEFINITION_MAX_BYTES },
    namespace: { type: 'string', minLength: 1, maxLength: 63, pattern: NAMESPACE_PATTERN },
    file: { type: 'string', minLength: 1, maxLength: 253, pattern: IDENTIFIER_CHARACTERS },
    force: { type: 'boolean' },
  },
};
const QUERY = {
  namespace:
    'namespace of the documents without metadata.namespace (default: default); with a text/yaml body',
  file: 'the file name errors are reported under (default: definition.yaml); with a text/yaml body',
};

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const ERROR: JSONSchema = {
  type: 'object',
  required: ['file', 'line', 'column', 'path', 'message', 'text'],
  properties: {
    file: str,
    line: int,
    column: int,
    path: str,
    message: str,
    expected: str,
    found: str,
    text: str,
  },
};
const REF_PROPERTIES = { kind: str, namespace: str, name: str };
const REF: JSONSchema = {
  type: 'object',
  required: ['kind', 'namespace', 'name'],
  properties: REF_PROPERTIES,
};
const VALIDATED: JSONSchema = {
  type: 'object',
  required: ['valid', 'errors', 'resources'],
  properties: {
    valid: { type: 'boolean' },
    errors: { type: 'array', items: ERROR },
    resources: { type: 'array', items: REF },
  },
};
const APPLIED: JSONSchema = {
  type: 'object',
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      items: {
        ...REF,
        properties: { ...REF_PROPERTIES, outcome: { enum: ['created', 'configured', 'unchanged'] } },
      },
    },
  },
};

interface Body {
  text: string;
  /** apply: take over fields another field manager set (server-side apply `force`). */
  force?: boolean;
  namespace?: string;
  file?: string;
}

/** A query parameter, refused (400) when present but empty or malformed. */
function queryParameter(rc: RouteCtx, name: 'namespace' | 'file', pattern: string): string | undefined {
  const value = rc.query[name];
  // The lengths of the parameters' schemas (api/routes/parameters.ts): a namespace 63, a file name 253.
  const longest = name === 'namespace' ? 63 : 253;
  if (value !== undefined && (value === '' || value.length > longest || !new RegExp(pattern).test(value)))
    throw badRequest(`query ${name} ${JSON.stringify(value.slice(0, 70))} is not valid`, 'invalid_query');
  return value;
}

/** The request's file and settings; a text/yaml body names them in the query. */
function loaded(rc: RouteCtx): LoadedDefinitions {
  const body = bodyOf<Body>(rc);
  const what = refusedCharacter(body.text, true);
  if (what)
    throw unprocessable(
      `body/text: ${what}; a definition file is text without control characters`,
      'control_characters',
    );
  // Query parameters are checked even when the body names its own: a malformed one is never ignored.
  const asked = queryParameter(rc, 'namespace', NAMESPACE_PATTERN);
  const askedFile = queryParameter(rc, 'file', IDENTIFIER_CHARACTERS);
  const namespace = body.namespace ?? asked ?? 'default';
  const file = body.file ?? askedFile ?? 'definition.yaml';
  assertClean(bodyProblem({ namespace, file }));
  if (!new RegExp(NAMESPACE_PATTERN).test(namespace))
    throw unprocessable(`namespace ${namespace} is not a valid namespace name`);
  const known = rc.deps.auditors.list().map((r) => r.spec.auditorId);
  return loadDefinitions(body.text, { file, namespace, knownAuditors: known });
}

const refOf = (r: Resource) => ({
  kind: r.kind,
  namespace: String(r.metadata.namespace ?? ''),
  name: String(r.metadata.name ?? ''),
});

function validate(rc: RouteCtx): Promise<unknown> {
  const { errors, resources } = loaded(rc);
  rc.audit.details = { valid: errors.length === 0, errors: errors.length, resources: resources.length };
  return Promise.resolve({ valid: errors.length === 0, errors, resources: resources.map(refOf) });
}

const refusalError = (r: Refusal): HttpError => new HttpError(r.status, r.detail, r.code);

/** The apiserver's refusal in the file's words: a field-manager conflict says who owns what. */
function applyError(r: Resource, err: unknown): unknown {
  const status = apiStatus(err);
  if (status === 409) {
    const owned = apiMessage(err).replace(/^Apply failed with \d+ conflicts?:\s*/, '');
    return conflict(
      `${resourceRef(r)}: fields another field manager set: ${owned}. Change them where they were set, leave them out of this file, or apply again taking them over (force)`,
      'field_conflict',
    );
  }
  if (status === 422 || status === 400)
    return unprocessable(`${resourceRef(r)}: ${apiMessage(err)}`, 'rejected_by_cluster');
  return err;
}

interface Step {
  resource: Resource;
  live?: DefinitionObject;
}

/** Reads what is live and checks the caller may apply each resource; nothing is written. */
async function authorizeAll(rc: RouteCtx, resources: readonly Resource[]): Promise<Step[]> {
  const steps: Step[] = [];
  for (const resource of resources) {
    const { namespace, name } = refOf(resource);
    const live = await rc.deps.writer.readDefinition(resource.kind, namespace, name);
    const refusal = applyRefusal(rc.principal, resource, live as unknown as PlatformAgent | undefined);
    if (refusal) throw refusalError(refusal);
    steps.push(live ? { resource, live } : { resource });
  }
  return steps;
}

async function applyOne(rc: RouteCtx, resource: Resource, dryRun: boolean): Promise<DefinitionObject> {
  try {
    return await rc.deps.writer.applyDefinition(resource as DefinitionObject, {
      fieldManager: UI_FIELD_MANAGER,
      dryRun,
      force: bodyOf<Body>(rc).force === true,
    });
  } catch (err) {
    throw applyError(resource, err);
  }
}

/** Every resource dry-run first: a conflict, a schema rule or a lowered audit mode stops it all. */
async function preflight(rc: RouteCtx, steps: readonly Step[]): Promise<void> {
  for (const s of steps) {
    const preview = await applyOne(rc, s.resource, true);
    const refusal = auditModeRefusal(
      s.resource,
      s.live as unknown as PlatformAgent | undefined,
      preview as unknown as PlatformAgent,
    );
    if (refusal) throw refusalError(refusal);
  }
}

function outcomeOf(live: DefinitionObject | undefined, applied: DefinitionObject): string {
  if (!live) return 'created';
  return live.metadata.resourceVersion === applied.metadata.resourceVersion ? 'unchanged' : 'configured';
}

async function apply(rc: RouteCtx): Promise<unknown> {
  const { errors, resources } = loaded(rc);
  if (errors.length > 0) {
    rc.audit.details = { errors: errors.length };
    throw unprocessable(errors.map((e) => e.text).join('\n'), 'invalid_definition');
  }
  const steps = await authorizeAll(rc, resources);
  rc.audit = {
    resource: resources.map(resourceRef).join(', ').slice(0, 512),
    details: { resources: resources.length },
  };
  await preflight(rc, steps);
  const results = [];
  for (const s of steps) {
    const applied = await applyOne(rc, s.resource, false);
    results.push({ ...refOf(s.resource), outcome: outcomeOf(s.live, applied) });
  }
  return { results };
}

const COMMON = {
  method: 'POST',
  body: BODY,
  textBody: true,
  bodyHygiene: 'document',
  query: QUERY,
  maxBodyBytes: () => DEFINITION_MAX_BYTES,
} as const;

export const DEFINITION_ROUTES: RouteSpec[] = [
  {
    ...COMMON,
    path: '/v1/definitions/validate',
    action: 'definition.validate',
    summary:
      'Validate a definition file (text/yaml, or JSON {text}) as `platform apply` does: 200 with valid, every error at its line and column, and the resources it stands for',
    success: 200,
    response: VALIDATED,
    handle: validate,
  },
  {
    ...COMMON,
    path: '/v1/definitions/apply',
    action: 'definition.apply',
    summary:
      'Validate a definition file, then server-side apply its resources as field manager platform-ui (422 invalid_definition with the errors as `platform apply` prints them; 403 unless the caller may apply each; 409 field_conflict)',
    success: 200,
    response: APPLIED,
    handle: apply,
  },
];
