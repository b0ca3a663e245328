// The success bodies of the console's routes, for the OpenAPI document: one
// console event (contract/console.ts), and the list the drill-down reads.
import { CONSOLE_EVENT_TYPES, SEVERITIES } from '../../contract/console.ts';
import type { JSONSchema } from '../../crds/kit.ts';

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;

function object(properties: Record<string, JSONSchema>, required = Object.keys(properties)): JSONSchema {
  return { type: 'object', required, properties };
}

export const CONSOLE_EVENT = object({
  id: { type: 'string', pattern: '^[0-9]+$' },
  timestamp: str,
  agent_id: str,
  subagent: strOrNull,
  type: { enum: [...CONSOLE_EVENT_TYPES] },
  severity: { enum: [...SEVERITIES] },
  auditor: strOrNull,
  auditors: { type: 'array', items: str },
  payload: { type: 'object' },
});

export const CONSOLE_EVENT_LIST = object({
  items: { type: 'array', items: CONSOLE_EVENT },
  /** Some events after `after` were pruned from the bounded buffer. */
  missed: { type: 'boolean' },
  latest_id: { type: 'string', pattern: '^[0-9]+$' },
});

const READY = object({ latest_id: { type: 'string', pattern: '^[0-9]+$' } });
const MISSED = object({ after: { type: 'string', pattern: '^[0-9]+$' }, detail: str });

/**
 * One message of the console stream (OpenAPI 3.2 `itemSchema` of
 * `text/event-stream`): a console event (no `event:` name, its `id:`), or the
 * named `ready` and `missed` notices; `data` is JSON.
 */
export const CONSOLE_STREAM_MESSAGE: JSONSchema = {
  type: 'object',
  required: ['data'],
  properties: {
    event: { enum: ['ready', 'missed'] },
    id: { type: 'string', pattern: '^[0-9]+$' },
    retry: { type: 'integer', minimum: 0 },
    data: {
      type: 'string',
      contentMediaType: 'application/json',
      contentSchema: { anyOf: [CONSOLE_EVENT, READY, MISSED] },
    },
  },
};
