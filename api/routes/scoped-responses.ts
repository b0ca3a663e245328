// The success bodies of the scoped-credential and scoped-tool routes, for the
// OpenAPI document. A credential's view has no field for its material.
import type { JSONSchema } from '../../crds/kit.ts';

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const bool = { type: 'boolean' } as const;

function object(properties: Record<string, JSONSchema>, required = Object.keys(properties)): JSONSchema {
  return { type: 'object', required, properties };
}
const listOf = (item: JSONSchema): JSONSchema => object({ items: { type: 'array', items: item } });

export const CREDENTIAL_VIEW = object({
  id: str,
  scope: { enum: ['org', 'workspace'] },
  scope_id: str,
  service: str,
  type: { enum: ['oauth_token', 'api_key', 'oauth_flow'] },
  sharing_mode: { enum: ['inherit', 'enforce', 'isolated'] },
  auth_status: str,
  destinations: { type: 'array', items: str },
  created_at: strOrNull,
  last_rotated_at: strOrNull,
});
export const CREDENTIAL_LIST = listOf(CREDENTIAL_VIEW);
export const CREDENTIAL_REVOKED = object({ id: str, service: str, revoked: bool });
export const EFFECTIVE_CREDENTIALS = object({
  agent_id: str,
  items: { type: 'array', items: object({ service: str, enforced: bool, credential: CREDENTIAL_VIEW }) },
  withheld: {
    type: 'array',
    items: object({
      reason: { enum: ['isolated', 'enforced_above', 'overridden', 'duplicate'] },
      credential: CREDENTIAL_VIEW,
    }),
  },
});

export const TOOL_VIEW = object({
  id: str,
  scope: { enum: ['org', 'workspace'] },
  scope_id: str,
  tool: str,
  enforcement: { enum: ['available', 'required', 'blocked'] },
  service: strOrNull,
  server_url: strOrNull,
  credential_id: strOrNull,
  created_at: strOrNull,
});
export const TOOL_LIST = listOf(TOOL_VIEW);
export const TOOL_REMOVED = object({ id: str, tool: str, removed: bool });
export const EFFECTIVE_TOOLS = object({
  agent_id: str,
  items: {
    type: 'array',
    items: object(
      {
        tool: str,
        state: { enum: ['available', 'required', 'blocked'] },
        scope: { enum: ['org', 'workspace'] },
        scope_id: str,
        server_url: strOrNull,
        service: strOrNull,
        auth_status: strOrNull,
        tiers: { type: 'object' },
        conflict: str,
      },
      ['tool', 'state', 'scope', 'scope_id', 'auth_status', 'tiers'],
    ),
  },
});
export const SCOPES_VIEW = object({
  organizations: {
    type: 'array',
    items: object({ name: str, home_namespace: strOrNull, can_write: bool }),
  },
  workspaces: {
    type: 'array',
    items: object({ namespace: str, name: str, scope_id: str, organization: strOrNull, can_write: bool }),
  },
});
