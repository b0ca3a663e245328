// The credential proxy's configuration. The webhook sets PORT (8088),
// PLATFORM_AGENT_ID, PLATFORM_WORKSPACE_ID, PLATFORM_VERIFIER_URL and
// PLATFORM_API_KEY on the sidecar; the rest have defaults that suit a pod.
import { modelBlockList } from './guard.ts';
import {
  boundsProblems,
  loadCheckedSettings,
  type SettingBounds,
  type SettingSpec,
  type Settings,
} from '../base/config.ts';

export const PROXY_SETTINGS = {
  port: { env: 'PORT', flag: 'port', type: 'port', default: '8088', description: 'listen port' },
  host: {
    env: 'PLATFORM_PROXY_HOST',
    type: 'string',
    default: '::',
    description: 'listen address (:: serves IPv4 and IPv6; falls back to 0.0.0.0 without IPv6)',
  },
  tlsPort: {
    env: 'PLATFORM_PROXY_TLS_PORT',
    type: 'port',
    default: '443',
    description: 'destination port of transparent TLS (routed by SNI)',
  },
  httpPort: {
    env: 'PLATFORM_PROXY_HTTP_PORT',
    type: 'port',
    default: '80',
    description: 'destination port of transparent HTTP when Host names none',
  },
  connectTimeout: {
    env: 'PLATFORM_PROXY_CONNECT_TIMEOUT',
    type: 'duration',
    default: '10s',
    description: 'deadline for connecting upstream',
  },
  idleTimeout: {
    env: 'PLATFORM_PROXY_IDLE_TIMEOUT',
    type: 'duration',
    default: '5m',
    description: 'a tunnel with no bytes either way for this long is closed',
  },
  headTimeout: {
    env: 'PLATFORM_PROXY_HEAD_TIMEOUT',
    type: 'duration',
    default: '10s',
    description: 'deadline for a client to send its ClientHello or request head',
  },
  drainTimeout: {
    env: 'PLATFORM_PROXY_DRAIN_TIMEOUT',
    type: 'duration',
    default: '5s',
    description: 'on SIGTERM, how long open tunnels may finish before they are closed',
  },
  maxConnections: {
    env: 'PLATFORM_PROXY_MAX_CONNECTIONS',
    type: 'integer',
    default: '1024',
    description: 'client connections held at once; more are refused',
  },
  maxHeadBytes: {
    env: 'PLATFORM_PROXY_MAX_HEAD_BYTES',
    type: 'integer',
    default: '32768',
    description: 'largest ClientHello or request head read before routing',
  },
  modelCidrs: {
    env: 'PLATFORM_MODEL_CIDRS',
    type: 'list',
    default: '',
    description: 'IPv4 CIDRs of model endpoints (refused here: model traffic goes through the gateway)',
  },
  modelPorts: {
    env: 'PLATFORM_MODEL_PORTS',
    type: 'list',
    default: '',
    description: 'destination ports that are model traffic (refused here)',
  },
  podIp: { env: 'POD_IP', type: 'string', description: "the pod's address, besides those of its interfaces" },
  agentId: {
    env: 'PLATFORM_AGENT_ID',
    type: 'string',
    default: 'unknown',
    description: 'agent the proxy serves',
  },
  workspaceId: {
    env: 'PLATFORM_WORKSPACE_ID',
    type: 'string',
    default: '',
    description: 'workspace of the agent',
  },
  verifierUrl: {
    env: 'PLATFORM_VERIFIER_URL',
    type: 'url',
    description: "Verifier base URL: the agent's Access Manifest is read there (unset: not enforced)",
  },
  manifestRefresh: {
    env: 'PLATFORM_PROXY_MANIFEST_REFRESH',
    type: 'duration',
    default: '30s',
    description: "how often the agent's Access Manifest is read again from the Verifier",
  },
  apiKey: { env: 'PLATFORM_API_KEY', type: 'string', description: 'bearer key for the Verifier' },
  intercept: {
    env: 'PLATFORM_PROXY_INTERCEPT',
    type: 'string',
    default: 'routed',
    choices: ['routed', 'none'],
    description: 'terminate TLS to hosts a credential routing rule names (routed), or tunnel all TLS (none)',
  },
  caDir: {
    env: 'PLATFORM_PROXY_CA_DIR',
    type: 'string',
    default: '/var/run/platform/proxy-ca',
    description: "where the pod-local CA's certificate and trust bundle are written for the agent container",
  },
  upstreamCaFile: {
    env: 'PLATFORM_PROXY_UPSTREAM_CA_FILE',
    type: 'string',
    description: 'extra trusted roots (PEM file) for TLS the proxy originates, besides the system roots',
  },
  approvalHold: {
    env: 'PLATFORM_PROXY_APPROVAL_HOLD',
    type: 'duration',
    default: '5m',
    description:
      'how long a high-risk call is held for an Owner before the agent gets 504 (the request stays pending)',
  },
  responseTimeout: {
    env: 'PLATFORM_PROXY_RESPONSE_TIMEOUT',
    type: 'duration',
    default: '60s',
    description: 'deadline from sending a request to the response head of its target',
  },
  maxBodyBytes: {
    env: 'PLATFORM_PROXY_MAX_BODY_BYTES',
    type: 'integer',
    default: '10485760',
    description: 'largest request body held for an approval or a retry after 401 (413 above)',
  },
  userClaim: {
    env: 'PLATFORM_OIDC_SUBJECT_CLAIM',
    type: 'string',
    default: 'sub',
    choices: ['sub', 'email'],
    description:
      "claim of the user's token (x-platform-subject-token) naming the user, as the API maps users",
  },
  svidDir: {
    env: 'PLATFORM_SVID_DIR',
    type: 'string',
    description: "directory of the agent's SVID Secret (svid.jwt, svid.pem, svid.key, bundle.pem)",
  },
  tokenUrl: {
    env: 'PLATFORM_OAUTH_TOKEN_URL',
    type: 'url',
    description:
      "the platform's token endpoint for client_credentials rules (default <PLATFORM_VERIFIER_URL>/oauth/token)",
  },
} satisfies Record<string, SettingSpec>;

type Specs = typeof PROXY_SETTINGS;
export type ProxySettings = Settings<Specs>;

/** Inclusive bounds of the numeric settings; a value outside is a configuration error. */
const BOUNDS: SettingBounds<Specs> = {
  tlsPort: [1, 65535, 'a port 1-65535'],
  httpPort: [1, 65535, 'a port 1-65535'],
  connectTimeout: [1, 300_000, 'between 1ms and 5m'],
  idleTimeout: [1, 86_400_000, 'between 1ms and 24h'],
  headTimeout: [1, 300_000, 'between 1ms and 5m'],
  // Each lifecycle stop step is cut off at 10 s; the drain must end before that.
  drainTimeout: [0, 9_000, 'at most 9s'],
  maxConnections: [1, 1_000_000, 'between 1 and 1000000'],
  manifestRefresh: [1_000, 3_600_000, 'between 1s and 1h'],
  approvalHold: [1_000, 3_600_000, 'between 1s and 1h'],
  responseTimeout: [1, 3_600_000, 'between 1ms and 1h'],
  maxBodyBytes: [0, 1_073_741_824, 'at most 1 GiB'],
  // A ClientHello with post-quantum key shares is about 2 KiB; a record holds 16 KiB.
  maxHeadBytes: [1024, 1_048_576, 'between 1024 and 1048576'],
};

/** Loads each setting on its own, then the ranges and the guard's lists; reports all problems at once. */
export function loadProxySettings(
  env: NodeJS.ProcessEnv,
  flags: Record<string, string | undefined> = {},
): ProxySettings {
  return loadCheckedSettings(PROXY_SETTINGS, env, flags, (parsed) => [
    ...boundsProblems(PROXY_SETTINGS, BOUNDS, parsed, env),
    ...guardProblems(parsed),
  ]);
}

/** The model CIDRs and ports the guard refuses must themselves be valid. */
function guardProblems(s: Partial<ProxySettings>): string[] {
  const problems: string[] = [];
  try {
    modelBlockList(s.modelCidrs ?? []);
  } catch (err) {
    problems.push(`PLATFORM_MODEL_CIDRS: ${(err as Error).message}`);
  }
  for (const p of s.modelPorts ?? []) {
    const n = Number(p);
    if (!Number.isInteger(n) || n < 1 || n > 65535)
      problems.push(`PLATFORM_MODEL_PORTS: ${JSON.stringify(p)} is not a port 1-65535`);
  }
  return problems;
}
