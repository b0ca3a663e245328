import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { errorStatuses, mergePatchSchema, openApiDocument } from './openapi.ts';
import { ROUTES } from './routes/index.ts';

type Operation = {
  parameters: { name: string; in: string; schema: Record<string, unknown> }[];
  responses: Record<string, { content?: Record<string, { schema?: unknown; itemSchema?: unknown }> }>;
};

const doc = openApiDocument(ROUTES, 'test') as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
const operations = ROUTES.map((r) => ({ r, op: doc.paths[r.path]![r.method.toLowerCase()]! }));

/** OAuth endpoints answer RFC 6749 §5.2 errors; every other error is the Error shape. */
function expectErrorShape(r: (typeof ROUTES)[number], op: Operation, status: string): void {
  expect(op.responses[status]!.content?.['application/json']?.schema).toEqual({
    $ref: `#/components/schemas/${r.errorShape === 'oauth' ? 'OAuthError' : 'Error'}`,
  });
}

describe('the OpenAPI document', () => {
  it('describes the success body of every route that has one, with a schema', () => {
    for (const { r, op } of operations) {
      const success = op.responses[String(r.success)]!;
      if (r.success === 204) expect(success.content, `${r.method} ${r.path}`).toBeUndefined();
      else {
        // An event stream describes each of its messages (OpenAPI 3.2 `itemSchema`); a page is a string.
        const media = success.content?.[r.produces ?? 'application/json'];
        const stream = r.produces === 'text/event-stream';
        expect(stream ? media?.itemSchema : media?.schema, `${r.method} ${r.path}`).toBeTypeOf('object');
      }
    }
  });

  it('documents a second success answer: an update that lowers the audit mode is 202 with an approval', () => {
    const patch = doc.paths['/v1/agents/{agent_id}']!.patch!;
    const accepted = patch.responses['202']?.content?.['application/json']?.schema as
      { properties?: Record<string, unknown> } | undefined;
    expect(Object.keys(accepted?.properties ?? {})).toEqual(['approval', 'applied']);
  });

  it('lists the error statuses each route can answer, all in the Error shape', () => {
    for (const { r, op } of operations) {
      const what = `${r.method} ${r.path}`;
      const others = Object.keys(r.otherSuccess ?? {});
      const listed = Object.keys(op.responses).filter((s) => s !== String(r.success) && !others.includes(s));
      expect(listed, what).toEqual(errorStatuses(r).map(String));
      expect(listed, what).toContain('400');
      if (r.action !== 'public') expect(listed, what).toEqual(expect.arrayContaining(['401', '403']));
      if (r.body) expect(listed, what).toEqual(expect.arrayContaining(['404', '413', '415', '422']));
      if (r.path.includes('{')) expect(listed, what).toContain('404');
      if (r.method !== 'GET') expect(listed, what).toContain('409');
      for (const s of listed) expectErrorShape(r, op, s);
    }
  });

  it('types every path parameter, and the integer and enum query parameters', () => {
    for (const { r, op } of operations) {
      for (const p of op.parameters.filter((x) => x.in === 'path')) {
        expect(Object.keys(p.schema).length, `${r.path} ${p.name}`).toBeGreaterThan(1);
      }
      const limit = op.parameters.find((p) => p.name === 'limit');
      if (limit) expect(limit.schema.type).toBe('integer');
    }
  });

  it('is made of schemas a JSON Schema 2020-12 validator compiles', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', ...doc.components });
    for (const { r, op } of operations) {
      for (const response of Object.values(op.responses)) {
        const schema = Object.values(response.content ?? {})[0]?.schema as
          Record<string, unknown> | undefined;
        if (schema && !('$ref' in schema)) expect(() => ajv.compile(schema), r.path).not.toThrow();
      }
    }
  });
});

describe('mergePatchSchema', () => {
  it('drops required and lets every member at every depth be null, leaving array items alone', () => {
    const patch = mergePatchSchema({
      type: 'object',
      required: ['a'],
      properties: {
        a: { type: 'object', required: ['b'], properties: { b: { type: 'string' } } },
        list: {
          type: 'array',
          items: { type: 'object', required: ['k'], properties: { k: { type: 'string' } } },
        },
      },
    });
    const ajv = new Ajv2020({ strict: false });
    const valid = ajv.compile(patch);
    expect(valid({})).toBe(true);
    expect(valid({ a: null })).toBe(true);
    expect(valid({ a: { b: null } })).toBe(true);
    expect(valid({ a: { b: 5 } })).toBe(false);
    expect(valid({ list: null })).toBe(true);
    expect(valid({ list: [{}] })).toBe(false);
  });
});
