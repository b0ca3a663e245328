// The API's character rule (base/hygiene.ts) stated in the OpenAPI
// document: every string the request schemas leave open gets the pattern of
// its kind (free text by field name, else identifier), the CRD's weaker
// "no control characters" patterns are replaced by the API's, and map keys
// get the identifier pattern. Strings with a pattern of their own (ids,
// hosts, digests), an enum or a format already exclude such characters.
// Pure; the validators keep their own schemas.
import type { JSONSchema } from '../crds/kit.ts';
import { FREE_TEXT_PATTERN, PLAIN_STRING_PATTERN } from '../crds/schema/parts.ts';
import { FREE_TEXT_CHARACTERS, FREE_TEXT_FIELDS, IDENTIFIER_CHARACTERS } from '../base/hygiene.ts';

/**
 * A pattern of our own that admits only printable ASCII (anchored at both
 * ends, no negated class, no `.`, only escapes of ASCII classes or
 * punctuation): nothing to add. Anything else gets the rule beside it.
 */
function asciiOnly(pattern: string): boolean {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.includes('[^')) return false;
  if (/[^\x20-\x7e]/.test(pattern) || /\\[^-.\\/$^*+?()[\]{}|dw]/.test(pattern)) return false;
  return !pattern.replace(/\\./g, '').includes('.');
}

/** `s` with the character rule; a pattern of its own that admits more is kept and the rule added beside it. */
/** An enum, a const or a format already excludes control and non-ASCII characters. */
const closedByKeyword = (s: JSONSchema): boolean =>
  s.enum !== undefined || s.const !== undefined || s.format !== undefined;

/** The CRD's weaker patterns, which the API's rule replaces. */
const REPLACEABLE_PATTERNS = new Set<string>([PLAIN_STRING_PATTERN, FREE_TEXT_PATTERN]);

function stringRule(s: JSONSchema, freeText: boolean): JSONSchema {
  if (closedByKeyword(s)) return s;
  const own = s.pattern as string | undefined;
  const rule = own === FREE_TEXT_PATTERN || freeText ? FREE_TEXT_CHARACTERS : IDENTIFIER_CHARACTERS;
  if (own === undefined || REPLACEABLE_PATTERNS.has(own)) return { ...s, pattern: rule };
  if (asciiOnly(own)) return s;
  return { ...s, allOf: [...((s.allOf as JSONSchema[] | undefined) ?? []), { pattern: rule }] };
}

/**
 * Any JSON value whose strings and keys keep the rule, for the places a
 * schema leaves open (free-form settings, details, claims): recursive, by
 * reference, as a component of the document.
 */
export const CLEAN_JSON_VALUE_REF = '#/components/schemas/CleanJsonValue';
const ref = { $ref: CLEAN_JSON_VALUE_REF };
export const CLEAN_JSON_VALUE: JSONSchema = {
  anyOf: [
    { type: 'string', pattern: IDENTIFIER_CHARACTERS },
    { type: ['number', 'boolean', 'null'] },
    { type: 'array', items: ref },
    { type: 'object', propertyNames: { pattern: IDENTIFIER_CHARACTERS }, additionalProperties: ref },
  ],
};

/** Keywords that constrain a value; a schema with none of them admits any JSON. */
const CONSTRAINING = [
  'type',
  'properties',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'not',
];
const isOpen = (s: JSONSchema): boolean => !CONSTRAINING.some((k) => s[k] !== undefined);

const isStringType = (t: unknown): boolean => t === 'string' || (Array.isArray(t) && t.includes('string'));
const isObjectType = (s: JSONSchema): boolean =>
  s.type === 'object' || s.properties !== undefined || s.additionalProperties !== undefined;

const mapValues = (o: Record<string, JSONSchema>, f: (k: string, v: JSONSchema) => JSONSchema) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(k, v)]));

/** The members' schemas (by name: free text or not), extra members, and keys. */
function objectRule(schema: JSONSchema): JSONSchema {
  const out: JSONSchema = {};
  if (schema.properties) {
    out.properties = mapValues(schema.properties as Record<string, JSONSchema>, (k, v) =>
      withCharacterRule(v, FREE_TEXT_FIELDS.has(k)),
    );
  }
  const extra = schema.additionalProperties;
  if (typeof extra === 'object' && extra !== null)
    out.additionalProperties = withCharacterRule(extra as JSONSchema);
  else if ((extra ?? true) === true && !schema.patternProperties) out.additionalProperties = ref;
  if (schema.propertyNames === undefined && extra !== false) {
    out.propertyNames = { pattern: IDENTIFIER_CHARACTERS };
  }
  return out;
}

function arrayRule(schema: JSONSchema, freeText: boolean): JSONSchema {
  if (schema.items && typeof schema.items === 'object') {
    return { items: withCharacterRule(schema.items as JSONSchema, freeText) };
  }
  return schema.type === 'array' && schema.items === undefined ? { items: ref } : {};
}

/** `schema` with the character rule on every open string and map key; `freeText` from the field's name. */
export function withCharacterRule(schema: JSONSchema, freeText = false): JSONSchema {
  if (typeof schema !== 'object' || schema === null || schema.$ref !== undefined) return schema;
  if (isOpen(schema)) return { ...schema, ...ref };
  const out: JSONSchema = {
    ...(isStringType(schema.type) ? stringRule(schema, freeText) : schema),
    ...(isObjectType(schema) ? objectRule(schema) : {}),
    ...arrayRule(schema, freeText),
  };
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key] as JSONSchema[] | undefined;
    if (list) out[key] = list.map((s) => withCharacterRule(s, freeText));
  }
  return out;
}
