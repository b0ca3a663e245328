// Settings of the API role (`platform run api`): environment variables, each
// also a `--set name=value` flag.
import { ConfigError, KUBECONFIG_SETTING, loadSettings, type Settings } from '../base/config.ts';
import { DEFAULT_NAME } from '../contract/kube.ts';
import { isTrustDomain } from '../base/identity/spiffe-id.ts';

export const API_SETTINGS = {
  port: {
    env: 'PLATFORM_API_PORT',
    flag: 'port',
    type: 'port',
    default: '8000',
    description: 'API port (0 picks a free port)',
  },
  metricsPort: {
    env: 'PLATFORM_API_METRICS_PORT',
    flag: 'metrics-port',
    type: 'port',
    default: '8083',
    description: 'port of /healthz, /readyz and /metrics, on the listen address (0 picks a free port)',
  },
  host: {
    env: 'PLATFORM_API_HOST',
    flag: 'host',
    type: 'string',
    default: '0.0.0.0',
    description: 'listen address',
  },
  kubeconfig: KUBECONFIG_SETTING,
  namespace: {
    env: 'PLATFORM_API_NAMESPACE',
    flag: 'namespace',
    type: 'string',
    default: DEFAULT_NAME.namespace,
    description: 'namespace of the API key Secrets and the bootstrap key',
  },
  watchNamespace: {
    env: 'PLATFORM_WATCH_NAMESPACE',
    flag: 'watch-namespace',
    type: 'string',
    description: 'serve agents of this namespace only (default: all)',
  },
  bootstrapSecret: {
    env: 'PLATFORM_API_BOOTSTRAP_SECRET',
    flag: 'bootstrap-secret',
    type: 'string',
    default: DEFAULT_NAME.bootstrapSecret,
    description: 'Secret holding the first-start admin key',
  },
  bodyLimitBytes: {
    env: 'PLATFORM_API_BODY_LIMIT',
    flag: 'body-limit',
    type: 'integer',
    default: '1048576',
    description: 'largest request body in bytes (413 above)',
  },
  orgAdmins: {
    env: 'PLATFORM_API_ORG_ADMINS',
    flag: 'org-admins',
    type: 'list',
    default: '',
    description: 'subjects that are org administrators (service accounts, OIDC users)',
  },
  workspaceAdmins: {
    env: 'PLATFORM_API_WORKSPACE_ADMINS',
    flag: 'workspace-admins',
    type: 'list',
    default: '',
    description: 'namespace=subject pairs of workspace administrators',
  },
  tokenAudiences: {
    env: 'PLATFORM_API_TOKEN_AUDIENCES',
    flag: 'token-audiences',
    type: 'list',
    default: '',
    description: 'audiences service-account tokens must carry (default: the apiserver’s)',
  },
  oidcIssuer: {
    env: 'PLATFORM_OIDC_ISSUER',
    flag: 'oidc-issuer',
    type: 'url',
    description: 'OIDC issuer whose tokens are accepted',
  },
  oidcAudience: {
    env: 'PLATFORM_OIDC_AUDIENCE',
    flag: 'oidc-audience',
    type: 'string',
    default: 'platform-api',
    description: 'required `aud` of OIDC tokens',
  },
  oidcJwksUrl: {
    env: 'PLATFORM_OIDC_JWKS_URL',
    flag: 'oidc-jwks-url',
    type: 'url',
    description: 'JWKS URL (default: discovered from the issuer)',
  },
  oidcSubjectClaim: {
    env: 'PLATFORM_OIDC_SUBJECT_CLAIM',
    flag: 'oidc-subject-claim',
    type: 'string',
    default: 'sub',
    choices: ['sub', 'email'],
    description: 'claim naming the user',
  },
  oidcGroupsClaim: {
    env: 'PLATFORM_OIDC_GROUPS_CLAIM',
    flag: 'oidc-groups-claim',
    type: 'string',
    default: 'groups',
    description: 'claim listing groups (platform:org-admins, platform:workspace-admins:<ns>)',
  },
  evidenceMaxBytes: {
    env: 'PLATFORM_EVIDENCE_MAX_BYTES',
    flag: 'evidence-max-bytes',
    type: 'integer',
    default: '262144',
    description:
      'largest Evidence body POST /v1/evidence accepts (413 above); the store is DATABASE_URL or PLATFORM_EVIDENCE_FILE',
  },
  evidenceFile: {
    env: 'PLATFORM_EVIDENCE_FILE',
    flag: 'evidence-file',
    type: 'string',
    description:
      'JSONL file of the embedded evidence store (default $XDG_STATE_HOME/agent-platform/evidence.jsonl, ~/.local/state when unset; `:memory:` keeps no file); ignored with DATABASE_URL',
  },
  evidenceMaxSkewMs: {
    env: 'PLATFORM_EVIDENCE_MAX_SKEW',
    flag: 'evidence-max-skew',
    type: 'duration',
    default: '5m',
    description: 'how far an Evidence `generated_at` may be ahead of the Verifier clock (422 beyond)',
  },
  evidenceMaxAgeMs: {
    env: 'PLATFORM_EVIDENCE_MAX_AGE',
    flag: 'evidence-max-age',
    type: 'duration',
    default: '24h',
    description: 'how old an Evidence `generated_at` may be when it arrives (422 beyond)',
  },
  auditLogPath: {
    env: 'PLATFORM_API_AUDIT_LOG',
    flag: 'audit-log',
    type: 'string',
    description:
      'JSON-lines file of the embedded audit log (default $XDG_STATE_HOME/agent-platform/audit.jsonl, ~/.local/state when unset; `:memory:` keeps no file); ignored with DATABASE_URL',
  },
  auditWindow: {
    env: 'PLATFORM_API_AUDIT_WINDOW',
    flag: 'audit-window',
    type: 'integer',
    default: '2000',
    description: 'newest audit entries the embedded log keeps in memory (older pages are read from its file)',
  },
  approvalTtlMs: {
    env: 'PLATFORM_API_APPROVAL_TTL',
    flag: 'approval-ttl',
    type: 'duration',
    default: '168h',
    description: 'how long an approval request waits for an Owner',
  },
  consentTtlMs: {
    env: 'PLATFORM_CONSENT_TTL',
    flag: 'consent-ttl',
    type: 'duration',
    default: '1h',
    description: 'a pending consent request lapses this long after it was asked (as the consent controller)',
  },
  consoleHeartbeatMs: {
    env: 'PLATFORM_CONSOLE_HEARTBEAT',
    flag: 'console-heartbeat',
    type: 'duration',
    default: '15s',
    description:
      'a console stream with nothing to send gets a comment line this often (keeps proxies from closing it)',
  },
  consoleClientBufferBytes: {
    env: 'PLATFORM_CONSOLE_CLIENT_BUFFER',
    flag: 'console-client-buffer',
    type: 'integer',
    default: '1048576',
    description: 'bytes a console client may leave unread before the stream drops it',
  },
  relistIntervalMs: {
    env: 'PLATFORM_INFORMER_RELIST_INTERVAL',
    flag: 'relist-interval',
    type: 'duration',
    default: '5m',
    description: 'fresh list of every cached kind this often',
  },
  staleAfterMs: {
    env: 'PLATFORM_INFORMER_STALE_AFTER',
    flag: 'stale-after',
    type: 'duration',
    default: '15m',
    description: 'unhealthy when a cache saw nothing for this long',
  },
  shutdownGraceMs: {
    env: 'PLATFORM_API_SHUTDOWN_GRACE',
    flag: 'shutdown-grace',
    type: 'duration',
    default: '5s',
    description: 'time in-flight requests get on SIGTERM',
  },
  consoleShellIdleSeconds: {
    env: 'PLATFORM_CONSOLE_SHELL_IDLE_SECONDS',
    flag: 'console-shell-idle-seconds',
    type: 'integer',
    default: '900',
    description: 'a console shell session with no input or output for this long is closed (10-86400)',
  },
  mcpEnabled: {
    env: 'MCP_ENABLED',
    flag: 'mcp-enabled',
    type: 'boolean',
    default: 'true',
    description: 'serve the MCP tools and their discovery metadata (404 when false)',
  },
  mcpToolsPath: {
    env: 'MCP_TOOLS_PATH',
    flag: 'mcp-tools-path',
    type: 'string',
    default: '/mcp',
    description: 'path of the MCP endpoint (Streamable HTTP)',
  },
  mcpMetadataPath: {
    env: 'MCP_METADATA_PATH',
    flag: 'mcp-metadata-path',
    type: 'string',
    default: '/.well-known/mcp',
    description: 'path of the MCP discovery metadata',
  },
  mcpMaxConcurrentCalls: {
    env: 'MCP_MAX_CONCURRENT_CALLS',
    flag: 'mcp-max-concurrent-calls',
    type: 'integer',
    default: '10',
    description: 'MCP requests in flight at once (429 above)',
  },
  registryClientCert: {
    env: 'PLATFORM_REGISTRY_CLIENT_CERT',
    flag: 'registry-client-cert',
    type: 'string',
    description:
      'client certificate (PEM file, clientAuth) the vocabulary fetch presents to mTLS auditors (with PLATFORM_REGISTRY_CLIENT_KEY); read per request, none while the file does not exist',
  },
  registryClientKey: {
    env: 'PLATFORM_REGISTRY_CLIENT_KEY',
    flag: 'registry-client-key',
    type: 'string',
    description: 'private key (PEM file) of PLATFORM_REGISTRY_CLIENT_CERT',
  },
  trustDomain: {
    env: 'PLATFORM_TRUST_DOMAIN',
    flag: 'trust-domain',
    type: 'string',
    default: 'platform.local',
    description: 'SPIFFE trust domain of agent identities (the operator’s setting of the same name)',
  },
  trustKeySecret: {
    env: 'PLATFORM_TRUST_KEY_SECRET',
    flag: 'trust-key-secret',
    type: 'string',
    default: DEFAULT_NAME.trustKeySecret,
    description: 'Secret (API namespace) holding the trust-domain keys that sign SVIDs; created when missing',
  },
  trustKeyRotation: {
    env: 'PLATFORM_TRUST_KEY_ROTATION',
    flag: 'trust-key-rotation',
    type: 'duration',
    default: '720h',
    description:
      'age at which the trust-domain signing key is replaced (the old one stays in the bundle 24h more)',
  },
  keyringFile: {
    env: 'PLATFORM_KEYRING_FILE',
    flag: 'keyring-file',
    type: 'string',
    description:
      'JSON keyring of key-encryption keys (the operator’s setting of the same name); when unset, the keyring Secret is used',
  },
  keyringSecret: {
    env: 'PLATFORM_KEYRING_SECRET',
    flag: 'keyring-secret',
    type: 'string',
    default: 'platform-system/platform-keyring',
    description:
      '<namespace>/<name> of the keyring Secret that encrypts scoped-credential material (the operator’s; created with one key when missing)',
  },
  oauthProvidersFile: {
    env: 'PLATFORM_OAUTH_PROVIDERS_FILE',
    flag: 'oauth-providers-file',
    type: 'string',
    description:
      'YAML file of the OAuth providers scoped credentials can be connected with by popup (docs/credentials.md); re-read when it changes; unset: none',
  },
  oauthIssuer: {
    env: 'PLATFORM_OAUTH_ISSUER',
    flag: 'oauth-issuer',
    type: 'url',
    description:
      'issuer of the platform’s OAuth authorization server (RFC 8414; an origin, no path); default http://platform-verifier.<PLATFORM_API_NAMESPACE>.svc:8000',
  },
} as const;

export type ApiSettings = Settings<typeof API_SETTINGS>;

/** The URL is exactly its origin (the converter already made it http(s) without trailing slashes). */
const isOrigin = (url: string): boolean => new URL(url).origin === url;

/** The OAuth issuer: the setting, else the API's in-cluster Service URL (decision 137). */
export const oauthIssuerOf = (s: ApiSettings): string =>
  s.oauthIssuer ?? `http://platform-verifier.${s.namespace}.svc:8000`;

/** Each rule the settings must keep together, with what to say when they do not. */
const API_SETTING_RULES: readonly { broken: (s: ApiSettings) => boolean; problem: string }[] = [
  { broken: (s) => s.bodyLimitBytes < 1024, problem: 'PLATFORM_API_BODY_LIMIT: expected at least 1024' },
  {
    broken: (s) => s.evidenceMaxBytes < 1024 || s.evidenceMaxBytes > s.bodyLimitBytes,
    problem: 'PLATFORM_EVIDENCE_MAX_BYTES: expected at least 1024 and at most PLATFORM_API_BODY_LIMIT',
  },
  {
    broken: (s) => s.auditWindow < 100 || s.auditWindow > 1_000_000,
    problem: 'PLATFORM_API_AUDIT_WINDOW: expected 100 to 1000000 entries',
  },
  {
    broken: (s) => s.consoleHeartbeatMs < 100 || s.consoleHeartbeatMs > 300_000,
    problem: 'PLATFORM_CONSOLE_HEARTBEAT: expected between 100ms and 5m',
  },
  {
    broken: (s) => s.consoleClientBufferBytes < 4096 || s.consoleClientBufferBytes > 268_435_456,
    problem: 'PLATFORM_CONSOLE_CLIENT_BUFFER: expected 4096 to 268435456 bytes',
  },
  {
    broken: (s) => s.evidenceMaxSkewMs <= 0 || s.evidenceMaxAgeMs <= 0,
    problem: 'PLATFORM_EVIDENCE_MAX_SKEW and PLATFORM_EVIDENCE_MAX_AGE: expected more than 0',
  },
  {
    broken: (s) => s.workspaceAdmins.some((p) => !/^[a-z0-9-]+=\S+$/.test(p)),
    problem: 'PLATFORM_API_WORKSPACE_ADMINS: expected namespace=subject pairs',
  },
  {
    broken: (s) => !isTrustDomain(s.trustDomain) || s.trustKeyRotation < 60_000,
    problem:
      'PLATFORM_TRUST_DOMAIN: expected lowercase letters, digits, . _ -; PLATFORM_TRUST_KEY_ROTATION: at least 1m',
  },
  {
    broken: (s) => s.oauthIssuer !== undefined && !isOrigin(s.oauthIssuer),
    problem: 'PLATFORM_OAUTH_ISSUER: expected an http(s) origin without path, query or fragment',
  },
  {
    broken: (s) => !/^[a-z0-9-]+\/[a-z0-9.-]+$/.test(s.keyringSecret),
    problem: 'PLATFORM_KEYRING_SECRET: expected <namespace>/<name>',
  },
  {
    broken: (s) => s.consoleShellIdleSeconds < 10 || s.consoleShellIdleSeconds > 86_400,
    problem: 'PLATFORM_CONSOLE_SHELL_IDLE_SECONDS: expected 10 to 86400',
  },
  {
    broken: (s) => s.mcpMaxConcurrentCalls < 1,
    problem: 'MCP_MAX_CONCURRENT_CALLS: expected at least 1',
  },
  {
    broken: (s) => [s.mcpToolsPath, s.mcpMetadataPath].some((p) => !/^\/[A-Za-z0-9._~/-]*$/.test(p)),
    problem: 'MCP_TOOLS_PATH and MCP_METADATA_PATH: expected absolute URL paths',
  },
  {
    broken: (s) => s.mcpToolsPath === s.mcpMetadataPath,
    problem: 'MCP_TOOLS_PATH and MCP_METADATA_PATH must differ',
  },
  {
    broken: (s) => s.staleAfterMs <= s.relistIntervalMs,
    problem: 'PLATFORM_INFORMER_STALE_AFTER must be longer than PLATFORM_INFORMER_RELIST_INTERVAL',
  },
];

export function loadApiSettings(
  env: NodeJS.ProcessEnv,
  flags: Record<string, string | undefined>,
): ApiSettings {
  const s = loadSettings(API_SETTINGS, env, flags);
  const problems = API_SETTING_RULES.filter((rule) => rule.broken(s)).map((rule) => rule.problem);
  if (problems.length > 0) throw new ConfigError(problems);
  return s;
}
