// The success bodies of the routes, as JSON Schemas for the OpenAPI document
// (each route names one in `response`). Required lists hold what a client can
// rely on; objects stay open so a new field is not a breaking change.
import type { JSONSchema } from '../../crds/kit.ts';

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
const obj = { type: 'object' } as const;
const strOrNull = { type: ['string', 'null'] } as const;

function object(properties: Record<string, JSONSchema>, required = Object.keys(properties)): JSONSchema {
  return { type: 'object', required, properties };
}

const listOf = (item: JSONSchema, extra: Record<string, JSONSchema> = {}): JSONSchema =>
  object({ items: { type: 'array', items: item }, ...extra }, ['items']);

const SHARE = object({ subject: str, role: { enum: ['Owner', 'Editor', 'Viewer'] } });

export const AGENT_VIEW: JSONSchema = object(
  { agent_id: str, namespace: str, name: str, phase: str, created_at: str, spec: obj, status: obj },
  ['agent_id', 'namespace', 'name', 'phase', 'spec', 'status'],
);
export const AGENT_LIST = listOf(AGENT_VIEW, { continue: str });
export const STALE_AGENTS = object({
  days: int,
  items: {
    type: 'array',
    items: object({ agent_id: str, last_activity: strOrNull, idle_days: int, phase: str, owners: int }),
  },
});
export const ACCESS_REVIEW = object({
  agent_id: str,
  reviewed_at: str,
  shares: { type: 'array', items: SHARE },
  counts: object({ Owner: int, Editor: int, Viewer: int }),
  findings: { type: 'array', items: str },
});
const intOrNull = { type: ['integer', 'null'] } as const;
const CONTROL_ACTION = object(
  {
    action: { enum: ['agent.console.shell'] },
    session_id: str,
    subject: str,
    time: str,
    outcome: { enum: ['allowed', 'denied', 'failed'] },
    status: int,
    ended_at: strOrNull,
    duration_ms: intOrNull,
    exit_code: intOrNull,
    commands_count: int,
    commands: { type: 'array', items: str },
  },
  [
    'action',
    'session_id',
    'subject',
    'time',
    'outcome',
    'status',
    'ended_at',
    'duration_ms',
    'exit_code',
    'commands_count',
  ],
);
export const PASSPORT = object(
  {
    agent_id: str,
    email: strOrNull,
    handle: strOrNull,
    spiffe_id: strOrNull,
    oauth_client_id: strOrNull,
    phase: str,
    owners: { type: 'array', items: SHARE },
    accountable_owners: int,
    accesses: {
      type: 'array',
      items: object({
        source: { enum: ['model_call', 'data_access'] },
        time: str,
        resource: str,
        operation: str,
      }),
    },
    access_count: int,
    trust_tiers: {
      type: 'array',
      items: object({
        auditor_id: str,
        deployment_mode: strOrNull,
        trust_tier: str,
        attested_tier: strOrNull,
      }),
    },
    attestation: object(
      {
        trust_tier: strOrNull,
        hardware_attested: bool,
        last_attestation_time: strOrNull,
        auditor_tiers: { type: 'object', additionalProperties: str },
        results: { type: 'array', items: obj },
      },
      ['trust_tier', 'hardware_attested', 'results'],
    ),
    // The agent route's passport only (a workflow's lists none): shell sessions and refused attempts.
    control_actions: { type: 'array', items: CONTROL_ACTION },
  },
  ['agent_id', 'phase', 'owners', 'accountable_owners', 'accesses', 'trust_tiers', 'attestation'],
);
export const SHARE_LIST = object({
  agent_id: str,
  shares: { type: 'array', items: SHARE },
  owners: int,
  suspended_for_owners: bool,
});

export const APPROVAL_VIEW = object(
  {
    id: str,
    agent_id: str,
    action: str,
    target: str,
    description: strOrNull,
    operation: str,
    phase: { enum: ['pending', 'approved', 'denied', 'expired'] },
    requested_by: strOrNull,
    requested_at: strOrNull,
    expires_at: strOrNull,
    decided_by: strOrNull,
    decided_at: strOrNull,
    reason: strOrNull,
    details: obj,
  },
  ['id', 'agent_id', 'action', 'target', 'operation', 'phase'],
);
export const APPROVAL_REQUESTED = object({ approval: APPROVAL_VIEW, applied: bool });
export const APPROVAL_DECIDED = object({ approval: APPROVAL_VIEW, executed: bool, result: str });
export const APPROVAL_LIST = listOf(APPROVAL_VIEW);
export const NOTIFICATION_COUNT = object({ count: int, approvals: int, consents: int });

const scopes = { type: 'array', items: str } as const;
export const CONSENT_VIEW = object({
  id: str,
  agent_id: str,
  user: str,
  service: str,
  scopes,
  ttl: strOrNull,
  reason: strOrNull,
  phase: { enum: ['pending', 'resolved', 'expired'] },
  resolution: strOrNull,
  resolved_by: strOrNull,
  requested_at: strOrNull,
  expires_at: strOrNull,
  grant_id: strOrNull,
});
export const CONSENT_LIST = listOf(CONSENT_VIEW);
export const GRANT_VIEW = object({
  id: str,
  agent_id: str,
  user: str,
  service: str,
  scopes,
  ttl: strOrNull,
  granted_at: str,
  expires_at: str,
  phase: { enum: ['active', 'expired', 'revoked'] },
  consent_id: strOrNull,
  revoked_at: strOrNull,
  revoked_by: strOrNull,
});
export const GRANT_LIST = listOf(GRANT_VIEW);
export const CONSENT_DENIED = object({ consent: CONSENT_VIEW });

const tierOf = { type: ['object', 'null'], required: ['name', 'access_manifest'] } as const;
const listOfLists = { type: 'array', items: { type: 'array', items: str } } as const;
const BOUNDS = object({ allowed: listOfLists, denied: { type: 'array', items: str } });
/** Each `allowed` holds one list per restricting tier: a value must be in every one (decision 139). */
export const ACCESS_MANIFEST = object({
  agent_id: str,
  organization: tierOf,
  workspace: tierOf,
  effective: object({
    account: { type: ['object', 'null'] },
    tools: BOUNDS,
    network: BOUNDS,
    data: BOUNDS,
    actions: object({
      approval_required: { type: 'array', items: str },
      denied: { type: 'array', items: str },
    }),
  }),
});

const API_KEY_PROPS = {
  id: str,
  subject: str,
  role: str,
  workspaces: { type: 'array', items: str },
  agents: { type: 'array', items: str },
  description: str,
  created_by: str,
  created_at: str,
  expires_at: strOrNull,
} as const;
export const API_KEY_LIST = listOf(object(API_KEY_PROPS));
export const WHOAMI = object({
  subject: str,
  method: { enum: ['api_key', 'service_account', 'oidc'] },
  org_admin: bool,
  workspace_admin_of: { type: 'array', items: str },
});
/** The plaintext `key` appears here once and never again. */
export const API_KEY_MINTED = object({ ...API_KEY_PROPS, key: str });

const AUDIT_ENTRY = object(
  {
    seq: int,
    time: str,
    subject: str,
    method: str,
    action: str,
    resource: str,
    namespace: str,
    status: int,
    outcome: { enum: ['allowed', 'denied', 'failed'] },
    requestId: str,
    details: obj,
    prevHash: str,
    hash: str,
  },
  ['seq', 'time', 'subject', 'action', 'resource', 'status', 'outcome', 'hash'],
);
export const AUDIT_PAGE = listOf(AUDIT_ENTRY, { before: int });
export const AUDIT_VERIFICATION = object({ ok: bool, entries: int, brokenAt: int, reason: str }, [
  'ok',
  'entries',
]);

export const DIGEST_CHECK = object({ digest: str, notarized: bool });
export const NOTARIZATION = object({ digest: str, notarized: bool, records: { type: 'array', items: str } });

export const TRUST_BUNDLE = object({
  trust_domain: str,
  jwt_authorities: object({
    keys: { type: 'array', items: object({ kty: str, kid: str, use: { enum: ['jwt-svid'] } }) },
  }),
  x509_authorities: { type: 'array', items: str },
  refresh_hint: int,
});

export const OAUTH_METADATA = object(
  {
    issuer: str,
    token_endpoint: str,
    token_exchange_endpoint: str,
    jwks_uri: str,
    grant_types_supported: { type: 'array', items: str },
    token_endpoint_auth_methods_supported: { type: 'array', items: str },
    token_endpoint_auth_signing_alg_values_supported: { type: 'array', items: str },
  },
  ['issuer', 'token_endpoint', 'jwks_uri', 'grant_types_supported'],
);
export const OAUTH_JWKS = object({
  keys: { type: 'array', items: object({ kty: str, kid: str, use: { enum: ['sig'] } }) },
});
export const OAUTH_TOKEN = object(
  { access_token: str, token_type: { enum: ['Bearer'] }, expires_in: int, scope: str },
  ['access_token', 'token_type', 'expires_in'],
);

/** RFC 8693 §2.2.1: the delegation token of a token exchange. */
export const TOKEN_EXCHANGED = object(
  {
    access_token: str,
    issued_token_type: { enum: ['urn:ietf:params:oauth:token-type:access_token'] },
    token_type: { enum: ['Bearer'] },
    expires_in: int,
    scope: str,
  },
  ['access_token', 'issued_token_type', 'token_type', 'expires_in', 'scope'],
);

export const ACCESSES_ACCEPTED = object({ accepted: int });
export const ACCESS_LOG = object(
  {
    agent_id: str,
    items: {
      type: 'array',
      items: object(
        {
          seq: int,
          received_at: str,
          hash: str,
          at: str,
          kind: str,
          destination: str,
          method: str,
          action: str,
          path: strOrNull,
          status: { type: ['integer', 'null'] },
          outcome: str,
          reason: strOrNull,
          user: strOrNull,
          injection_method: strOrNull,
          service: strOrNull,
          approval_id: strOrNull,
          subagent: strOrNull,
          bytes_up: int,
          bytes_down: int,
          duration_ms: int,
        },
        ['seq', 'received_at', 'hash', 'at', 'kind', 'destination', 'method', 'action', 'outcome'],
      ),
    },
    next_before: { type: ['integer', 'null'] },
  },
  ['agent_id', 'items', 'next_before'],
);
export const EVIDENCE_ACCEPTED = object({ evidence_id: str, seq: int, hash: str, attestation_result: obj });
export const EVIDENCE_TIMELINE = object({
  agent_id: str,
  items: {
    type: 'array',
    items: object(
      {
        evidence_id: str,
        seq: int,
        prev_hash: str,
        hash: str,
        received_at: str,
        agent_uid: str,
        trust_tier: str,
        attestation_result: obj,
      },
      ['seq', 'hash', 'attestation_result'],
    ),
  },
});

export const POLICY_RECORD = object({ id: str, version: str, spec: obj });
export const POLICY_LIST = listOf(POLICY_RECORD);
export const EFFECTIVE_POLICY = object({
  policy_id: str,
  policy_version: str,
  chain: { type: 'array', items: obj },
});
export const PRESET_APPLIED = object({
  workspace_id: str,
  policy_id: str,
  policy_version: str,
  applied: obj,
  spec: obj,
});

export const AUDITOR_REGISTERED = object({ registered: bool, auditor_id: str, vocabulary_synced: bool });
export const AUDITOR_LIST = listOf(
  object(
    {
      auditor_id: str,
      name: str,
      category: str,
      phase: str,
      builtin: bool,
      deployment_mode: str,
      endpoint: strOrNull,
      health: strOrNull,
      trust_tier: str,
      claims: { type: 'array', items: object({ name: str, type: str }, ['name']) },
    },
    ['auditor_id', 'builtin', 'trust_tier', 'claims'],
  ),
);
// GET /v1/auditors/schema/{id}: each claim with its ClaimSettingDefinitions.
const CLAIM_SETTING = object(
  {
    key: str,
    label: str,
    type: { enum: ['number', 'boolean', 'string', 'string[]'] },
    default: {},
    min: { type: 'number' },
    max: { type: 'number' },
    step: { type: 'number' },
    unit: str,
    control: str,
    options: { type: 'array', items: str },
  },
  ['key', 'label', 'type', 'default'],
);
export const AUDITOR_SCHEMA = object({
  auditor_id: str,
  builtin: bool,
  claims: {
    type: 'array',
    items: object({
      name: str,
      type: str,
      description: str,
      settings: { type: 'array', items: CLAIM_SETTING },
    }),
  },
});
export const MODEL_LIST = listOf(
  object(
    {
      name: str,
      model_id: str,
      model_type: strOrNull,
      deployment_mode: str,
      endpoint: strOrNull,
      image: strOrNull,
      image_digest: strOrNull,
    },
    ['name'],
  ),
);
export const MODEL_REGISTERED = object({ registered: bool, model_id: str, name: str });

// App catalog (api/routes/catalog.ts).
export const CATALOG_APP = object(
  {
    app_id: str,
    name: str,
    description: str,
    category: str,
    type: str,
    trust_tier: str,
    builtin: bool,
    version: strOrNull,
    auditor_id: strOrNull,
    required_permissions: { type: 'array', items: str },
    data_classes: { type: 'array', items: str },
    auditor_requirements: { type: 'array', items: str },
    server_url: strOrNull,
    mcp_metadata: { type: ['object', 'null'] },
    install_count: int,
  },
  ['app_id', 'name', 'category', 'type', 'trust_tier', 'builtin', 'install_count'],
);
export const CATALOG_LIST = listOf(CATALOG_APP);
export const INSTALLED_APP = object(
  {
    agent_id: str,
    app_id: str,
    install_name: str,
    name: strOrNull,
    type: strOrNull,
    category: strOrNull,
    version: strOrNull,
    configuration: obj,
    installed_at: strOrNull,
    auth: {
      oneOf: [
        object(
          {
            method: { enum: ['enforced_credential', 'client_credentials', 'connect_required'] },
            status: { enum: ['connected', 'connect_required'] },
            credential_ref: str,
            credential_scope: { enum: ['org', 'workspace'] },
            client_id: str,
            token_endpoint: str,
            registered_at: str,
            connect_options: { type: 'array', items: { enum: ['oauth_pkce', 'api_key'] } },
          },
          ['method', 'status'],
        ),
        { type: 'null' },
      ],
    },
    credential_routing: {
      type: 'array',
      items: object(
        { destination: str, credential_ref: str, injection_method: str, ttl: str, approval: str },
        ['destination', 'injection_method'],
      ),
    },
    mcp_metadata: { type: ['object', 'null'] },
  },
  ['agent_id', 'app_id', 'install_name', 'configuration', 'auth', 'credential_routing', 'mcp_metadata'],
);
export const INSTALLED_LIST = listOf(INSTALLED_APP);
export const UNINSTALLED = object({ agent_id: str, app_id: str, uninstalled: bool });

// Auditor settings (api/auditor-settings): one setting as a tier sees it, with its badge.
const SETTING_VIEW = object(
  {
    auditor_id: str,
    setting: str,
    value: {},
    source: { enum: ['org', 'workspace', 'agent'] },
    badge: str,
    badge_kind: { enum: ['LOCKED', 'INHERITED', 'OVERRIDDEN', 'DIRECT'] },
    locked: bool,
    editable: bool,
    parent_value: {},
    parent_scope: { enum: ['org', 'workspace'] },
  },
  ['auditor_id', 'setting', 'value', 'source', 'badge', 'badge_kind', 'locked', 'editable'],
);
export const AUDITOR_SETTINGS = listOf(SETTING_VIEW, { scope: str, target: obj });
export const AUDITOR_SETTING_SAVED = object({ scope: str, target: obj, setting: SETTING_VIEW });
export const AUDITOR_SETTING_RESET = object(
  { scope: str, target: obj, removed: bool, setting: { oneOf: [SETTING_VIEW, { type: 'null' }] } },
  ['scope', 'target', 'removed', 'setting'],
);

// Workflows (/api/v1/workflows).
const WORKFLOW_AGENT = object({ node: str, agent_id: str });
export const WORKFLOW_VIEW = object(
  {
    workflow_id: str,
    namespace: str,
    name: str,
    description: str,
    nodes: {
      type: 'array',
      items: object({ name: str, agent: str, role: str, spec: obj }, ['name', 'agent']),
    },
    edges: { type: 'array', items: object({ from: str, to: str, condition: str }, ['from', 'to']) },
    deployed: bool,
    phase: str,
    agents: { type: 'array', items: WORKFLOW_AGENT },
    conditions: {
      type: 'array',
      items: object({ type: str, status: str, reason: str, message: str, last_transition_time: str }, [
        'type',
        'status',
        'reason',
        'last_transition_time',
      ]),
    },
    created_at: str,
  },
  ['workflow_id', 'namespace', 'name', 'nodes', 'edges', 'deployed', 'phase', 'agents', 'conditions'],
);
export const WORKFLOW_LIST = listOf(WORKFLOW_VIEW);
export const WORKFLOW_PASSPORT = object({
  workflow_id: str,
  phase: str,
  agents: { type: 'array', items: object({ node: str, agent_id: str, passport: PASSPORT }) },
  missing: { type: 'array', items: WORKFLOW_AGENT },
});
