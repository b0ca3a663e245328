// Schemas of the path and query parameters, for the OpenAPI document. They
// say what the handlers accept (ids as `parseAgentId` and `POLICY_ID` read
// them, query values as `intQuery`/`enumQuery`/`timeQuery` check them), so a
// generated client or fuzzer that follows them gets past input checks.
import type { JSONSchema } from '../../crds/kit.ts';
import { APP_CATEGORIES, APP_TYPES } from '../../crds/schema/enums.ts';
import { APP_ID } from '../catalog/installs.ts';
import { AUDITOR_ID_RE, SETTING_RE } from './auditor-settings.ts';
import { AGENT_ID_PATTERN, NAME_PATTERN, NAMESPACE_PATTERN } from '../../contract/agent-id.ts';
import { CONSOLE_EVENT_TYPES, SEVERITIES, SUBAGENT_PATTERN } from '../../contract/console.ts';
import { IDENTIFIER_CHARACTERS } from '../../base/hygiene.ts';

const DIGEST_PATTERN = '^sha256:[a-f0-9]{64}$';

const agentId: JSONSchema = { type: 'string', pattern: AGENT_ID_PATTERN };

/** `{id}` means different things under different prefixes. */
const ID_BY_PREFIX: [prefix: string, schema: JSONSchema][] = [
  ['/v1/approvals/', agentId],
  ['/v1/policies/', agentId],
  ['/v1/api-keys/', { type: 'string', pattern: '^[a-f0-9]{16}$' }],
  ['/api/v1/workspaces/', { type: 'string', pattern: NAMESPACE_PATTERN }],
];

export function pathParamSchema(path: string, name: string): JSONSchema {
  if (name === 'agent_id') return agentId;
  if (name === 'digest') return { type: 'string', pattern: DIGEST_PATTERN };
  if (name === 'subject') return { type: 'string', minLength: 1, maxLength: 256 };
  // `gateway/<agent id>` by default: a client sends the slash percent-encoded.
  if (name === 'attester_id') return { type: 'string', minLength: 1, maxLength: 253 };
  // `keyIdOf`: 16 base64url characters of a SHA-256.
  if (name === 'key_id') return { type: 'string', pattern: '^[A-Za-z0-9_-]{16}$' };
  // A ScopedCredential's name.
  if (name === 'credential') return { type: 'string', pattern: NAME_PATTERN, maxLength: 253 };
  const byPrefix = ID_BY_PREFIX.find(([prefix]) => path.startsWith(prefix));
  return byPrefix?.[1] ?? { type: 'string' };
}

const integer = (minimum: number, maximum: number): JSONSchema => ({ type: 'integer', minimum, maximum });

const QUERY: Record<string, JSONSchema> = {
  limit: integer(1, 1000),
  days: integer(0, 3650),
  before: integer(1, 2 ** 30),
  before_seq: integer(0, Number.MAX_SAFE_INTEGER),
  status: { enum: ['pending', 'all'] },
  full: { enum: ['true', 'false'] },
  outcome: { enum: ['allowed', 'denied', 'failed'] },
  since: { type: 'string', format: 'date-time' },
  until: { type: 'string', format: 'date-time' },
  namespace: { type: 'string', pattern: NAMESPACE_PATTERN },
  // The file name a definition's errors are reported under (POST /v1/definitions/*, text/yaml bodies).
  file: { type: 'string', minLength: 1, maxLength: 253, pattern: IDENTIFIER_CHARACTERS },
  digest: { type: 'string', pattern: DIGEST_PATTERN },
  subject: { type: 'string', maxLength: 256 },
  action: { type: 'string', maxLength: 256 },
  resource: { type: 'string', maxLength: 256 },
};

const SETTINGS = '/v1/auditors/settings';
const SETTINGS_METHODS = ['GET', 'PUT', 'DELETE'];

/** The target of an auditor-settings call, the same on each of its methods. */
const settingsTargetQuery = (): Record<string, JSONSchema> =>
  Object.fromEntries(
    SETTINGS_METHODS.flatMap((m) => [
      [`${m} ${SETTINGS} scope`, { enum: ['org', 'workspace', 'agent'] }],
      [`${m} ${SETTINGS} organization`, { type: 'string', pattern: NAME_PATTERN, maxLength: 253 }],
      [`${m} ${SETTINGS} workspace`, { type: 'string', pattern: NAME_PATTERN, maxLength: 253 }],
      [`${m} ${SETTINGS} agent_id`, { type: 'string', pattern: AGENT_ID_PATTERN }],
    ]),
  );

const SCOPED = ['/v1/scoped-credentials', '/v1/scoped-tools'];

/** The tier a scoped-credential or scoped-tool listing names, and the agent of an `effective` view. */
const scopedTierQuery = (): Record<string, JSONSchema> =>
  Object.fromEntries(
    SCOPED.flatMap((p) => [
      [`GET ${p} scope`, { enum: ['org', 'workspace'] }],
      [`GET ${p} scope_id`, { type: 'string', minLength: 1, maxLength: 317 }],
      [`GET ${p}/effective agent_id`, agentId],
    ]),
  );

const CONSOLE = '/v1/agents/{agent_id}/console';
const TYPE_LIST = `^(${CONSOLE_EVENT_TYPES.join('|')})(,(${CONSOLE_EVENT_TYPES.join('|')})){0,${CONSOLE_EVENT_TYPES.length - 1}}$`;

/** The console's filters, the same on the stream and the list (api/console/events.ts). */
const consoleQuery = (): Record<string, JSONSchema> =>
  Object.fromEntries(
    ['stream', 'events'].flatMap((route) => [
      [`GET ${CONSOLE}/${route} severity`, { enum: [...SEVERITIES] }],
      [`GET ${CONSOLE}/${route} auditor`, { type: 'string', pattern: AUDITOR_ID_RE.source }],
      [`GET ${CONSOLE}/${route} subagent`, { type: 'string', pattern: SUBAGENT_PATTERN }],
      [`GET ${CONSOLE}/${route} type`, { type: 'string', pattern: TYPE_LIST }],
    ]),
  );

/** Per-route exceptions to QUERY. */
const QUERY_BY_ROUTE: Record<string, JSONSchema> = {
  ...consoleQuery(),
  [`GET ${CONSOLE}/stream last_event_id`]: { type: 'string', pattern: '^[0-9]{1,16}$' },
  [`GET ${CONSOLE}/events after`]: integer(0, Number.MAX_SAFE_INTEGER),
  'GET /v1/agents/{agent_id}/evidence limit': integer(1, 500),
  'GET /v1/agents/{agent_id}/accesses limit': integer(1, 500),
  'GET /v1/agents/{agent_id}/accesses before': integer(1, Number.MAX_SAFE_INTEGER),
  'GET /v1/app-catalog category': { enum: [...APP_CATEGORIES] },
  'GET /v1/app-catalog type': { enum: [...APP_TYPES] },
  'GET /v1/app-catalog search': { type: 'string', maxLength: 200 },
  // The agent whose view it is (blocked tools hidden): an agent id, never empty.
  'GET /v1/app-catalog agent_id': agentId,
  'DELETE /v1/app-catalog/agents/{agent_id}/uninstall app_id': APP_ID,
  ...settingsTargetQuery(),
  [`DELETE ${SETTINGS} auditor_id`]: { type: 'string', pattern: AUDITOR_ID_RE.source },
  [`DELETE ${SETTINGS} setting`]: { type: 'string', maxLength: 63, pattern: SETTING_RE.source },
  ...scopedTierQuery(),
};

/** Query parameters a route cannot do without. */
const REQUIRED_QUERY = new Set([
  'GET /registry/check digest',
  'DELETE /v1/app-catalog/agents/{agent_id}/uninstall app_id',
  ...SETTINGS_METHODS.map((m) => `${m} ${SETTINGS} scope`),
  `DELETE ${SETTINGS} auditor_id`,
  `DELETE ${SETTINGS} setting`,
  ...SCOPED.flatMap((p) => [`GET ${p} scope`, `GET ${p} scope_id`, `GET ${p}/effective agent_id`]),
]);

export function queryParamSchema(
  method: string,
  path: string,
  name: string,
): { schema: JSONSchema; required: boolean } {
  const key = `${method} ${path} ${name}`;
  return {
    schema: QUERY_BY_ROUTE[key] ?? QUERY[name] ?? { type: 'string' },
    required: REQUIRED_QUERY.has(key),
  };
}
