// The success bodies of the egress routes (issue 19), for the OpenAPI
// document. The bundle names credentials, never their material; only the
// material route (the agent's own Gateway key) carries a value.
import type { JSONSchema } from '../../crds/kit.ts';

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;

function object(properties: Record<string, JSONSchema>, required = Object.keys(properties)): JSONSchema {
  return { type: 'object', required, properties };
}

const RULE = object({
  destination: str,
  injection_method: { enum: ['sidecar', 'client_credentials', 'token_exchange'] },
  credential_ref: strOrNull,
  ttl_seconds: { type: ['integer', 'null'] },
  approval: { enum: ['auto', 'owner'] },
  service: str,
  token_endpoint: strOrNull,
  client_id: strOrNull,
  audience: strOrNull,
  source: str,
});

export const EGRESS_BUNDLE = object({
  agent_id: str,
  version: { type: 'string', pattern: '^[a-f0-9]{64}$' },
  rules: { type: 'array', items: RULE },
  mcp_servers: { type: 'array', items: object({ name: str, url: str }) },
  cedar: str,
});

export const EGRESS_CREDENTIAL = object({
  credential: str,
  service: str,
  type: { enum: ['oauth_token', 'api_key', 'oauth_flow'] },
  value: str,
});

export const AGENT_SVID = object({ token: str, expires_at: str });
