// ajv validators built from the same schemas as the CRDs, for the REST API,
// the webhooks and definition files. The x-kubernetes-* keywords are handled:
// list-type map/set uniqueness and int-or-string are checked here; CEL rules
// (x-kubernetes-validations) are left to the apiserver and only carried along.
import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ALL_KINDS } from './index.ts';
import { toCustomResourceDefinition, type JSONSchema, type KindDefinition } from './kit.ts';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

export interface SchemaIssue {
  /** JSON pointer into the validated object, `/spec/owners/0/role`. */
  pointer: string;
  keyword: string;
  message: string;
  /** What the schema wants, when it can be said (`one of sidecar, token_exchange`). */
  expected?: string;
}

export interface ValidateOptions {
  /** Fill in schema defaults (on a copy; the input is never changed). */
  applyDefaults?: boolean;
}

export type ValidationResult<T> = { valid: true; value: T } | { valid: false; issues: SchemaIssue[] };

function listKeyOf(item: unknown, keys: string[]): string {
  if (!item || typeof item !== 'object') return JSON.stringify(item);
  return JSON.stringify(keys.map((k) => (item as Record<string, unknown>)[k]));
}

function addKubernetesKeywords(ajv: Ajv): void {
  for (const keyword of [
    'x-kubernetes-validations',
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-map-type',
    'x-kubernetes-list-map-keys',
  ]) {
    ajv.addKeyword({ keyword });
  }
  ajv.addKeyword({
    keyword: 'x-kubernetes-int-or-string',
    schemaType: 'boolean',
    validate: (on: boolean, data: unknown) => !on || typeof data === 'number' || typeof data === 'string',
    errors: false,
  });
  ajv.addKeyword({
    keyword: 'x-kubernetes-list-type',
    type: 'array',
    schemaType: 'string',
    validate: function uniqueEntries(
      this: unknown,
      type: string,
      data: unknown[],
      parent?: AnySchema,
    ): boolean {
      if (type !== 'map' && type !== 'set') return true;
      const keys = ((parent as JSONSchema | undefined)?.['x-kubernetes-list-map-keys'] ?? []) as string[];
      const seen = new Set<string>();
      for (const item of data) {
        const key = type === 'map' ? listKeyOf(item, keys) : JSON.stringify(item);
        if (seen.has(key)) return false;
        seen.add(key);
      }
      return true;
    },
    errors: false,
  });
}

/** Objects with declared properties reject unknown ones (the apiserver's strict field validation). */
export function closeObjects(schema: JSONSchema): JSONSchema {
  const out: JSONSchema = { ...schema };
  if (out.properties && typeof out.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, JSONSchema>).map(([k, v]) => [k, closeObjects(v)]),
    );
    if (out['x-kubernetes-preserve-unknown-fields'] !== true && out.additionalProperties === undefined) {
      out.additionalProperties = false;
    }
  }
  if (out.items && typeof out.items === 'object') out.items = closeObjects(out.items as JSONSchema);
  if (out.additionalProperties && typeof out.additionalProperties === 'object') {
    out.additionalProperties = closeObjects(out.additionalProperties as JSONSchema);
  }
  return out;
}

function objectSchema(def: KindDefinition): JSONSchema {
  const crd = toCustomResourceDefinition(def) as {
    spec: { versions: { schema: { openAPIV3Schema: JSONSchema } }[] };
  };
  const root = closeObjects(crd.spec.versions[0]!.schema.openAPIV3Schema);
  const props = root.properties as Record<string, JSONSchema>;
  props.metadata = { type: 'object' };
  props.apiVersion = { type: 'string', const: 'platform.io/v1alpha1' };
  props.kind = { type: 'string', const: def.kind };
  root.required = ['apiVersion', 'kind', 'metadata'];
  return root;
}

function makeAjv(useDefaults: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictRequired: false,
    useDefaults,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  addKubernetesKeywords(ajv);
  return ajv;
}

const compiled = new Map<string, ValidateFunction>();
const ajvs = { plain: makeAjv(false), defaults: makeAjv(true) };

function validatorFor(kind: string, applyDefaults: boolean): ValidateFunction | undefined {
  const cacheKey = `${kind}/${applyDefaults}`;
  const cached = compiled.get(cacheKey);
  if (cached) return cached;
  const def = ALL_KINDS.find((k) => k.kind === kind);
  if (!def) return undefined;
  const fn = (applyDefaults ? ajvs.defaults : ajvs.plain).compile(objectSchema(def));
  compiled.set(cacheKey, fn);
  return fn;
}

function expectedOf(err: ErrorObject): string | undefined {
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'enum':
      return `one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return String(p.allowedValue);
    case 'type':
      return String(p.type);
    case 'pattern':
      return `a string matching ${String(p.pattern)}`;
    case 'format':
      return `a ${String(p.format)}`;
    case 'minimum':
    case 'maximum':
      return `a number ${String(p.comparison)} ${String(p.limit)}`;
    case 'additionalProperties':
      return 'no unknown field';
    case 'x-kubernetes-list-type':
      return 'unique entries';
    default:
      return undefined;
  }
}

export function toIssues(errors: readonly ErrorObject[]): SchemaIssue[] {
  return errors.map((err) => {
    const extra =
      err.keyword === 'additionalProperties'
        ? `/${String((err.params as { additionalProperty: string }).additionalProperty)}`
        : '';
    const required =
      err.keyword === 'required'
        ? `/${String((err.params as { missingProperty: string }).missingProperty)}`
        : '';
    const issue: SchemaIssue = {
      pointer: err.instancePath + extra + required,
      keyword: err.keyword,
      message:
        err.keyword === 'x-kubernetes-list-type'
          ? 'must not contain duplicate entries'
          : (err.message ?? err.keyword),
    };
    const expected = expectedOf(err);
    if (expected !== undefined) issue.expected = expected;
    return issue;
  });
}

/** Validates a whole custom resource (apiVersion, kind, metadata, spec, status) against its kind's schema. */
export function validateResource<T = Record<string, unknown>>(
  resource: unknown,
  options: ValidateOptions = {},
): ValidationResult<T> {
  const kind = (resource as { kind?: unknown } | null)?.kind;
  const fn = typeof kind === 'string' ? validatorFor(kind, options.applyDefaults === true) : undefined;
  if (!fn) {
    const known = ALL_KINDS.map((k) => k.kind).join(', ');
    return {
      valid: false,
      issues: [{ pointer: '/kind', keyword: 'kind', message: 'unknown kind', expected: `one of ${known}` }],
    };
  }
  const value = options.applyDefaults ? structuredClone(resource) : resource;
  if (fn(value)) return { valid: true, value: value as T };
  return { valid: false, issues: toIssues(fn.errors ?? []) };
}
