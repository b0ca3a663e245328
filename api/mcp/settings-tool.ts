// `auditor_settings` (SPEC "Auditor and model registry, settings"): read the
// auditor settings stored at a scope and above it, set one (optionally
// enforced, i.e. locked for the scopes below) or reset it (inherit again).
// Who may: org scope, read by anyone authenticated and written by org
// administrators; workspace scope, administrators of its namespace; agent
// scope, as the agent itself (agent.read / agent.update). A value enforced
// above the target is refused (409 naming the lock); a value the auditor
// would refuse at start-up is 422.
import { conflict, forbidden, notFound, unprocessable } from '../../base/http-error.ts';
import { auditorSettingsProblems } from '../../auditors/catalog/settings.ts';
import { ID_PATTERN, SETTING_NAME_PATTERN } from '../../crds/schema/parts.ts';
import type { Principal } from '../auth/principal.ts';
import { validateBody } from '../http/validate.ts';
import { can, type Action } from '../policy/roles.ts';
import { audited, type CallerContext } from './call-route.ts';
import type { AuditorSettingsStore, SettingsTarget, StoredChain } from './settings-store.ts';
import type { McpTool } from './tool.ts';

interface SettingsArgs {
  operation: 'get' | 'set' | 'reset';
  scope: SettingsTarget['scope'];
  scope_id: string;
  auditor_id?: string;
  setting?: string;
  value?: unknown;
  enforced?: boolean;
}

const NAME = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const INPUT = {
  type: 'object',
  required: ['operation', 'scope', 'scope_id'],
  additionalProperties: false,
  properties: {
    operation: { enum: ['get', 'set', 'reset'] },
    scope: { enum: ['org', 'workspace', 'agent'] },
    scope_id: {
      type: 'string',
      maxLength: 317,
      pattern: `^(${NAME}|${NAME}\\.[a-z0-9]([-a-z0-9.]*[a-z0-9])?)$`,
      description: 'org: its name; workspace and agent: `<namespace>.<name>`',
    },
    auditor_id: { type: 'string', pattern: ID_PATTERN },
    setting: { type: 'string', pattern: SETTING_NAME_PATTERN },
    value: { description: 'the new value (set)' },
    enforced: { type: 'boolean', description: 'lock the value for the scopes below (org, workspace)' },
  },
  allOf: [
    {
      if: { properties: { operation: { enum: ['set', 'reset'] } } },
      then: { required: ['auditor_id', 'setting'] },
    },
    { if: { properties: { operation: { const: 'set' } } }, then: { required: ['value'] } },
  ],
} as const;

function targetOf(args: SettingsArgs): SettingsTarget {
  if (args.scope === 'org') {
    if (args.scope_id.includes('.'))
      throw unprocessable('an org scope_id is the Organization name', 'invalid_scope_id');
    return { scope: 'org', name: args.scope_id };
  }
  const dot = args.scope_id.indexOf('.');
  if (dot < 0) throw unprocessable(`a ${args.scope} scope_id is <namespace>.<name>`, 'invalid_scope_id');
  return { scope: args.scope, namespace: args.scope_id.slice(0, dot), name: args.scope_id.slice(dot + 1) };
}

/** The action that decides, and its target (the namespace, or the agent). */
function permission(p: Principal, t: SettingsTarget, chain: StoredChain, write: boolean): boolean {
  const ns = t.namespace ?? '';
  if (t.scope === 'agent') {
    return can(p, write ? 'agent.update' : 'agent.read', { namespace: ns, owners: chain.owners ?? [] });
  }
  if (t.scope === 'workspace')
    return can(p, write ? 'auditor.settings.write_workspace' : 'auditor.settings.read_workspace', {
      namespace: ns,
    });
  const action: Action = write ? 'auditor.settings.write_org' : 'auditor.settings.read';
  return can(p, action);
}

/** A value enforced at a scope above the target locks it there. */
function lockAbove(
  chain: StoredChain,
  t: SettingsTarget,
  auditorId: string,
  setting: string,
): string | undefined {
  const above =
    t.scope === 'agent' ? (['org', 'workspace'] as const) : t.scope === 'workspace' ? (['org'] as const) : [];
  return above.find((s) => chain[s]?.[auditorId]?.[setting]?.enforced === true);
}

function checkSet(args: SettingsArgs, t: SettingsTarget, chain: StoredChain): void {
  const { auditor_id: auditorId = '', setting = '' } = args;
  const lock = lockAbove(chain, t, auditorId, setting);
  if (lock) {
    throw conflict(
      `${auditorId}.${setting} is LOCKED (set by ${lock === 'org' ? 'Org Admin' : 'Workspace'})`,
      'setting_locked',
    );
  }
  if (args.operation !== 'set') return;
  if (args.enforced && t.scope === 'agent')
    throw unprocessable('an agent-scope value cannot be enforced', 'invalid_enforced');
  const problems = auditorSettingsProblems({ [auditorId]: { [setting]: args.value } });
  if (problems.length > 0) throw unprocessable(problems.join('; '), 'invalid_setting');
}

async function settingsCall(
  store: AuditorSettingsStore,
  args: SettingsArgs,
  who: CallerContext,
): Promise<unknown> {
  const t = targetOf(args);
  const chain = await store.chain(t);
  if (!chain) throw notFound(`${args.scope} ${args.scope_id} not found`);
  const write = args.operation !== 'get';
  if (!permission(who.principal, t, chain, write)) {
    throw forbidden(
      `${who.principal.subject} may not ${write ? 'change' : 'read'} ${args.scope} ${args.scope_id} settings`,
    );
  }
  if (!write) {
    const { owners: _owners, ...settings } = chain;
    return { scope: args.scope, scope_id: args.scope_id, settings };
  }
  checkSet(args, t, chain);
  const value =
    args.operation === 'set'
      ? { value: args.value, ...(args.enforced ? { enforced: true } : {}) }
      : undefined;
  await store.write(t, args.auditor_id!, args.setting!, value);
  return {
    scope: args.scope,
    scope_id: args.scope_id,
    auditor_id: args.auditor_id,
    setting: args.setting,
    ...(value ?? { reset: true }),
  };
}

export function auditorSettingsTool(store: AuditorSettingsStore): McpTool {
  return {
    name: 'auditor_settings',
    description:
      'Auditor settings of the org → workspace → agent cascade: get a scope’s stored settings and those above it, set one (enforced: locked below), reset one.',
    inputSchema: INPUT as unknown as McpTool['inputSchema'],
    run: (raw, who) => {
      const args = validateBody<SettingsArgs>(INPUT, raw ?? {}, 'arguments');
      const write = args.operation !== 'get';
      const note = () => ({
        resource: `settings:${args.scope}:${args.scope_id}`,
        ...(args.scope !== 'org' ? { namespace: args.scope_id.split('.')[0] } : {}),
        ...(write
          ? { details: { operation: args.operation, auditor_id: args.auditor_id, setting: args.setting } }
          : {}),
      });
      const action = write ? 'auditor.settings.write' : 'auditor.settings.read';
      return audited(who, { action, note, success: () => 200 }, () => settingsCall(store, args, who));
    },
  };
}
