// The auditor-settings cascade over HTTP (spec: Auditor and model registry,
// settings; Inheritance badges), decision 116:
//   GET    /v1/auditors/settings?scope=…   every setting as the tier sees it, with its badge
//   PUT    /v1/auditors/settings           set (override, lock) one setting at a tier
//   DELETE /v1/auditors/settings?scope=…&auditor_id=…&setting=…  reset: the tier inherits again
// The tier is `scope` = org (`organization`), workspace (`namespace`,
// `workspace`) or agent (`agent_id`). A tier below a lock cannot change or
// reset the locked setting (409 `setting_locked`, decision 117); a value an
// AuditorPolicy of a tier above bounds with an enforcement mode cannot be
// saved there, nor inherited by a reset (422 `enforcement_violation`,
// decision 123).
import { CAMEL_KEY_RE, SNAKE_KEY_RE } from '../../auditors/sdk/setting-names.ts';
import { badRequest, conflict, unprocessable } from '../../base/http-error.ts';
import type { JSONSchema } from '../../crds/kit.ts';
import { policiesAbove, settingClaims, settingEnforcementDetail } from '../auditor-settings/enforcement.ts';
import { settingProblem, settingsSchemaOf } from '../auditor-settings/schema.ts';
import { loadTier, type TargetFields, type Tier } from '../auditor-settings/target.ts';
import {
  lockDetail,
  lockedBy,
  settingsView,
  storedKey,
  withoutSetting,
  withSetting,
} from '../auditor-settings/tiers.ts';
import { enumQuery, patternQuery, stringQuery } from '../http/validate.ts';
import { AUDITOR_SETTING_RESET, AUDITOR_SETTING_SAVED, AUDITOR_SETTINGS } from './responses.ts';
import type { RouteCtx, RouteSpec } from './route.ts';

const SCOPES = ['org', 'workspace', 'agent'] as const;
const NAME_RE = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
export const AUDITOR_ID_RE = /^[a-z0-9]([-_a-z0-9]{0,61}[a-z0-9])?$/;
const inner = (re: RegExp): string => re.source.slice(1, -1);
/** A setting name, snake_case (vocabulary) or camelCase (definition files). */
export const SETTING_RE = new RegExp(`^(?:${inner(SNAKE_KEY_RE)}|${inner(CAMEL_KEY_RE)})$`);

const str = (pattern: RegExp, maxLength: number): JSONSchema => ({
  type: 'string',
  maxLength,
  pattern: pattern.source,
});

const SETTING_BODY: JSONSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['scope', 'auditor_id', 'setting', 'value'],
  properties: {
    scope: { type: 'string', enum: [...SCOPES] },
    organization: str(NAME_RE, 253),
    namespace: str(NAME_RE, 63),
    workspace: str(NAME_RE, 253),
    agent_id: { type: 'string', maxLength: 317 },
    auditor_id: str(AUDITOR_ID_RE, 63),
    setting: str(SETTING_RE, 63),
    value: {},
    locked: { type: 'boolean' },
  },
};

interface SettingBody extends TargetFields {
  auditor_id: string;
  setting: string;
  value: unknown;
  locked?: boolean;
}

function targetQuery(q: Record<string, string>): TargetFields {
  const scope = enumQuery(q, 'scope', SCOPES);
  if (!scope) throw badRequest('query scope is required: org, workspace or agent', 'invalid_query');
  const fields: TargetFields = { scope };
  for (const name of ['organization', 'namespace', 'workspace'] as const) {
    const value = patternQuery(q, name, NAME_RE);
    if (value) fields[name] = value;
  }
  const agentId = stringQuery(q, 'agent_id', 317);
  if (agentId) fields.agent_id = agentId;
  return fields;
}

const viewAt = (tier: Tier, auditorId: string, setting: string) =>
  settingsView(tier.input, tier.scope).find(
    (v) => v.auditor_id === auditorId && v.setting === storedKey(setting),
  ) ?? null;

async function readSettings(rc: RouteCtx): Promise<unknown> {
  const tier = await loadTier(rc, targetQuery(rc.query), false);
  return { scope: tier.scope, target: tier.target, items: settingsView(tier.input, tier.scope) };
}

const registrationOf = (rc: RouteCtx, auditorId: string) =>
  rc.deps.auditors.list().find((r) => r.spec.auditorId === auditorId);

/** 422 when `value` at the tier breaks an enforcement mode of a policy above it; `why` prefixes the detail. */
async function checkEnforcement(
  rc: RouteCtx,
  tier: Tier,
  setting: { auditorId: string; setting: string; value: unknown },
  why = '',
): Promise<void> {
  const policies = policiesAbove(tier.place, await rc.deps.policy.policies.list());
  if (policies.length === 0) return;
  const claims = settingClaims(setting.auditorId, registrationOf(rc, setting.auditorId), setting.setting);
  const detail = settingEnforcementDetail(
    { ...setting, setting: storedKey(setting.setting), claims },
    policies,
  );
  if (detail) throw unprocessable(`${why}${detail}`, 'enforcement_violation');
}

function checkValue(rc: RouteCtx, body: SettingBody): void {
  const registration = registrationOf(rc, body.auditor_id);
  const schema = settingsSchemaOf(body.auditor_id, registration);
  if (!schema)
    throw unprocessable(
      `auditor_id: no auditor ${body.auditor_id} is built in or registered`,
      'unknown_auditor',
    );
  const problem = settingProblem(body.auditor_id, body.setting, body.value, schema);
  if (problem) throw unprocessable(problem, 'invalid_setting');
  if (body.locked && body.scope === 'agent') {
    throw unprocessable('locked: only the org and workspace tiers lock a setting', 'invalid_setting');
  }
}

async function saveSetting(rc: RouteCtx): Promise<unknown> {
  const body = rc.body as SettingBody;
  const tier = await loadTier(rc, body, true);
  const lock = lockedBy(tier.input, tier.scope, body.auditor_id, body.setting);
  if (lock) throw conflict(lockDetail(body.auditor_id, body.setting, lock), 'setting_locked');
  checkValue(rc, body);
  await checkEnforcement(rc, tier, { auditorId: body.auditor_id, setting: body.setting, value: body.value });
  const entry = { value: body.value, enforced: body.locked === true };
  const next = withSetting(tier.input[tier.scope], body.auditor_id, body.setting, entry);
  await tier.save(next);
  tier.input[tier.scope] = next;
  rc.audit.details = {
    auditor_id: body.auditor_id,
    setting: storedKey(body.setting),
    locked: entry.enforced,
  };
  return { scope: tier.scope, target: tier.target, setting: viewAt(tier, body.auditor_id, body.setting) };
}

async function resetSetting(rc: RouteCtx): Promise<unknown> {
  const fields = targetQuery(rc.query);
  const auditorId = patternQuery(rc.query, 'auditor_id', AUDITOR_ID_RE);
  const setting = patternQuery(rc.query, 'setting', SETTING_RE);
  if (!auditorId || !setting) throw badRequest('query auditor_id and setting are required', 'invalid_query');
  const tier = await loadTier(rc, fields, true);
  const lock = lockedBy(tier.input, tier.scope, auditorId, setting);
  if (lock) throw conflict(lockDetail(auditorId, setting, lock), 'setting_locked');
  const { next, removed } = withoutSetting(tier.input[tier.scope], auditorId, setting);
  const inherited = viewAt({ ...tier, input: { ...tier.input, [tier.scope]: next } }, auditorId, setting);
  if (removed && inherited) {
    const why = `a reset would inherit ${JSON.stringify(inherited.value)} from the ${inherited.source} tier: `;
    await checkEnforcement(rc, tier, { auditorId, setting, value: inherited.value }, why);
  }
  if (removed) {
    await tier.save(next);
    tier.input[tier.scope] = next;
  }
  rc.audit.details = { auditor_id: auditorId, setting: storedKey(setting), removed };
  return { scope: tier.scope, target: tier.target, removed, setting: viewAt(tier, auditorId, setting) };
}

const TARGET_QUERY = {
  scope: 'org, workspace or agent',
  organization: 'Organization name (scope org)',
  namespace: 'workspace namespace (scope workspace)',
  workspace: 'PlatformWorkspace name (scope workspace)',
  agent_id: '<namespace>.<name> (scope agent)',
};

export const AUDITOR_SETTINGS_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/auditors/settings',
    action: 'auditor.settings.read',
    summary: 'Auditor settings of a tier (org, workspace, agent) with inheritance badges',
    success: 200,
    response: AUDITOR_SETTINGS,
    query: TARGET_QUERY,
    handle: readSettings,
  },
  {
    method: 'PUT',
    path: '/v1/auditors/settings',
    action: 'auditor.settings.write',
    summary: 'Set, override or lock one auditor setting at a tier',
    success: 200,
    response: AUDITOR_SETTING_SAVED,
    body: SETTING_BODY,
    handle: saveSetting,
  },
  {
    method: 'DELETE',
    path: '/v1/auditors/settings',
    action: 'auditor.settings.write',
    summary: 'Reset one auditor setting at a tier so it inherits again',
    success: 200,
    response: AUDITOR_SETTING_RESET,
    query: { ...TARGET_QUERY, auditor_id: 'auditor id', setting: 'setting name' },
    handle: resetSetting,
  },
];
