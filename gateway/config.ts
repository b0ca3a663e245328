// The Gateway's configuration (CLARIFICATIONS "gateway configuration").
import { ConfigError, loadSettings, type SettingSpec } from '../base/config.ts';
import type { DeploymentMode } from '../evidence/types.ts';

export const GATEWAY_SETTINGS = {
  port: { env: 'PORT', flag: 'port', type: 'port', default: '8099', description: 'listen port' },
  host: {
    env: 'PLATFORM_GATEWAY_HOST',
    type: 'string',
    default: '::',
    description: 'listen address (:: serves IPv4 and IPv6; falls back to 0.0.0.0 without IPv6)',
  },
  agentId: {
    env: 'PLATFORM_AGENT_ID',
    type: 'string',
    default: 'unknown',
    description: 'agent the gateway guards',
  },
  workspaceId: {
    env: 'PLATFORM_WORKSPACE_ID',
    type: 'string',
    default: '',
    description: 'workspace of the agent',
  },
  auditMode: {
    env: 'PLATFORM_AUDIT_MODE',
    type: 'string',
    default: 'enforce',
    choices: ['enforce', 'observe'],
    description: 'enforce blocks a deny; observe records it',
  },
  policyId: {
    env: 'PLATFORM_POLICY_ID',
    type: 'string',
    default: '',
    description: 'AuditorPolicy id (<namespace>.<name>) evaluated; empty: the built-in default policy',
  },
  policyFile: {
    env: 'PLATFORM_POLICY_FILE',
    type: 'string',
    description: 'JSON {policy_id, policy_version, chain} instead of fetching from the Verifier',
  },
  policyRefresh: {
    env: 'PLATFORM_POLICY_REFRESH',
    type: 'duration',
    default: '30s',
    description: 'how often the policy is fetched again',
  },
  chain: { env: 'PLATFORM_CHAIN', type: 'list', default: '', description: 'auditors: comma list of id=url' },
  modelUrl: { env: 'PLATFORM_MODEL_URL', type: 'url', description: 'where allowed requests go' },
  verifierUrl: {
    env: 'PLATFORM_VERIFIER_URL',
    type: 'url',
    description: 'Verifier base URL (evidence, policies, registrations)',
  },
  apiKey: { env: 'PLATFORM_API_KEY', type: 'string', description: 'bearer key for the Verifier' },
  teeProvider: {
    env: 'TEE_PROVIDER',
    type: 'string',
    default: 'MOCK',
    choices: ['MOCK', 'COCO'],
    description: 'attestation agent',
  },
  sessionId: {
    env: 'PLATFORM_SESSION_ID',
    type: 'string',
    default: 'demo-session',
    description: 'session id in Evidence',
  },
  attesterId: {
    env: 'PLATFORM_ATTESTER_ID',
    type: 'string',
    description: 'Evidence attester_id (default gateway/<agent id>)',
  },
  keyFile: {
    env: 'PLATFORM_ATTESTATION_KEY_FILE',
    type: 'string',
    description: 'signing key file (in memory when unset)',
  },
  cocoUrl: {
    env: 'PLATFORM_COCO_AA_URL',
    type: 'url',
    default: 'http://127.0.0.1:8006',
    description: 'attestation-agent REST API',
  },
  auditorTimeout: {
    env: 'PLATFORM_AUDITOR_TIMEOUT',
    type: 'duration',
    default: '30s',
    description: 'per-auditor deadline',
  },
  maxBodyBytes: {
    env: 'PLATFORM_GATEWAY_MAX_BODY_BYTES',
    type: 'integer',
    default: '1048576',
    description: 'largest request body',
  },
  svidDir: {
    env: 'PLATFORM_SVID_DIR',
    type: 'string',
    description: 'directory of the SVID Secret (svid.jwt): obtain a client_credentials token with it',
  },
  tokenUrl: {
    env: 'PLATFORM_OAUTH_TOKEN_URL',
    type: 'url',
    description: 'the authorization server token endpoint (default: <PLATFORM_VERIFIER_URL>/oauth/token)',
  },
  tlsCert: {
    env: 'PLATFORM_GATEWAY_TLS_CERT',
    type: 'string',
    description: 'client certificate (PEM file) for mTLS auditors',
  },
  tlsKey: {
    env: 'PLATFORM_GATEWAY_TLS_KEY',
    type: 'string',
    description: 'client key (PEM file) for mTLS auditors',
  },
  tlsCa: {
    env: 'PLATFORM_GATEWAY_TLS_CA',
    type: 'string',
    description: 'CA bundle (PEM file) for mTLS auditors',
  },
} satisfies Record<string, SettingSpec>;

export type GatewaySettings = ReturnType<typeof loadGatewaySettings>;

export interface ChainEntry {
  id: string;
  url: string;
  deploymentMode: DeploymentMode;
}

/** `injection=http://127.0.0.1:8090,toxicity=…`; loopback URLs are pod-local sidecars. */
export function parseChain(items: string[]): ChainEntry[] {
  const problems: string[] = [];
  const out: ChainEntry[] = [];
  for (const item of items) {
    const [id, url] = [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)];
    if (!id || !/^https?:\/\//.test(url)) {
      problems.push(`PLATFORM_CHAIN entry ${JSON.stringify(item)}: expected id=http(s)://host:port`);
      continue;
    }
    const host = new URL(url).hostname;
    const local = host === '127.0.0.1' || host === 'localhost' || host === '::1' || host === '[::1]';
    out.push({ id, url: url.replace(/\/+$/, ''), deploymentMode: local ? 'sidecar' : 'in-cluster' });
  }
  if (problems.length) throw new ConfigError(problems);
  return out;
}

export function loadGatewaySettings(env: NodeJS.ProcessEnv, flags: Record<string, string | undefined> = {}) {
  return loadSettings(GATEWAY_SETTINGS, env, flags);
}
