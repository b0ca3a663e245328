// Request validation: bodies against JSON schemas (ajv, with the CRD
// validators' issue wording), query parameters by small typed readers, and
// whole resources against their CRD schema. Each failure names the field.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JSONSchema } from '../../crds/kit.ts';
import { toIssues, validateResource, type SchemaIssue } from '../../crds/validators.ts';
import { badRequest } from '../../base/http-error.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
const compiled = new WeakMap<JSONSchema, ValidateFunction>();

export function describeIssues(where: string, issues: readonly SchemaIssue[]): string {
  const parts = issues.slice(0, 5).map((i) => {
    const at = `${where}${i.pointer || ''}`;
    return `${at}: ${i.message}${i.expected ? ` (expected ${i.expected})` : ''}`;
  });
  const more = issues.length > 5 ? `; and ${issues.length - 5} more` : '';
  return parts.join('; ') + more;
}

/** `where` names what is checked in the messages (`body`; MCP tools: `arguments`). */
export function validateBody<B>(schema: JSONSchema, body: unknown, where = 'body'): B {
  let fn = compiled.get(schema);
  if (!fn) compiled.set(schema, (fn = ajv.compile(schema)));
  if (body === undefined) throw badRequest(`a JSON ${where} is required`, `${where}_required`);
  if (!fn(body)) throw badRequest(describeIssues(where, toIssues(fn.errors ?? [])), `invalid_${where}`);
  return body as B;
}

/** Validates a whole custom resource; `where` prefixes each pointer (e.g. `agent`). */
export function validateKind<T>(resource: unknown, where: string): T {
  const result = validateResource<T>(resource, { applyDefaults: true });
  if (!result.valid) throw badRequest(describeIssues(where, result.issues), 'invalid_resource');
  return result.value;
}

/** An integer query parameter: `fallback` when absent, 400 `invalid_query` outside `min`-`max`. */
export interface IntRange {
  fallback: number;
  min: number;
  max: number;
}

export function intQuery(q: Record<string, string>, name: string, { fallback, min, max }: IntRange): number {
  const raw = q[name];
  if (raw === undefined) return fallback;
  if (!/^\d{1,16}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw badRequest(
      `query ${name}=${JSON.stringify(raw.slice(0, 40))}: expected an integer ${min}-${max}`,
      'invalid_query',
    );
  }
  return Number(raw);
}

export function timeQuery(q: Record<string, string>, name: string): number | undefined {
  const raw = q[name];
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(raw)) {
    throw badRequest(`query ${name}: expected an RFC 3339 time`, 'invalid_query');
  }
  return ms;
}

export function enumQuery<T extends string>(
  q: Record<string, string>,
  name: string,
  values: readonly T[],
): T | undefined {
  const raw = q[name];
  if (raw === undefined) return undefined;
  if (!(values as readonly string[]).includes(raw)) {
    throw badRequest(`query ${name}: expected one of ${values.join(', ')}`, 'invalid_query');
  }
  return raw as T;
}

/** An optional query value that must match `re` (a name, a namespace); 400 naming it otherwise. */
/** A free string query value of at most `maxLength` characters (longer is 400, not silently cut). */
export function stringQuery(q: Record<string, string>, name: string, maxLength: number): string | undefined {
  const raw = q[name];
  if (raw === undefined) return undefined;
  if (raw.length > maxLength) {
    throw badRequest(`query ${name}: at most ${maxLength} characters`, 'invalid_query');
  }
  return raw;
}

export function patternQuery(q: Record<string, string>, name: string, re: RegExp): string | undefined {
  const raw = q[name];
  if (raw === undefined) return undefined;
  if (!re.test(raw)) throw badRequest(`query ${name}: expected to match ${re.source}`, 'invalid_query');
  return raw;
}
