// One data-access record on the wire (Contract D of issue 19, snake_case):
// what the agent's credential proxy saw of one call, posted in batches to
// `POST /v1/agents/{agent_id}/accesses`. The body schema is strict (unknown
// fields are refused) and bounds every string, so a batch has a known size.
import { SUBAGENT_PATTERN } from '../contract/console.ts';
import type { JSONSchema } from '../crds/kit.ts';

export const ACCESS_KINDS = ['http', 'https', 'tunnel', 'mcp'] as const;
export const ACCESS_ACTIONS = ['read', 'write', 'merge', 'send', 'delete', 'connect'] as const;
export const ACCESS_OUTCOMES = [
  'forwarded',
  'denied',
  'approval_denied',
  'approval_timeout',
  'upstream_error',
] as const;
export const INJECTION_METHODS = ['sidecar', 'client_credentials', 'token_exchange'] as const;

/** The most records one POST carries. */
export const MAX_RECORDS_PER_BATCH = 100;
/** Body limit of the POST (413 above): 100 records of the longest allowed fields fit. */
export const ACCESS_BATCH_MAX_BYTES = 512 * 1024;

export interface AccessWire {
  at: string;
  kind: (typeof ACCESS_KINDS)[number];
  destination: string;
  method: string;
  action: (typeof ACCESS_ACTIONS)[number];
  path: string | null;
  status: number | null;
  outcome: (typeof ACCESS_OUTCOMES)[number];
  reason: string | null;
  user: string | null;
  injection_method: (typeof INJECTION_METHODS)[number] | null;
  service: string | null;
  approval_id: string | null;
  /** The subagent that made the call (`x-platform-subagent`), null for the agent itself. */
  subagent: string | null;
  bytes_up: number;
  bytes_down: number;
  duration_ms: number;
}

const nullable = (schema: JSONSchema): JSONSchema => ({ anyOf: [schema, { type: 'null' }] });
const count: JSONSchema = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
const OPTIONAL_FIELDS = [
  'path',
  'status',
  'reason',
  'user',
  'injection_method',
  'service',
  'approval_id',
  'subagent',
] as const;

export const ACCESS_RECORD: JSONSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'at',
    'kind',
    'destination',
    'method',
    'action',
    'outcome',
    'bytes_up',
    'bytes_down',
    'duration_ms',
  ],
  properties: {
    at: { type: 'string', format: 'date-time', maxLength: 64 },
    kind: { enum: [...ACCESS_KINDS] },
    // `host:port`, the host a name or an IPv6 literal in brackets.
    destination: {
      type: 'string',
      maxLength: 300,
      pattern: '^(\\[[0-9A-Fa-f:.]{2,45}\\]|[A-Za-z0-9._-]{1,253}):[0-9]{1,5}$',
    },
    method: { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z][A-Za-z/_-]*$' },
    action: { enum: [...ACCESS_ACTIONS] },
    // The path only: a query string can carry secrets and personal data.
    path: nullable({ type: 'string', maxLength: 2048, pattern: '^/[^?#]*$' }),
    status: nullable({ type: 'integer', minimum: 100, maximum: 599 }),
    outcome: { enum: [...ACCESS_OUTCOMES] },
    reason: nullable({ type: 'string', maxLength: 1024 }),
    user: nullable({ type: 'string', minLength: 1, maxLength: 256 }),
    injection_method: nullable({ enum: [...INJECTION_METHODS] }),
    service: nullable({ type: 'string', minLength: 1, maxLength: 253 }),
    approval_id: nullable({ type: 'string', minLength: 1, maxLength: 253 }),
    subagent: nullable({ type: 'string', maxLength: 253, pattern: SUBAGENT_PATTERN }),
    bytes_up: count,
    bytes_down: count,
    duration_ms: count,
  },
};

export const ACCESS_BATCH: JSONSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['records'],
  properties: {
    records: { type: 'array', minItems: 1, maxItems: MAX_RECORDS_PER_BATCH, items: ACCESS_RECORD },
  },
};

/** A validated record with every optional field present (null when absent), so stored records have one shape. */
export function normalizedRecord(record: Partial<AccessWire>): AccessWire {
  const filled = { ...record } as Record<string, unknown>;
  for (const field of OPTIONAL_FIELDS) filled[field] ??= null;
  return filled as unknown as AccessWire;
}
