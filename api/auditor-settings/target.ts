// Which object holds a tier of the auditor-settings cascade, and who may
// read or change it: the org tier is an Organization's
// `spec.defaults.auditorSettings` (org admins), the workspace tier a
// PlatformWorkspace's (its namespace's admins), the agent tier a
// PlatformAgent's `spec.auditorSettings` (the agent's changers), or for an
// agent a workspace generates, its `spec.agents[]` entry's `auditorSettings`
// (decision 124: the workspace controller writes that onto the agent). Reads
// of the org and workspace tiers need a credential; an agent's need a share.
import { parseAgentId } from '../agents/model.ts';
import { badRequest, forbidden, notFound } from '../../base/http-error.ts';
import type { Organization, PlatformAgent, PlatformWorkspace } from '../../crds/generated/types.ts';
import type { AuditorSettings, CascadeInput, Scope } from '../../policy/settings-cascade.ts';
import { can, type Action } from '../policy/roles.ts';
import type { RouteCtx } from '../routes/route.ts';
import type { TierPlace } from './enforcement.ts';
import { agentSettingsHolder, workspaceOfAgent } from './workspace-agent.ts';

/** The query (GET, DELETE) or body (PUT) fields that name the tier. */
export interface TargetFields {
  scope: Scope;
  organization?: string;
  namespace?: string;
  workspace?: string;
  agent_id?: string;
}

export interface Tier {
  scope: Scope;
  /** What the response names as the tier's object. */
  target: Record<string, string>;
  input: CascadeInput;
  /** The Organization, namespace and workspace the tier sits in (which policies bound it). */
  place: TierPlace;
  /** Replaces the tier's settings (resourceVersion-guarded: a concurrent change answers 409). */
  save(settings: AuditorSettings): Promise<void>;
}

const need = (value: string | undefined, name: string, scope: Scope): string => {
  if (!value) throw badRequest(`scope ${scope} needs ${name}`, 'invalid_query');
  return value;
};

function refuse(rc: RouteCtx, action: Action, what: string, target?: Parameters<typeof can>[2]): void {
  if (!can(rc.principal, action, target)) throw forbidden(`${rc.principal.subject} may not ${what}`);
}

async function orgOf(rc: RouteCtx, name: string | undefined): Promise<Organization | undefined> {
  return name ? rc.deps.writer.readOrganization(name) : undefined;
}

async function orgTier(rc: RouteCtx, f: TargetFields, write: boolean): Promise<Tier> {
  const name = need(f.organization, 'organization', 'org');
  if (write) refuse(rc, 'auditor.settings.write_org', 'change org-tier auditor settings');
  const org = await orgOf(rc, name);
  if (!org) throw notFound(`organization ${name} not found`);
  rc.audit = { resource: `organizations/${name}` };
  return {
    scope: 'org',
    target: { organization: name },
    input: { org: org.spec.defaults?.auditorSettings },
    place: { scope: 'org', organization: name },
    save: async (settings) => {
      org.spec.defaults = { ...(org.spec.defaults ?? {}), auditorSettings: settings };
      await rc.deps.writer.replaceOrganization(org);
    },
  };
}

async function readWorkspace(rc: RouteCtx, namespace: string, name: string): Promise<PlatformWorkspace> {
  const ws = await rc.deps.writer.readWorkspace(namespace, name);
  if (!ws) throw notFound(`workspace ${namespace}/${name} not found`);
  return ws;
}

async function workspaceTier(rc: RouteCtx, f: TargetFields, write: boolean): Promise<Tier> {
  const namespace = need(f.namespace, 'namespace', 'workspace');
  const name = need(f.workspace, 'workspace', 'workspace');
  if (write) {
    refuse(
      rc,
      'auditor.settings.write_workspace',
      `change auditor settings of workspace ${namespace}/${name}`,
      {
        namespace,
      },
    );
  }
  const ws = await readWorkspace(rc, namespace, name);
  const org = await orgOf(rc, ws.spec.organization);
  rc.audit = { resource: `platformworkspaces/${name}`, namespace };
  return {
    scope: 'workspace',
    target: { namespace, workspace: name },
    input: { org: org?.spec.defaults?.auditorSettings, workspace: ws.spec.defaults?.auditorSettings },
    place: { scope: 'workspace', organization: ws.spec.organization, namespace, workspace: name },
    save: async (settings) => {
      ws.spec.defaults = { ...(ws.spec.defaults ?? {}), auditorSettings: settings };
      await rc.deps.writer.replaceWorkspace(ws);
    },
  };
}

async function agentTier(rc: RouteCtx, f: TargetFields, write: boolean): Promise<Tier> {
  const id = need(f.agent_id, 'agent_id', 'agent');
  const { namespace, name } = parseAgentId(id);
  const agent: PlatformAgent | undefined = await rc.deps.writer.readAgent(namespace, name);
  if (!agent) throw notFound(`agent ${id} not found`);
  const ref = { namespace, owners: agent.spec.owners ?? [] };
  if (write) refuse(rc, 'auditor.settings.write_agent', `change auditor settings of agent ${id}`, ref);
  else refuse(rc, 'agent.read', `read agent ${id}`, ref);
  const ws = await workspaceOfAgent(rc, agent);
  const org = await orgOf(rc, ws?.spec.organization);
  const holder = agentSettingsHolder(rc, agent, ws);
  return {
    scope: 'agent',
    target: { agent_id: id },
    input: { ...tiersAbove(org, ws), agent: holder.settings },
    place: agentPlace(agent, ws),
    save: holder.save,
  };
}

const tiersAbove = (org: Organization | undefined, ws: PlatformWorkspace | undefined): CascadeInput => ({
  org: org?.spec.defaults?.auditorSettings,
  workspace: ws?.spec.defaults?.auditorSettings,
});

const agentPlace = (agent: PlatformAgent, ws: PlatformWorkspace | undefined): TierPlace => ({
  scope: 'agent',
  organization: ws?.spec.organization,
  namespace: agent.metadata.namespace,
  workspace: ws?.metadata.name ?? agent.spec.workspace,
});

const TIERS: Record<Scope, (rc: RouteCtx, f: TargetFields, write: boolean) => Promise<Tier>> = {
  org: orgTier,
  workspace: workspaceTier,
  agent: agentTier,
};

/** The tier the fields name, checked for `write` or read access; 400/403/404 otherwise. */
export function loadTier(rc: RouteCtx, fields: TargetFields, write: boolean): Promise<Tier> {
  return TIERS[fields.scope](rc, fields, write);
}
