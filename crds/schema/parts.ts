// Schema fragments shared by several kinds, so a rule (an owner, a routing
// rule, a duration) is written once and reads the same in every CRD.
import type { JSONSchema } from '../kit.ts';
import { INJECTION_METHODS, ROUTING_APPROVALS, SHARE_ROLES } from './enums.ts';

/** `15m`, `1h`: a whole number of minutes or hours. */
export const DURATION_PATTERN = '^[1-9][0-9]{0,5}[mh]$';
/** A DNS host; a wildcard is allowed only as the whole leading label (`*.example.com`). */
export const HOST_PATTERN =
  '^(\\*\\.)?[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$';
export const DIGEST_PATTERN = '^sha256:[a-f0-9]{64}$';
/** `spiffe://{trust_domain}/agent/{agent_id}` with agent_id = `<namespace>.<name>`. */
export const SPIFFE_ID_PATTERN =
  '^spiffe://[a-z0-9._-]+/agent/[a-z0-9]([-a-z0-9]*[a-z0-9])?\\.[a-z0-9]([-.a-z0-9]*[a-z0-9])?$';
/** Auditor and model ids: lower-case words joined by `-` or `_` (`model-context`, `llm-judge`). */
export const ID_PATTERN = '^[a-z0-9]([-_a-z0-9]{0,61}[a-z0-9])?$';
/** Setting names in resources and definition files are camelCase (`banSubstrings`). */
export const SETTING_NAME_PATTERN = '^[a-z][a-zA-Z0-9]{0,62}$';

/**
 * No control characters (C0, DEL, C1) in a short string; free text may also
 * hold TAB, LF and CR. The API refuses more (base/hygiene.ts, decision 86);
 * these are what RE2 and ECMAScript both spell alike, so the apiserver and ajv agree.
 */
export const PLAIN_STRING_PATTERN = '^[^\\x00-\\x1f\\x7f-\\x9f]*$';
export const FREE_TEXT_PATTERN = '^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]*$';

export const str = (extra: JSONSchema = {}): JSONSchema => ({
  type: 'string',
  maxLength: 1024,
  pattern: PLAIN_STRING_PATTERN,
  ...extra,
});
export const text = (extra: JSONSchema = {}): JSONSchema => ({
  type: 'string',
  maxLength: 65536,
  pattern: FREE_TEXT_PATTERN,
  ...extra,
});
export const bool = (extra: JSONSchema = {}): JSONSchema => ({ type: 'boolean', ...extra });
export const int = (extra: JSONSchema = {}): JSONSchema => ({ type: 'integer', format: 'int64', ...extra });
export const unit = (extra: JSONSchema = {}): JSONSchema => ({
  type: 'number',
  minimum: 0,
  maximum: 1,
  ...extra,
});
export const time = (): JSONSchema => ({ type: 'string', format: 'date-time' });
export const id = (): JSONSchema => str({ maxLength: 63, pattern: ID_PATTERN });
export const duration = (): JSONSchema => str({ maxLength: 7, pattern: DURATION_PATTERN });
export const digest = (): JSONSchema => str({ maxLength: 71, pattern: DIGEST_PATTERN });
export const anyValue = (): JSONSchema => ({ 'x-kubernetes-preserve-unknown-fields': true });
export const freeForm = (): JSONSchema => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });

export function oneOf(values: readonly string[], defaultValue?: string): JSONSchema {
  const s: JSONSchema = { type: 'string', enum: [...values] };
  if (defaultValue !== undefined) s.default = defaultValue;
  return s;
}

export function obj(
  properties: Record<string, JSONSchema>,
  required: string[] = [],
  extra: JSONSchema = {},
): JSONSchema {
  const s: JSONSchema = { type: 'object', properties, ...extra };
  if (required.length > 0) s.required = required;
  return s;
}

export const arr = (items: JSONSchema, maxItems = 64, extra: JSONSchema = {}): JSONSchema => ({
  type: 'array',
  maxItems,
  items,
  ...extra,
});

/** A list whose entries are unique by `key` (server-side apply merges entries by it). */
export const listMap = (items: JSONSchema, key: string, maxItems = 64): JSONSchema =>
  arr(items, maxItems, { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': [key] });

export const stringSet = (item: JSONSchema = str({ maxLength: 253 }), maxItems = 64): JSONSchema =>
  arr(item, maxItems, { 'x-kubernetes-list-type': 'set' });

export const mapOf = (values: JSONSchema, maxProperties = 64, extra: JSONSchema = {}): JSONSchema => ({
  type: 'object',
  maxProperties,
  additionalProperties: values,
  ...extra,
});

export const nameRef = (): JSONSchema => obj({ name: str({ maxLength: 253, minLength: 1 }) }, ['name']);
export const secretKeyRef = (): JSONSchema =>
  obj({ name: str({ maxLength: 253, minLength: 1 }), key: str({ maxLength: 253, minLength: 1 }) }, [
    'name',
    'key',
  ]);

export const owner = (): JSONSchema =>
  obj({ subject: str({ minLength: 1, maxLength: 256 }), role: oneOf(SHARE_ROLES) }, ['subject', 'role']);
/** Owners, unique by subject. No minimum: an agent whose last Owner left is stored and suspended. */
export const owners = (): JSONSchema => listMap(owner(), 'subject', 64);

export const auditorRef = (): JSONSchema => obj({ auditorId: id() }, ['auditorId']);
export const auditorChain = (): JSONSchema =>
  obj({
    preRequest: listMap(auditorRef(), 'auditorId', 32),
    postResponse: listMap(auditorRef(), 'auditorId', 32),
  });

export const settingValue = (): JSONSchema => obj({ value: anyValue(), enforced: bool() }, ['value']);

/** `<auditor_id>.<settingName>` → `{value, enforced}`; setting names are camelCase. */
export const auditorSettings = (): JSONSchema =>
  mapOf(
    mapOf(settingValue(), 64, {
      'x-kubernetes-validations': [
        { rule: `self.all(k, k.matches('${SETTING_NAME_PATTERN}'))`, message: 'setting names are camelCase' },
      ],
    }),
    32,
    {
      'x-kubernetes-validations': [
        {
          rule: `self.all(k, k.matches('${ID_PATTERN}'))`,
          message: 'auditor ids are lower-case words joined by - or _',
        },
      ],
    },
  );

export const credentialRoutingRule = (): JSONSchema =>
  obj(
    {
      destination: str({ maxLength: 253, pattern: HOST_PATTERN }),
      credentialRef: str({ maxLength: 253, minLength: 1 }),
      injectionMethod: oneOf(INJECTION_METHODS, 'sidecar'),
      ttl: duration(),
      approval: oneOf(ROUTING_APPROVALS, 'auto'),
    },
    ['destination'],
    {
      'x-kubernetes-validations': [
        {
          rule: "!has(self.credentialRef) || self.injectionMethod == 'sidecar'",
          message: 'credentialRef is used only with injectionMethod sidecar',
        },
      ],
    },
  );
export const credentialRouting = (): JSONSchema => listMap(credentialRoutingRule(), 'destination', 64);

export const abilities = (): JSONSchema =>
  obj({
    soul: obj({
      identity: obj({ name: str({ maxLength: 253 }), role: str() }),
      personality: text(),
      guidelines: arr(text({ maxLength: 4096 }), 64),
      customSections: listMap(
        obj({ title: str({ maxLength: 253 }), content: text() }, ['title']),
        'title',
        32,
      ),
    }),
    subagents: listMap(
      obj(
        {
          name: str({ maxLength: 253, minLength: 1 }),
          description: text({ maxLength: 4096 }),
          delegationConditions: arr(text({ maxLength: 4096 }), 32),
          permissions: stringSet(),
        },
        ['name'],
      ),
      'name',
      32,
    ),
  });

export const environment = (): JSONSchema =>
  obj({
    tools: listMap(
      obj(
        {
          name: str({ maxLength: 253, minLength: 1 }),
          category: str({ maxLength: 253 }),
          configuration: freeForm(),
          credentialRouting: credentialRouting(),
        },
        ['name'],
      ),
      'name',
      64,
    ),
    credentialRouting: credentialRouting(),
  });

/** Status fields every kind shares. */
export const baseStatus = (conditions: JSONSchema, extra: Record<string, JSONSchema> = {}): JSONSchema =>
  obj({ observedGeneration: int({ minimum: 0 }), conditions, ...extra });
