// The standard auditor environment (spec: Limits, "Standard auditor
// variables") plus the SDK's own limits. Flags given with `--set` use the
// `flag` names and win over the environment.
import { ConfigError, loadSettings, type Settings } from '../../base/config.ts';

export const AUDITOR_ENV = {
  gatewayUrl: {
    env: 'PLATFORM_GATEWAY_URL',
    type: 'url',
    required: true,
    description: 'the gateway this auditor registers with, e.g. http://127.0.0.1:8099',
  },
  teeProvider: {
    env: 'TEE_PROVIDER',
    type: 'string',
    required: true,
    choices: ['COCO', 'MOCK'],
    description: 'COCO or MOCK (MOCK never claims hardware attestation)',
  },
  modelId: {
    env: 'MODEL_ID',
    type: 'string',
    description: 'the model this auditor guards, when requests do not name one',
  },
  httpTimeout: {
    env: 'HTTP_TIMEOUT',
    flag: 'http-timeout',
    type: 'string',
    default: '30',
    description: 'per-request deadline in seconds (fractions allowed)',
  },
  port: {
    env: 'PORT',
    flag: 'port',
    type: 'port',
    default: '8080',
    description: 'listen port (0 picks a free one)',
  },
  host: {
    env: 'PLATFORM_AUDITOR_HOST',
    flag: 'host',
    type: 'string',
    default: '0.0.0.0',
    description: 'listen address',
  },
  auditorId: {
    env: 'PLATFORM_AUDITOR_ID',
    type: 'string',
    description: 'the id this auditor reports and registers as',
  },
  endpoint: {
    env: 'PLATFORM_AUDITOR_ENDPOINT',
    type: 'url',
    description: 'the URL the gateway reaches this auditor at (default http://<POD_IP or hostname>:<port>)',
  },
  podIp: { env: 'POD_IP', type: 'string', description: 'the pod address, for the default endpoint' },
  apiKey: { env: 'PLATFORM_API_KEY', type: 'string', description: 'sent as a Bearer token when registering' },
  register: {
    env: 'PLATFORM_AUDITOR_REGISTER',
    type: 'boolean',
    default: 'true',
    description: 'self-register with the gateway on start-up',
  },
  maxBodyBytes: {
    env: 'PLATFORM_AUDITOR_MAX_BODY_BYTES',
    type: 'integer',
    default: String(1024 * 1024),
    description: 'largest /claims or /batch body in bytes',
  },
  maxConcurrent: {
    env: 'PLATFORM_AUDITOR_MAX_CONCURRENT',
    type: 'integer',
    default: '64',
    description: 'requests processed at once before AUDITOR_OVERLOAD',
  },
} as const;

export type AuditorEnv = Settings<typeof AUDITOR_ENV> & { timeoutMs: number };

/** Loads and checks the standard variables; throws one ConfigError naming every problem. */
export function loadAuditorEnv(
  env: NodeJS.ProcessEnv,
  flags: Record<string, string | undefined> = {},
): AuditorEnv {
  const settings = loadSettings(AUDITOR_ENV, env, flags);
  const problems: string[] = [];
  const seconds = Number(settings.httpTimeout);
  if (!(Number.isFinite(seconds) && seconds > 0))
    problems.push(`HTTP_TIMEOUT=${JSON.stringify(settings.httpTimeout)}: expected seconds > 0`);
  if (settings.maxBodyBytes < 1024) problems.push('PLATFORM_AUDITOR_MAX_BODY_BYTES: expected at least 1024');
  if (settings.maxConcurrent < 1) problems.push('PLATFORM_AUDITOR_MAX_CONCURRENT: expected at least 1');
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...settings, timeoutMs: Math.round(seconds * 1000) };
}
