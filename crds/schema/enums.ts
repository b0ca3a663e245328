// The spec's closed value sets, each once. Kind schemas, definition-file
// validation and generated types all read these lists.
export { AUDITOR_CATEGORIES, CATALOG_PHASES, CLAIM_TYPES, REQUEST_PHASES } from '../../auditors/sdk/types.ts';

export const SHARE_ROLES = ['Owner', 'Editor', 'Viewer'] as const;
export const AGENT_PHASES = ['pending', 'running', 'suspended'] as const;
export const INJECTION_METHODS = ['sidecar', 'client_credentials', 'token_exchange'] as const;
/** `auto` is the spec's value; `owner` (an Owner approves each use) is ours, see the report/decisions. */
export const ROUTING_APPROVALS = ['auto', 'owner'] as const;
export const SHARING_MODES = ['inherit', 'enforce', 'isolated'] as const;
export const TOOL_ENFORCEMENTS = ['available', 'required', 'blocked'] as const;
export const DEPLOYMENT_MODES = ['sidecar', 'in-cluster', 'external'] as const;
export const TRUST_TIERS = ['tee_attested', 'mtls_verified', 'key_authenticated', 'unverified'] as const;
export const CASCADE_SCOPES = ['org', 'workspace'] as const;
export const ENFORCEMENT_MODES = ['unlocked', 'exact', 'floor', 'ceiling', 'superset'] as const;
export const APP_TYPES = ['mcp_server', 'auditor', 'a2a_agent', 'skill', 'runtime'] as const;
/** How an MCP tool install authenticates: the install flow's steps 2, 3 and 4 (decision 155). */
export const INSTALL_AUTH_METHODS = [
  'enforced_credential',
  'client_credentials',
  'connect_required',
] as const;
/** The connect step's choices (spec: an OAuth popup, here authorization code with PKCE, or an API key). */
export const CONNECT_OPTIONS = ['oauth_pkce', 'api_key'] as const;
export const APP_CATEGORIES = ['MCP Servers', 'Auditors', 'A2A Agents', 'Skills', 'Runtimes'] as const;
export const DEPLOYMENT_TYPES = ['model'] as const;
export const AUDIT_MODES = ['enforce', 'observe'] as const;
export const POLICY_DECISIONS = ['allow', 'deny'] as const;
export const PRESET_TIERS = ['Starter', 'Balanced', 'Strict'] as const;
export const CONSENT_PHASES = ['pending', 'resolved'] as const;
export const CONSENT_RESOLUTIONS = ['allowed', 'denied', 'customized'] as const;
export const GRANT_PHASES = ['active', 'expired', 'revoked'] as const;
export const APPROVAL_PHASES = ['pending', 'approved', 'denied', 'expired'] as const;
export const HIGH_RISK_ACTIONS = ['write', 'merge', 'send', 'delete'] as const;
export const WORKFLOW_PHASES = ['draft', 'deploying', 'deployed', 'stopped', 'failed'] as const;
export const SETTING_TYPES = ['number', 'boolean', 'string', 'string[]'] as const;
export const AUTH_TYPES = ['mtls', 'api_key', 'none'] as const;
