// The MCP gateway's settings (SPEC Limits: MCP_GATEWAY_*), loaded like the
// credential proxy's own: every bad value reported at once. The limits have
// defaults that suit one agent's pod.
import {
  boundsProblems,
  loadCheckedSettings,
  type SettingBounds,
  type SettingSpec,
  type Settings,
} from '../../base/config.ts';

export const MCP_GATEWAY_SETTINGS = {
  enabled: {
    env: 'MCP_GATEWAY_ENABLED',
    type: 'boolean',
    default: 'true',
    description: 'serve the MCP gateway beside the credential proxy',
  },
  port: { env: 'MCP_GATEWAY_PORT', type: 'port', default: '8100', description: 'MCP gateway listen port' },
  discoveryInterval: {
    env: 'MCP_GATEWAY_DISCOVERY_INTERVAL',
    type: 'duration',
    default: '30s',
    description: "how often every MCP server's tools are listed again",
  },
  mtlsEnabled: {
    env: 'MCP_GATEWAY_MTLS_ENABLED',
    type: 'boolean',
    default: 'true',
    description: "reach MCP servers over mTLS with the agent's X.509-SVID (https only)",
  },
  oauthIssuer: {
    env: 'MCP_GATEWAY_OAUTH_ISSUER',
    type: 'url',
    description: 'OAuth 2.1 issuer of the tokens external (non-loopback) clients must present',
  },
  resourceUrl: {
    env: 'MCP_GATEWAY_RESOURCE_URL',
    type: 'url',
    description: "the gateway's public MCP URL (RFC 9728 resource, the tokens' default audience)",
  },
  audience: {
    env: 'MCP_GATEWAY_OAUTH_AUDIENCE',
    type: 'string',
    description: "audience external clients' tokens must carry (default: MCP_GATEWAY_RESOURCE_URL)",
  },
  svidDir: {
    env: 'PLATFORM_SVID_DIR',
    type: 'string',
    description: "directory of the agent's SVID Secret (svid.pem, svid.key, bundle.pem)",
  },
  callTimeout: {
    env: 'MCP_GATEWAY_CALL_TIMEOUT',
    type: 'duration',
    default: '60s',
    description: 'deadline of one call to an MCP server (after any approval)',
  },
  staleAfter: {
    env: 'MCP_GATEWAY_STALE_AFTER',
    type: 'duration',
    default: '5m',
    description: 'how long a server that fails discovery keeps its last tool list',
  },
  maxBodyBytes: {
    env: 'MCP_GATEWAY_MAX_BODY_BYTES',
    type: 'integer',
    default: '1048576',
    description: 'largest request body, and largest answer read from an MCP server',
  },
  maxBatch: {
    env: 'MCP_GATEWAY_MAX_BATCH',
    type: 'integer',
    default: '20',
    description: 'most JSON-RPC messages in one batch',
  },
} satisfies Record<string, SettingSpec>;

type Specs = typeof MCP_GATEWAY_SETTINGS;
export type McpGatewaySettings = Settings<Specs>;

const BOUNDS: SettingBounds<Specs> = {
  discoveryInterval: [1_000, 3_600_000, 'between 1s and 1h'],
  callTimeout: [1_000, 600_000, 'between 1s and 10m'],
  staleAfter: [0, 86_400_000, 'at most 24h'],
  maxBodyBytes: [1024, 67_108_864, 'between 1024 and 67108864'],
  maxBatch: [1, 1000, 'between 1 and 1000'],
};

/** Loads each setting on its own, then the ranges and the OAuth pairing; reports all problems at once. */
export function loadMcpGatewaySettings(env: NodeJS.ProcessEnv): McpGatewaySettings {
  return loadCheckedSettings(MCP_GATEWAY_SETTINGS, env, {}, (parsed) => [
    ...boundsProblems(MCP_GATEWAY_SETTINGS, BOUNDS, parsed, env),
    // A token is only as good as its audience check; without one, tokens meant for anything would pass.
    ...(parsed.oauthIssuer && !parsed.resourceUrl
      ? ['MCP_GATEWAY_OAUTH_ISSUER is set without MCP_GATEWAY_RESOURCE_URL (the audience of its tokens)']
      : []),
  ]);
}
