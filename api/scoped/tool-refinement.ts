// The tool cascade as an agent sees it and as a workspace may refine it, pure
// (decision 150). The state of a tool is the strictest of the tiers
// (api/catalog/tool-cascade.ts, decision 126); a workspace may tighten the
// org policy or add tools of its own, never loosen or contradict it: under
// an org `blocked` only `blocked`, under an org `required` only `required`.
// Tiers written past the API that contradict each other (org requires,
// workspace blocks) resolve to blocked and are reported as a conflict.
import type { ScopedToolInstall } from '../../crds/generated/types.ts';
import { formatAgentId } from '../../contract/agent-id.ts';
import {
  rulingLabel,
  tierOf,
  toolRulings,
  type ToolEnforcement,
  type ToolRuling,
  type ToolTiers,
} from '../catalog/tool-cascade.ts';
import { authStatusOf, type CredentialResolution } from './credential-cascade.ts';

export const enforcementOf = (t: ScopedToolInstall): ToolEnforcement => t.spec.enforcement ?? 'available';

export interface ToolRefusal {
  code: 'tool_blocked' | 'tool_required';
  detail: string;
}

/** Why a workspace may not set `wanted` for a tool its organization rules `org`; undefined when it may. */
export function workspaceToolRefusal(
  org: ToolRuling | undefined,
  wanted: ToolEnforcement,
): ToolRefusal | undefined {
  if (!org || org.enforcement === 'available' || org.enforcement === wanted) return undefined;
  const by = rulingLabel(org);
  if (org.enforcement === 'blocked') {
    return {
      code: 'tool_blocked',
      detail: `tool ${org.tool} is blocked by ${by}; a workspace cannot lift it`,
    };
  }
  return {
    code: 'tool_required',
    detail: `tool ${org.tool} is required by ${by}; a workspace can only keep it required, not make it ${wanted}`,
  };
}

export interface EffectiveTool {
  tool: string;
  state: ToolEnforcement;
  /** The tier whose ruling holds. */
  scope: 'org' | 'workspace';
  scope_id: string;
  server_url: string | null;
  service: string | null;
  /** The auth status of the credential the tool uses; null when blocked or none applies. */
  auth_status: string | null;
  /** Each tier's own ruling. */
  tiers: { org?: ToolEnforcement; workspace?: ToolEnforcement };
  /** Set when the tiers contradict each other (written past the API). */
  conflict?: string;
}

/** The tool's install at each tier above the agent. */
function tierInstalls(installs: readonly ScopedToolInstall[], tiers: ToolTiers, tool: string) {
  const mine = installs.filter((t) => t.spec.tool === tool && tierOf(t, tiers));
  return {
    org: mine.find((t) => t.spec.scope === 'org'),
    workspace: mine.find((t) => t.spec.scope === 'workspace'),
  };
}

function conflictOf(org?: ToolEnforcement, ws?: ToolEnforcement): string | undefined {
  if (org === 'required' && ws === 'blocked')
    return 'the organization requires this tool and the workspace blocks it: blocked holds';
  return undefined;
}

/** The credential a tool uses: the cascade's for its service, else the one its install names. */
function authStatus(
  install: ScopedToolInstall | undefined,
  credentials: CredentialResolution,
  state: ToolEnforcement,
): string | null {
  if (state === 'blocked' || !install) return null;
  const service = install.spec.service;
  const effective = service ? credentials.effective.get(service) : undefined;
  if (effective) return authStatusOf(effective.credential);
  const ref = install.spec.credentialRef;
  const named = ref
    ? [...credentials.effective.values()].find(
        (e) =>
          e.credential.metadata.name === ref &&
          e.credential.metadata.namespace === install.metadata.namespace,
      )
    : undefined;
  return named ? authStatusOf(named.credential) : service || ref ? 'not_connected' : null;
}

function ownRulings(at: ReturnType<typeof tierInstalls>): EffectiveTool['tiers'] {
  const own: EffectiveTool['tiers'] = {};
  if (at.org) own.org = enforcementOf(at.org);
  if (at.workspace) own.workspace = enforcementOf(at.workspace);
  return own;
}

/** One tool's line of the effective view. */
function effectiveTool(
  r: ToolRuling,
  installs: readonly ScopedToolInstall[],
  tiers: ToolTiers,
  credentials: CredentialResolution,
): EffectiveTool {
  const at = tierInstalls(installs, tiers, r.tool);
  const holder = r.scope === 'org' ? at.org : at.workspace;
  const own = ownRulings(at);
  const conflict = conflictOf(own.org, own.workspace);
  const namespace = holder?.metadata.namespace ?? '';
  return {
    tool: r.tool,
    state: r.enforcement,
    scope: r.scope,
    scope_id: r.scope === 'org' ? r.scopeId : formatAgentId({ namespace, name: r.scopeId }),
    server_url: r.serverUrl ?? null,
    service: holder?.spec.service ?? null,
    auth_status: authStatus(holder, credentials, r.enforcement),
    tiers: own,
    ...(conflict ? { conflict } : {}),
  };
}

/** Each tool a tier above the agent rules on, with its state and auth status, sorted by tool. */
export function effectiveTools(
  installs: readonly ScopedToolInstall[],
  tiers: ToolTiers,
  credentials: CredentialResolution,
): EffectiveTool[] {
  return [...toolRulings(installs, tiers).values()]
    .sort((a, b) => a.tool.localeCompare(b.tool))
    .map((r) => effectiveTool(r, installs, tiers, credentials));
}
