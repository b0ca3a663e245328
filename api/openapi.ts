// The OpenAPI 3.1 document, generated from the route table and, for agent
// bodies, from the same schema the PlatformAgent CRD uses.
import { platformAgent } from '../crds/kinds/platform-agent.ts';
import { toCustomResourceDefinition, type JSONSchema } from '../crds/kit.ts';
import type { RouteSpec } from './routes/route.ts';

const ERROR = {
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string' }, code: { type: 'string' } },
};

function agentSpecSchema(): JSONSchema {
  const crd = toCustomResourceDefinition(platformAgent) as {
    spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: JSONSchema } } } }[] };
  };
  return crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec;
}

/** Agent bodies point their `spec` at the CRD's schema. */
function withAgentSpec(r: RouteSpec, body: JSONSchema): JSONSchema {
  const props = body.properties as Record<string, JSONSchema> | undefined;
  if (!props?.spec || !r.path.startsWith('/v1/agents')) return body;
  return { ...body, properties: { ...props, spec: { $ref: '#/components/schemas/PlatformAgentSpec' } } };
}

function operation(r: RouteSpec): Record<string, unknown> {
  const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = Object.entries(r.query ?? {}).map(([name, description]) => ({
    name,
    in: 'query',
    required: false,
    description,
    schema: { type: 'string' },
  }));
  const errorRef = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
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
            content: { 'application/json': { schema: withAgentSpec(r, r.body) } },
          },
        }
      : {}),
    responses: {
      [String(r.success)]: { description: 'success' },
      '400': { description: 'invalid request', ...errorRef },
      '401': { description: 'missing, invalid or expired credentials', ...errorRef },
      '403': { description: 'not allowed for the caller', ...errorRef },
      '404': { description: 'not found', ...errorRef },
    },
  };
}

export function openApiDocument(routes: readonly RouteSpec[], version: string): Record<string, unknown> {
  const spec = agentSpecSchema();
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
      schemas: { Error: ERROR, PlatformAgentSpec: spec },
    },
  };
}
