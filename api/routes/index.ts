// Every API route, in registration order (fixed paths before parameters).
import { ACCESS_MANIFEST_ROUTES } from './access-manifest.ts';
import { EGRESS_ROUTES } from './egress.ts';
import { ACCESS_ROUTES } from './accesses.ts';
import { AGENT_ROUTES } from './agents.ts';
import { API_KEY_ROUTES } from './api-keys.ts';
import { APPROVAL_ROUTES } from './approvals.ts';
import { AUDIT_ROUTES } from './audit.ts';
import { AUDITOR_ROUTES } from './auditors.ts';
import { AUDITOR_SCHEMA_ROUTES } from './auditor-schema.ts';
import { CATALOG_ROUTES } from './catalog.ts';
import { CONSOLE_ROUTES } from './console.ts';
import { CONSOLE_TREE_ROUTES } from './console-tree.ts';
import { DEFINITION_ROUTES } from './definitions.ts';
import { DELEGATION_ROUTES } from './delegations.ts';
import { MY_DELEGATION_ROUTES } from './my-delegations.ts';
import { AUDITOR_SETTINGS_ROUTES } from './auditor-settings.ts';
import { EVIDENCE_ROUTES } from './evidence.ts';
import { POLICY_ROUTES } from './policies.ts';
import { REGISTRY_ROUTES } from './registry.ts';
import type { RouteSpec } from './route.ts';
import { SCOPED_CREDENTIAL_ROUTES } from './scoped-credentials.ts';
import { SCOPED_TOOL_ROUTES } from './scoped-tools.ts';
import { SCOPED_OAUTH_ROUTES } from './scoped-oauth.ts';
import { SCOPE_ROUTES } from './scopes.ts';
import { SHARE_ROUTES } from './shares.ts';
import { TRUST_BUNDLE_ROUTES } from './trust-bundle.ts';
import { OAUTH_ROUTES } from './oauth.ts';
import { TOKEN_EXCHANGE_ROUTES } from './token-exchange.ts';
import { WORKFLOW_ROUTES } from './workflows.ts';
import { SHELL_ROUTES } from '../shell/route.ts';

export const ROUTES: readonly RouteSpec[] = [
  ...AGENT_ROUTES,
  ...SHARE_ROUTES,
  ...APPROVAL_ROUTES,
  ...API_KEY_ROUTES,
  ...SCOPE_ROUTES,
  ...MY_DELEGATION_ROUTES,
  ...AUDIT_ROUTES,
  ...REGISTRY_ROUTES,
  ...EVIDENCE_ROUTES,
  ...POLICY_ROUTES,
  ...AUDITOR_ROUTES,
  ...AUDITOR_SCHEMA_ROUTES,
  ...CATALOG_ROUTES,
  ...AUDITOR_SETTINGS_ROUTES,
  ...WORKFLOW_ROUTES,
  ...DELEGATION_ROUTES,
  ...ACCESS_MANIFEST_ROUTES,
  ...EGRESS_ROUTES,
  ...ACCESS_ROUTES,
  ...CONSOLE_ROUTES,
  ...CONSOLE_TREE_ROUTES,
  ...TRUST_BUNDLE_ROUTES,
  ...OAUTH_ROUTES,
  ...TOKEN_EXCHANGE_ROUTES,
  ...SCOPED_OAUTH_ROUTES,
  ...SCOPED_CREDENTIAL_ROUTES,
  ...SCOPED_TOOL_ROUTES,
  ...SHELL_ROUTES,
  ...DEFINITION_ROUTES,
];
