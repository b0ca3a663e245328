// The names the roles agree on when they meet in the cluster: the API group,
// the resource plurals, labels, annotations, finalizers, ConfigMap and Secret
// names, field managers and event reporters. A leaf: it imports nothing from
// the project, so every role (and crds/) can use it. Two label prefixes exist
// (`platform.io/…` and `platform.computing/…`): both are in the spec and on
// live objects, so neither is renamed (docs/decisions.md 100).

/** The custom resources' API group (CRDs, every custom-object call). */
export const GROUP = 'platform.io';
/** The one served and stored version of every kind. */
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;

/** Resource plurals: crds/kinds defines each kind with its own; controllers, API and tests address it. */
export const PLURAL = {
  agent: 'platformagents',
  workspace: 'platformworkspaces',
  organization: 'organizations',
  environment: 'platformenvironments',
  grant: 'delegationgrants',
  consent: 'consentrequests',
  auditor: 'auditorregistrations',
  model: 'modelregistrations',
  credential: 'scopedcredentials',
  toolInstall: 'scopedtoolinstalls',
  policy: 'auditorpolicies',
  approval: 'approvalrequests',
  appCatalogEntry: 'appcatalogentries',
  installedApp: 'agentinstalledapps',
  workflow: 'workflows',
} as const;
export type Plural = (typeof PLURAL)[keyof typeof PLURAL];

/** Where a custom resource lives (the shape the client's custom-object calls take). */
export interface ResourceCoordinates {
  group: string;
  version: string;
  plural: string;
}
export const resourceOf = (plural: string): ResourceCoordinates => ({
  group: GROUP,
  version: VERSION,
  plural,
});

/** The coordinates the operator's informers and status writers use. */
export const RESOURCES = {
  agent: resourceOf(PLURAL.agent),
  workspace: resourceOf(PLURAL.workspace),
  organization: resourceOf(PLURAL.organization),
  environment: resourceOf(PLURAL.environment),
  grant: resourceOf(PLURAL.grant),
  consent: resourceOf(PLURAL.consent),
  auditor: resourceOf(PLURAL.auditor),
  credential: resourceOf(PLURAL.credential),
  policy: resourceOf(PLURAL.policy),
  model: resourceOf(PLURAL.model),
  appCatalogEntry: resourceOf(PLURAL.appCatalogEntry),
  installedApp: resourceOf(PLURAL.installedApp),
  toolInstall: resourceOf(PLURAL.toolInstall),
  workflow: resourceOf(PLURAL.workflow),
  approval: resourceOf(PLURAL.approval),
} as const;

export const LABEL = {
  /** Pods the webhook injected (webhook writes; controllers and policies select). */
  secured: 'platform.io/secured',
  /** Namespaces whose pods the webhook injects (workspace controller writes; webhook selects). */
  namespaceEnabled: 'platform.computing/enabled',
  /** The agent a pod or approval belongs to (controllers and API write; webhook reads). */
  agent: 'platform.io/agent',
  /** The workspace an object belongs to (controllers write; webhook, API and converters read). */
  workspace: 'platform.io/workspace',
  /** The environment a namespace belongs to (environment controller writes). */
  environment: 'platform.io/environment',
  /** The agent UID a gateway key Secret is bound to (agent controller writes and selects). */
  agentUid: 'platform.io/agent-uid',
  /** API key Secrets (API key store writes and lists). */
  apiKey: 'platform.io/api-key',
  /** The Workflow a PlatformAgent was deployed for (API writes on deploy; API selects). */
  workflow: 'platform.io/workflow',
  /** Everything the operator made (operator writes; its informers select on it). */
  managedBy: 'app.kubernetes.io/managed-by',
} as const;

/** The value of LABEL.managedBy on what the operator made. */
export const MANAGED_BY = 'platform-operator';
/** Selects every object the operator made (informers list only these). */
export const MANAGED_SELECTOR = `${LABEL.managedBy}=${MANAGED_BY}`;

export const ANNOTATION = {
  /** Pod: extra auditors to inject (users write; webhook reads). */
  auditors: 'platform.computing/auditors',
  /** Pod: enforce or observe (agent controller writes; webhook reads). */
  auditMode: 'platform.computing/audit-mode',
  /** Pod: no injection (users write; webhook reads). */
  skipAudit: 'platform.computing/skip-audit',
  /** Pod: the agent's auditor chain (agent controller writes; webhook reads). */
  auditorChain: 'platform.computing/auditor-chain',
  /** Pod: sidecar resources (users write; webhook reads). */
  cpuRequest: 'platform.computing/sidecar-cpu-request',
  memoryRequest: 'platform.computing/sidecar-memory-request',
  cpuLimit: 'platform.computing/sidecar-cpu-limit',
  memoryLimit: 'platform.computing/sidecar-memory-limit',
  /** Pod: the gateway's policy id (agent controller writes; webhook reads). */
  policyId: 'platform.computing/policy-id',
  /** Pod: the agent's model base URL, the gateway's PLATFORM_MODEL_URL (default: the webhook's own). */
  modelUrl: 'platform.computing/model-url',
  /** Pod: Secret (key SECRET_KEY.apiKey) in the pod's namespace: PLATFORM_API_KEY of the gateway and proxy. */
  apiKeySecret: 'platform.computing/api-key-secret',
  /** Pod: Secret in the pod's namespace holding the agent's SVIDs, mounted into the platform sidecars only (agent controller writes; webhook reads). */
  svidSecret: 'platform.computing/svid-secret',
  /** SVID Secret: when its JWT-SVID expires, the SPIFFE ID and the key id that signed it (identity controller writes and reads). */
  svidExpires: 'platform.io/svid-expires',
  svidSpiffeId: 'platform.io/svid-spiffe-id',
  svidKeyId: 'platform.io/svid-key-id',
  /** SVID Secret: the last check that the agent's OAuth client obtains a token with it: `ok` or the OAuth error code, and when (identity controller writes; agent controller reads). */
  tokenCheck: 'platform.io/token-check',
  tokenCheckTime: 'platform.io/token-check-time',
  /** Pod: JSON `{auditor: {setting: value}}`, `<AUDITOR>_<KEY>` on the matching auditor sidecars. */
  auditorSettings: 'platform.computing/auditor-settings',
  /** Pod: PLATFORM_WORKSPACE_ID (default: LABEL.workspace). */
  workspaceId: 'platform.computing/workspace-id',
  /** Pod: what /mutate injected and why, as JSON (webhook writes). */
  injectionStatus: 'platform.computing/injection-status',
  /** Hash of what the operator last wrote into an object it manages; equal hash, no write (controllers). */
  specHash: 'platform.io/spec-hash',
  /** Agent: its OAuth client id (agent controller writes and reads). */
  oauthClientId: 'platform.io/oauth-client-id',
  /** Gateway key Secret: the minted key's id (agent controller writes and reads). */
  apiKeyId: 'platform.io/api-key-id',
  /** DelegationGrant: who revoked it (delegation controller writes). */
  revokedBy: 'platform.io/revoked-by',
  /** ApprovalRequest: the operation awaiting approval (API writes and reads). */
  operation: 'platform.io/operation',
  /** ApprovalRequest: who asked (API writes and reads). */
  requestedBy: 'platform.io/requested-by',
  /** Registration: notarized by an administrator (API writes; webhook reads). */
  notarized: 'platform.io/notarized',
  /** Registration: who notarized it (API writes). */
  notarizedBy: 'platform.io/notarized-by',
  /** Secret: the registrations (`auditor/<name>`, `model/<name>`, comma list) whose API key it holds (admins write; API and operator read). */
  credentialFor: 'platform.io/credential-for',
} as const;

export const FINALIZER = {
  /** Agent: revoke its gateway key before it goes (agent controller). */
  gatewayKey: 'platform.io/gateway-key',
  /** Workspace: remove the namespace's enabled label before it goes (workspace controller). */
  workspaceNamespaceLabel: 'platform.io/workspace-namespace-label',
} as const;

export const CONFIGMAP = {
  /** A namespace's auditor chain (workspace controller writes; webhook reads). */
  auditorChain: 'platform-auditor-chain',
} as const;
/** The data keys of CONFIGMAP.auditorChain, in chain order. */
export const CHAIN_CONFIGMAP_KEYS = ['preRequest', 'postResponse'] as const;

/** Default object names in the operator's namespace (settings may override each). */
export const DEFAULT_NAME = {
  /** The operator's namespace (every role's default). */
  namespace: 'platform-system',
  /** Secret holding the API's first-start admin key (API writes). */
  bootstrapSecret: 'platform-api-bootstrap',
  /** Secret holding the trust-domain keys that sign SVIDs (API creates and rotates). */
  trustKeySecret: 'platform-trust-domain-keys',
  /** Secret holding the webhook's serving certificate (webhook writes). */
  webhookTlsSecret: 'platform-webhook-tls',
  /** Service in front of the webhook. */
  webhookService: 'platform-webhook',
  /** The webhook configurations (webhook patches their CA bundle). */
  mutatingWebhook: 'platform-mutating-webhook',
  validatingWebhook: 'platform-validating-webhook',
  /** The operator's leader-election Lease. */
  operatorLease: 'platform-operator',
} as const;

/** Data keys of Secrets more than one role reads. */
export const SECRET_KEY = {
  /** An API key (gateway key, bootstrap key, ANNOTATION.apiKeySecret's Secret). */
  apiKey: 'api-key',
} as const;

/** Server-side apply field managers. */
export const FIELD_MANAGER = {
  /** The operator installing its CRDs. */
  operator: MANAGED_BY,
} as const;

/** Events' reportingController / reportingComponent. */
export const REPORTING = {
  operator: 'platform.io/operator',
  webhook: 'platform.io/webhook',
} as const;

/** File names in an agent's SVID Secret, as the platform sidecars read them (`PLATFORM_SVID_DIR`). */
export const SVID_FILE = {
  jwt: 'svid.jwt',
  cert: 'svid.pem',
  key: 'svid.key',
  bundle: 'bundle.pem',
  jwks: 'bundle.jwks',
} as const;
