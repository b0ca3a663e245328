// Names the webhook, the controllers and the gateway agree on (spec: Cluster
// webhooks; CLARIFICATIONS: Pod wiring). One place, so a rename is one line.
import { DEFAULT_CHAIN_IDS, SYSTEM_AUDITOR_IDS } from '../auditors/builtin.ts';

export const ANNOTATION = {
  auditors: 'platform.computing/auditors',
  auditMode: 'platform.computing/audit-mode',
  skipAudit: 'platform.computing/skip-audit',
  auditorChain: 'platform.computing/auditor-chain',
  cpuRequest: 'platform.computing/sidecar-cpu-request',
  memoryRequest: 'platform.computing/sidecar-memory-request',
  cpuLimit: 'platform.computing/sidecar-cpu-limit',
  memoryLimit: 'platform.computing/sidecar-memory-limit',
  policyId: 'platform.computing/policy-id',
  /** The agent's model base URL: the gateway's PLATFORM_MODEL_URL (default: the webhook's own). */
  modelUrl: 'platform.computing/model-url',
  /** Secret (key `api-key`) in the pod's namespace: PLATFORM_API_KEY of the gateway and proxy. */
  apiKeySecret: 'platform.computing/api-key-secret',
  /** JSON `{auditor: {setting: value}}`: `<AUDITOR>_<KEY>` on the matching auditor sidecars. */
  auditorSettings: 'platform.computing/auditor-settings',
  /** PLATFORM_WORKSPACE_ID (default: the `platform.io/workspace` label). */
  workspaceId: 'platform.computing/workspace-id',
  /** Written by /mutate: what was injected and why (JSON). */
  status: 'platform.computing/injection-status',
} as const;

export const LABEL = {
  secured: 'platform.io/secured',
  namespaceEnabled: 'platform.computing/enabled',
  agent: 'platform.io/agent',
  workspace: 'platform.io/workspace',
} as const;

export const CHAIN_CONFIGMAP = 'platform-auditor-chain';
export const CHAIN_CONFIGMAP_KEYS = ['preRequest', 'postResponse'] as const;

/** From the built-in auditor table (`auditors/builtin.ts`). */
export const SYSTEM_AUDITORS = SYSTEM_AUDITOR_IDS;
export const DEFAULT_CHAIN = DEFAULT_CHAIN_IDS;

export const PORT = {
  gateway: 8099,
  credentialProxy: 8088,
  mcpGateway: 8100,
  builtinFirst: 8090,
  builtinLast: 8098,
  thirdPartyFirst: 8101,
  thirdPartyLast: 8199,
  thirdPartyDefault: 8080,
} as const;

/** UID every injected sidecar runs as; the redirect rules exempt it (as Istio exempts 1337). */
export const SIDECAR_UID = 1337;

export const CONTAINER = {
  init: 'platform-init',
  gateway: 'platform-gateway',
  credentialProxy: 'platform-credential-proxy',
  auditorPrefix: 'auditor-',
} as const;

export const SIDECAR_RESOURCES = {
  requests: { memory: '128Mi', cpu: '100m' },
  limits: { memory: '256Mi', cpu: '500m' },
} as const;

export const DEFAULT_SESSION_ID = 'demo-session';
