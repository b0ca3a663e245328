// The reference agent's configuration. It knows its model the way OpenAI
// clients do (OPENAI_BASE_URL, OPENAI_API_KEY) or the platform way
// (PLATFORM_MODEL_URL, PLATFORM_MODEL_ID); the rest tune its start-up calls
// and its trigger endpoints.
import { isPrintableId } from '../evidence/validate.ts';
import { loadCheckedSettings, type SettingSpec, type Settings } from '../base/config.ts';

export const DEFAULT_PROMPT = 'In one sentence, what is a good habit for writing clear code?';

export const AGENT_SETTINGS = {
  port: { env: 'PORT', flag: 'port', type: 'port', default: '8080', description: 'listen port' },
  host: {
    env: 'AGENT_HOST',
    flag: 'host',
    type: 'string',
    default: '::',
    description: 'listen address (:: serves IPv4 and IPv6; falls back to 0.0.0.0 without IPv6)',
  },
  openaiBaseUrl: {
    env: 'OPENAI_BASE_URL',
    flag: 'openai-base-url',
    type: 'url',
    description: 'model API base including its version path, e.g. http://10.88.0.1:11434/v1 (wins)',
  },
  modelUrl: {
    env: 'PLATFORM_MODEL_URL',
    flag: 'model-url',
    type: 'url',
    description: 'model base URL; /v1 is appended unless the path already ends in /v1',
  },
  modelId: {
    env: 'PLATFORM_MODEL_ID',
    flag: 'model-id',
    type: 'string',
    default: 'local-echo',
    description: 'model id sent in every call',
  },
  apiKey: { env: 'OPENAI_API_KEY', type: 'string', description: 'sent as a Bearer token when set' },
  prompt: { env: 'AGENT_PROMPT', type: 'string', default: DEFAULT_PROMPT, description: 'start-up prompt' },
  toolUrl: {
    env: 'AGENT_TOOL_URL',
    flag: 'tool-url',
    type: 'url',
    description: 'fetched once (GET) at start when set',
  },
  callTimeout: {
    env: 'AGENT_CALL_TIMEOUT',
    type: 'duration',
    default: '60s',
    description: 'deadline of one model or tool call',
  },
  startupAttempts: {
    env: 'AGENT_STARTUP_ATTEMPTS',
    type: 'integer',
    default: '6',
    description: 'tries of the start-up model call while the connection is refused',
  },
  retryDelay: {
    env: 'AGENT_RETRY_DELAY',
    type: 'duration',
    default: '500ms',
    description: 'first wait between start-up tries; doubles each time, at most 8s',
  },
  maxBodyBytes: {
    env: 'AGENT_MAX_BODY_BYTES',
    type: 'integer',
    default: '65536',
    description: 'largest body of /v1/ask and /v1/tool; more gets 413',
  },
} satisfies Record<string, SettingSpec>;

export type AgentSettings = Settings<typeof AGENT_SETTINGS> & {
  /** The resolved model API base, e.g. `http://10.88.0.1:11434/v1`. */
  modelBase: string;
};

/**
 * Where the model API lives: OPENAI_BASE_URL as given (OpenAI clients' rule:
 * it includes the version path); else PLATFORM_MODEL_URL with `/v1` appended
 * unless its path already ends in `/v1` (the gateway's PLATFORM_MODEL_URL is
 * the bare origin, the webhook's default names `/v1`: both work).
 */
export function resolveModelBase(openaiBaseUrl?: string, modelUrl?: string): string | undefined {
  if (openaiBaseUrl) return openaiBaseUrl.replace(/\/+$/, '');
  if (!modelUrl) return undefined;
  const base = modelUrl.replace(/\/+$/, '');
  return new URL(base).pathname.replace(/\/+$/, '').endsWith('/v1') ? base : `${base}/v1`;
}

type Parsed = Partial<Settings<typeof AGENT_SETTINGS>>;

/** Inclusive bounds of the numeric settings: [min, max, what]. */
const BOUNDS: [keyof Parsed, number, number, string][] = [
  ['startupAttempts', 1, 20, 'between 1 and 20'],
  ['callTimeout', 1, 600_000, 'between 1ms and 10m'],
  ['retryDelay', 1, 60_000, 'between 1ms and 1m'],
  ['maxBodyBytes', 1024, 16_777_216, 'between 1024 and 16777216'],
];

function modelUrlProblems(s: Parsed): string[] {
  // A URL that failed to parse is absent here and already reported; required only when neither was given.
  const bothRead = 'openaiBaseUrl' in s && 'modelUrl' in s;
  return bothRead && !s.openaiBaseUrl && !s.modelUrl
    ? ['OPENAI_BASE_URL or PLATFORM_MODEL_URL is required: where the model API is']
    : [];
}

function agentProblems(s: Parsed): string[] {
  const problems = modelUrlProblems(s);
  // The gateway records a call's model id in signed Evidence only when it is a printable id.
  if (s.modelId !== undefined && !isPrintableId(s.modelId))
    problems.push(`PLATFORM_MODEL_ID=${JSON.stringify(s.modelId)}: expected 1-253 printable characters`);
  for (const [key, min, max, what] of BOUNDS) {
    const value = s[key] as number | undefined;
    if (value !== undefined && (value < min || value > max))
      problems.push(`${AGENT_SETTINGS[key].env}=${value}: expected ${what}`);
  }
  return problems;
}

export function loadAgentSettings(
  env: NodeJS.ProcessEnv,
  flags: Record<string, string | undefined> = {},
): AgentSettings {
  const s = loadCheckedSettings(AGENT_SETTINGS, env, flags, agentProblems);
  return { ...s, modelBase: resolveModelBase(s.openaiBaseUrl, s.modelUrl) as string };
}
