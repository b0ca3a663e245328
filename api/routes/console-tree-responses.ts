// The success body of the console's subagent tree (api/console/tree.ts), for
// the OpenAPI document.
import type { JSONSchema } from '../../crds/kit.ts';

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const count = { type: 'integer', minimum: 0 } as const;
const countOrNull = { type: ['integer', 'null'], minimum: 0 } as const;

function object(properties: Record<string, JSONSchema>, required = Object.keys(properties)): JSONSchema {
  return { type: 'object', required, properties };
}

const RESOURCES = object({ cpu_millicores: countOrNull, memory_bytes: countOrNull, reason: strOrNull });

export const TREE_NODE = object({
  name: str,
  kind: { enum: ['agent', 'subagent'] },
  parent: strOrNull,
  declared: { type: 'boolean' },
  description: strOrNull,
  status: str,
  current_task: strOrNull,
  last_event_at: strOrNull,
  usage: object({ model_calls: count, tool_calls: count, errors: count, approvals: count }),
  pod: strOrNull,
  resources: { anyOf: [RESOURCES, { type: 'null' }] },
  events: strOrNull,
});

export const SUBAGENT_TREE = object({ agent_id: str, nodes: { type: 'array', items: TREE_NODE } });
