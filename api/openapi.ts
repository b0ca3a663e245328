// The OpenAPI 3.1 document, generated from the route table and, for agent
// bodies, from the same schema the PlatformAgent CRD uses. Each operation
// lists its success body and every error status its route can answer,
// derived from facts about the route (see errorStatuses).
import { auditorPolicy } from '../crds/kinds/auditor-policy.ts';
import { platformAgent } from '../crds/kinds/platform-agent.ts';
import { toCustomResourceDefinition, type JSONSchema } from '../crds/kit.ts';
import { CLEAN_JSON_VALUE, withCharacterRule } from './openapi-characters.ts';
import { pathParamSchema, queryParamSchema } from './routes/parameters.ts';
import type { RouteSpec } from './routes/route.ts';

const ERROR = {
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string' }, code: { type: 'string' } },
};

/** RFC 6749 §5.2: the error body of the OAuth endpoints. */
const OAUTH_ERROR = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
};

function crdSpecSchema(kind: Parameters<typeof toCustomResourceDefinition>[0]): JSONSchema {
  const crd = toCustomResourceDefinition(kind) as {
    spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: JSONSchema } } } }[] };
  };
  return crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec;
}

/** Spec fields an update may not touch (`updatedSpec`): owners via shares, suspend via its routes. */
const RESERVED_ON_UPDATE = ['owners', 'suspend'];

/**
 * A JSON merge patch (RFC 7386) of an object schema: nothing required, and
 * any member may be null (null removes it), at every depth. Arrays are
 * replaced whole, so their items keep their schema.
 */
export function mergePatchSchema(schema: JSONSchema): JSONSchema {
  const props = schema.properties as Record<string, JSONSchema> | undefined;
  const extra = schema.additionalProperties as JSONSchema | boolean | undefined;
  if (!props && (typeof extra !== 'object' || extra === null)) return schema;
  const nullable = (s: JSONSchema): JSONSchema => ({ anyOf: [mergePatchSchema(s), { type: 'null' }] });
  const { required: _required, ...rest } = schema;
  return {
    ...rest,
    ...(props
      ? { properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, nullable(v)])) }
      : {}),
    ...(typeof extra === 'object' && extra !== null ? { additionalProperties: nullable(extra) } : {}),
  };
}

/** The update body: a merge patch of the spec without the reserved fields. */
function agentSpecPatchSchema(spec: JSONSchema): JSONSchema {
  const props = { ...(spec.properties as Record<string, JSONSchema>) };
  for (const field of RESERVED_ON_UPDATE) delete props[field];
  return {
    ...mergePatchSchema({ type: 'object', properties: props }),
    propertyNames: { not: { enum: RESERVED_ON_UPDATE } },
  };
}

/**
 * Agent and policy bodies point their `spec` at their CRD's schema (a patch
 * of it for agent updates); the API checks the spec whole against the CRD.
 */
function withCrdSpec(r: RouteSpec, body: JSONSchema): JSONSchema {
  const props = body.properties as Record<string, JSONSchema> | undefined;
  if (!props?.spec) return body;
  let ref: string | undefined;
  if (r.path.startsWith('/v1/agents'))
    ref = r.method === 'PATCH' ? 'PlatformAgentSpecPatch' : 'PlatformAgentSpec';
  if (r.path.startsWith('/v1/policies')) ref = 'AuditorPolicySpec';
  if (!ref) return body;
  return { ...body, properties: { ...props, spec: { $ref: `#/components/schemas/${ref}` } } };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid request: malformed JSON, a body or query value that fails its schema, an unexpected body',
  401: 'missing, invalid or expired credentials',
  403: 'not allowed for the caller',
  404: 'the agent, approval, key, policy or registration named does not exist (or is not visible)',
  409: 'conflicts with the current state: a duplicate, an approval already decided, a concurrent change',
  413: 'request body too large',
  415: 'the body is not application/json',
  422: 'well-formed but refused: an enforcement mode, a signature, a value the cluster rejects',
};

/**
 * The error statuses a route can answer, from what it takes: every route can
 * be sent a bad query or an unexpected body (400); a credential can be
 * missing or insufficient (401, 403) unless the route is public; a name in
 * the path, the body or a naming query parameter can be unknown (404); a write can meet a concurrent or
 * duplicate one (409); a body can be too large, of the wrong type (413, 415)
 * or well-formed and refused (422), as can any value in path or query.
 */
/** Query parameters that name an object (so the object may not exist). */
const NAMING_QUERY = new Set(['organization', 'workspace', 'agent_id', 'app_id', 'scope_id']);

/** Whether a name the route is given (in its path, body or a naming query parameter) may not exist. */
function namesSomething(r: RouteSpec): boolean {
  const namesInQuery = Object.keys(r.query ?? {}).some((k) => NAMING_QUERY.has(k));
  return r.path.includes('{') || r.body !== undefined || namesInQuery;
}

export function errorStatuses(r: RouteSpec): number[] {
  const takesBody = r.body !== undefined;
  const write = r.method !== 'GET';
  const statuses = new Set([400]);
  if (r.action !== 'public') [401, 403].forEach((s) => statuses.add(s));
  // An OAuth endpoint authenticates its client itself (RFC 6749 §5.2 `invalid_client`).
  if (r.errorShape === 'oauth') statuses.add(401);
  if (namesSomething(r)) statuses.add(404);
  if (write) statuses.add(409);
  if (takesBody) [413, 415].forEach((s) => statuses.add(s));
  if (takesBody || write || r.path.includes('{') || r.query) statuses.add(422);
  return [...statuses].sort((a, b) => a - b);
}

function successResponse(r: RouteSpec): Record<string, unknown> {
  if (r.produces === 'text/html') {
    return { description: 'an HTML page', content: { 'text/html': { schema: { type: 'string' } } } };
  }
  if (r.produces) {
    return { description: 'an event stream', content: { [r.produces]: { itemSchema: r.streamItem ?? {} } } };
  }
  if (!r.response) return { description: 'success (no body)' };
  return { description: 'success', content: { 'application/json': { schema: r.response } } };
}

const characterRuled = (q: { schema: JSONSchema; required: boolean }) => ({
  ...q,
  schema: withCharacterRule(q.schema),
});

/** A signed body keeps its free text (decision 91): its own validator states what it refuses. */
const requestSchema = (r: RouteSpec, body: JSONSchema): JSONSchema =>
  r.bodyHygiene === undefined ? withCharacterRule(body) : body;

/** A route with `textBody` also takes the document itself as text/yaml. */
// The raw document, any text: no type or pattern a generator could violate, since one that writes a
// value as YAML sends text whatever the value was (a number, an escaped control character). The
// handler reads the bytes as the file and refuses control characters (422).
const TEXT_DOCUMENT = {
  description: 'The document itself: UTF-8 text without control characters (422 otherwise).',
} as const;

function operation(r: RouteSpec): Record<string, unknown> {
  const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: withCharacterRule(pathParamSchema(r.path, m[1]!)),
  }));
  const query = Object.entries(r.query ?? {}).map(([name, description]) => ({
    name,
    in: 'query',
    ...characterRuled(queryParamSchema(r.method, r.path, name)),
    ...(description ? { description } : {}),
  }));
  const errorSchema = r.errorShape === 'oauth' ? 'OAuthError' : 'Error';
  const errorRef = {
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchema}` } } },
  };
  const bodyType = r.form ? 'application/x-www-form-urlencoded' : 'application/json';
  return {
    summary: r.summary,
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    'x-platform-action': r.action,
    ...(r.action === 'public' ? { security: [] } : {}),
    parameters: [...params, ...query],
    ...(r.body
      ? {
          requestBody: {
            required: !r.optionalBody,
            content: {
              [bodyType]: { schema: withCrdSpec(r, requestSchema(r, r.body)) },
              ...(r.textBody ? { 'text/yaml': { schema: TEXT_DOCUMENT } } : {}),
            },
          },
        }
      : {}),
    responses: {
      [String(r.success)]: successResponse(r),
      ...Object.fromEntries(
        Object.entries(r.otherSuccess ?? {}).map(([status, schema]) => [
          status,
          { description: 'success', content: { 'application/json': { schema } } },
        ]),
      ),
      ...Object.fromEntries(
        errorStatuses(r).map((s) => [String(s), { description: ERROR_DESCRIPTIONS[s], ...errorRef }]),
      ),
    },
  };
}

export function openApiDocument(routes: readonly RouteSpec[], version: string): Record<string, unknown> {
  const spec = crdSpecSchema(platformAgent);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    paths[r.path] ??= {};
    paths[r.path]![r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Platform Verifier API', version },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key, service-account token or OIDC token',
        },
      },
      schemas: {
        Error: ERROR,
        OAuthError: OAUTH_ERROR,
        PlatformAgentSpec: withCharacterRule(spec),
        PlatformAgentSpecPatch: withCharacterRule(agentSpecPatchSchema(spec)),
        AuditorPolicySpec: withCharacterRule(crdSpecSchema(auditorPolicy)),
        CleanJsonValue: CLEAN_JSON_VALUE,
      },
    },
  };
}
