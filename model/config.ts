// The local model server's configuration: where it listens, which model ids
// it answers for and how large a request may be.
import { loadCheckedSettings, type SettingSpec, type Settings } from '../base/config.ts';
import { isPrintableId } from '../evidence/validate.ts';

export const MODEL_SETTINGS = {
  port: { env: 'PORT', flag: 'port', type: 'port', default: '11434', description: 'listen port' },
  host: {
    env: 'PLATFORM_MODEL_HOST',
    flag: 'host',
    type: 'string',
    default: '0.0.0.0',
    description: 'listen address (:: serves IPv4 and IPv6; falls back to 0.0.0.0 without IPv6)',
  },
  modelIds: {
    env: 'PLATFORM_MODEL_IDS',
    flag: 'model-ids',
    type: 'list',
    default: 'local-echo',
    description: 'model ids served (comma list); a request naming another gets 404 model_not_found',
  },
  maxBodyBytes: {
    env: 'PLATFORM_MODEL_MAX_BODY_BYTES',
    flag: 'max-body-bytes',
    type: 'integer',
    default: '1048576',
    description: 'largest request body; more gets 413',
  },
} satisfies Record<string, SettingSpec>;

export type ModelSettings = Settings<typeof MODEL_SETTINGS>;

/** Bounds the body limit: the prompt is tokenized whole, so the limit bounds the work per request. */
const MAX_BODY_LIMIT = 64 * 1024 * 1024;

/** Loads the settings and checks what the table cannot: the ids and the body limit's range. */
export function loadModelSettings(
  env: NodeJS.ProcessEnv,
  flags: Record<string, string | undefined> = {},
): ModelSettings {
  const s = loadCheckedSettings(MODEL_SETTINGS, env, flags, modelProblems);
  return { ...s, modelIds: [...new Set(s.modelIds)] };
}

function modelProblems(s: Partial<ModelSettings>): string[] {
  const problems: string[] = [];
  if (s.modelIds?.length === 0) problems.push('PLATFORM_MODEL_IDS: name at least one model id');
  // The gateway passes a call's model id into signed Evidence only when it is a printable id.
  for (const id of s.modelIds ?? [])
    if (!isPrintableId(id)) problems.push(`PLATFORM_MODEL_IDS: ${JSON.stringify(id)} is not a printable id`);
  const max = s.maxBodyBytes;
  if (max !== undefined && (max < 1024 || max > MAX_BODY_LIMIT))
    problems.push(`PLATFORM_MODEL_MAX_BODY_BYTES=${max}: expected between 1024 and ${MAX_BODY_LIMIT}`);
  return problems;
}
