// `auditor_settings` (SPEC "Auditor and model registry, settings"): the
// org → workspace → agent cascade through the same routes as REST
// (api/routes/auditor-settings.ts, decision 116): `get` reads a tier with its
// badges, `set` sets (and at org or workspace, locks) one setting, `reset`
// removes the tier's own value. Each runs its route's checks, so who may,
// the lock (409 `setting_locked`) and value checks (422) are the REST ones.
import { validateBody } from '../http/validate.ts';
import { AUDITOR_ID_RE, SETTING_RE } from '../routes/auditor-settings.ts';
import type { Method } from '../routes/route.ts';
import { callRoute, type CallerContext } from './call-route.ts';
import type { McpTool } from './tool.ts';

const OPERATIONS = {
  get: 'GET',
  set: 'PUT',
  reset: 'DELETE',
} as const satisfies Record<string, Method>;
type Operation = keyof typeof OPERATIONS;

const TARGET_FIELDS = ['scope', 'organization', 'namespace', 'workspace', 'agent_id'] as const;

interface SettingsArgs {
  operation: Operation;
  scope: 'org' | 'workspace' | 'agent';
  organization?: string;
  namespace?: string;
  workspace?: string;
  agent_id?: string;
  auditor_id?: string;
  setting?: string;
  value?: unknown;
  locked?: boolean;
}

// Loose shapes only: the route checks the names (its query and body schemas),
// so a bad name is the REST detail, not a second wording of it.
const name = (description: string) => ({ type: 'string', maxLength: 317, description });
const INPUT = {
  type: 'object',
  required: ['operation', 'scope'],
  additionalProperties: false,
  properties: {
    operation: { enum: Object.keys(OPERATIONS), description: 'get a tier, set or reset one setting' },
    scope: { enum: ['org', 'workspace', 'agent'], description: 'the tier' },
    organization: name('Organization name (scope org)'),
    namespace: name('workspace namespace (scope workspace)'),
    workspace: name('PlatformWorkspace name (scope workspace)'),
    agent_id: name('`<namespace>.<name>` (scope agent)'),
    auditor_id: { type: 'string', pattern: AUDITOR_ID_RE.source, maxLength: 63 },
    setting: { type: 'string', pattern: SETTING_RE.source, maxLength: 63 },
    value: { description: 'the new value (set)' },
    locked: { type: 'boolean', description: 'lock the value for the tiers below (set at org, workspace)' },
  },
  allOf: [
    {
      if: { properties: { operation: { enum: ['set', 'reset'] } } },
      then: { required: ['auditor_id', 'setting'] },
    },
    { if: { properties: { operation: { const: 'set' } } }, then: { required: ['value'] } },
  ],
} as const;

/** The fields of `keys` the caller gave, as strings (a query). */
function queryOf(args: SettingsArgs, keys: readonly (keyof SettingsArgs)[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string') query[key] = value;
  }
  return query;
}

async function run(raw: unknown, who: CallerContext): Promise<unknown> {
  const args = validateBody<SettingsArgs>(INPUT, raw ?? {}, 'arguments');
  const method = OPERATIONS[args.operation];
  const path = '/v1/auditors/settings';
  if (args.operation === 'set') {
    const { operation: _operation, ...body } = args;
    return callRoute({ method, path, body }, who);
  }
  const keys = args.operation === 'reset' ? [...TARGET_FIELDS, 'auditor_id', 'setting'] : TARGET_FIELDS;
  return callRoute({ method, path, query: queryOf(args, keys as (keyof SettingsArgs)[]) }, who);
}

export const AUDITOR_SETTINGS_TOOL: McpTool = {
  name: 'auditor_settings',
  description:
    'Auditor settings of the org → workspace → agent cascade: get a tier’s settings with their inheritance badges, set one (locked: enforced below), reset one (inherit again). Same permissions as /v1/auditors/settings.',
  inputSchema: INPUT as unknown as McpTool['inputSchema'],
  run,
};
