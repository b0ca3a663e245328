// Who may do what, as one table. A principal holds roles: `org_admin` (from
// its credential), `workspace_admin` (for the namespaces it administers), its
// share role on the agent (`owner`, `editor`, `viewer`), and always
// `authenticated`. An action is allowed when any role held is listed.
// Only an Owner approves: administrators are not Owners. Which Owner may
// decide a given request (not its requester, an Owner since before it) is
// the approval's own rule: api/approvals/model.ts `decisionRefusal`.
import type { Principal } from '../auth/principal.ts';

export const ROLES = [
  'org_admin',
  'workspace_admin',
  'owner',
  'editor',
  'viewer',
  'authenticated',
  'gateway',
] as const;
export type Role = (typeof ROLES)[number];

export type Scope = 'global' | 'agent';

const ADMINS = ['org_admin', 'workspace_admin'] as const;
const SHARED = [...ADMINS, 'owner', 'editor', 'viewer'] as const;
const CHANGERS = [...ADMINS, 'owner', 'editor'] as const;

export const POLICY = {
  'agent.create': { scope: 'global', roles: ADMINS },
  'agent.list': { scope: 'global', roles: ['authenticated'] },
  'agent.stale': { scope: 'global', roles: ['authenticated'] },
  'agent.read': { scope: 'agent', roles: SHARED },
  'agent.update': { scope: 'agent', roles: CHANGERS },
  'agent.delete': { scope: 'agent', roles: CHANGERS },
  'agent.shares.read': { scope: 'agent', roles: SHARED },
  'agent.shares.write': { scope: 'agent', roles: CHANGERS },
  'agent.shares.write_owner': { scope: 'agent', roles: [...ADMINS, 'owner'] },
  'agent.suspend': { scope: 'agent', roles: CHANGERS },
  'agent.reactivate': { scope: 'agent', roles: [...ADMINS, 'owner'] },
  'agent.access_review': { scope: 'agent', roles: CHANGERS },
  'agent.passport': { scope: 'agent', roles: SHARED },
  // The console shell (spec: only Owners; administrators are not Owners). A control action in the passport.
  'agent.console.shell': { scope: 'agent', roles: ['owner'] },
  // The agent's credential proxy holds a high-risk call and waits for its approval (handlers: assertGatewayServes).
  'agent.action.request': { scope: 'agent', roles: [...CHANGERS, 'gateway'] },
  'approval.read': { scope: 'agent', roles: [...SHARED, 'gateway'] },
  'approval.decide': { scope: 'agent', roles: ['owner'] },
  'approval.list': { scope: 'global', roles: ['authenticated'] },
  // OBO delegation: who within these roles may answer or revoke is the model's rule (api/delegations/model.ts).
  'delegation.request': { scope: 'agent', roles: [...CHANGERS, 'gateway'] },
  'delegation.read': { scope: 'agent', roles: SHARED },
  'delegation.answer': { scope: 'agent', roles: ['owner', 'editor', 'viewer'] },
  'delegation.revoke': { scope: 'agent', roles: ['owner', 'editor', 'viewer'] },
  // The caller's own consents and revocable grants across agents (the handler filters by subject).
  'delegation.list_mine': { scope: 'global', roles: ['authenticated'] },
  // The agent's credential proxy reads it with the agent's Gateway key (network domain).
  'agent.access_manifest.read': { scope: 'agent', roles: [...SHARED, 'gateway'] },
  // Its egress bundle too (rules, MCP servers, Cedar; no secret), every 30 s.
  'agent.egress.read': { scope: 'agent', roles: [...SHARED, 'gateway'] },
  // Its secrets: the handler admits only a key bound to this very agent (api/egress/secrets.ts).
  'agent.egress.credential': { scope: 'agent', roles: ['gateway'] },
  'agent.svid': { scope: 'agent', roles: ['gateway'] },
  // Data accesses: the agent's credential proxy records them (the handler checks the key serves the agent).
  'agent.accesses.record': { scope: 'agent', roles: ['gateway'] },
  'agent.accesses.read': { scope: 'agent', roles: SHARED },
  // The console's stream, event list and subagent tree: Viewers and above (the shell is Owners' alone).
  'agent.console.read': { scope: 'agent', roles: SHARED },
  'notification.count': { scope: 'global', roles: ['authenticated'] },
  'apikey.mint': { scope: 'global', roles: ['authenticated'] },
  'apikey.list': { scope: 'global', roles: ['authenticated'] },
  'whoami.read': { scope: 'global', roles: ['authenticated'] },
  'apikey.revoke': { scope: 'global', roles: ['authenticated'] },
  'audit.query': { scope: 'global', roles: ADMINS },
  'audit.verify': { scope: 'global', roles: ['org_admin'] },
  'registry.notarize': { scope: 'global', roles: ['org_admin'] },
  'agent.evidence.read': { scope: 'agent', roles: SHARED },
  'evidence.submit': { scope: 'global', roles: ['gateway'] },
  'attester.key.revoke': { scope: 'global', roles: ['org_admin'] },
  // Policies: global here; the handler re-checks the policy's namespace (see api/routes/policies.ts).
  'policy.list': { scope: 'global', roles: ADMINS },
  'policy.read': { scope: 'global', roles: ADMINS },
  'policy.write': { scope: 'global', roles: ADMINS },
  'policy.effective': { scope: 'global', roles: [...ADMINS, 'gateway'] },
  'policy.apply_preset': { scope: 'global', roles: ADMINS },
  'auditor.register': { scope: 'global', roles: ['org_admin', 'gateway'] },
  'auditor.list': { scope: 'global', roles: ['authenticated'] },
  'model.list': { scope: 'global', roles: ['authenticated'] },
  'model.register': { scope: 'global', roles: ['org_admin'] },
  // App catalog: reading it is for everyone signed in; installs follow agent.update.
  'catalog.list': { scope: 'global', roles: ['authenticated'] },
  'catalog.read': { scope: 'global', roles: ['authenticated'] },
  'agent.apps.install': { scope: 'agent', roles: CHANGERS },
  'agent.apps.read': { scope: 'agent', roles: SHARED },
  // Auditor settings: the routes need a credential; the handler checks the tier (api/auditor-settings/target.ts).
  'auditor.settings.read': { scope: 'global', roles: ['authenticated'] },
  'auditor.settings.write': { scope: 'global', roles: ['authenticated'] },
  'auditor.settings.write_org': { scope: 'global', roles: ['org_admin'] },
  'auditor.settings.write_workspace': { scope: 'global', roles: ADMINS },
  'auditor.settings.write_agent': { scope: 'agent', roles: CHANGERS },
  // Scoped credentials and tools: administrators reach the routes; the handler checks the tier (decision 151):
  // the org tier's writes need an org admin, a workspace's an admin of its namespace; `effective` an agent's sharers.
  'scoped.list': { scope: 'global', roles: ADMINS },
  'scoped.write': { scope: 'global', roles: ADMINS },
  'scoped.read_org': { scope: 'global', roles: ADMINS },
  'scoped.write_org': { scope: 'global', roles: ['org_admin'] },
  'scoped.read_workspace': { scope: 'global', roles: ADMINS },
  'scoped.write_workspace': { scope: 'global', roles: ADMINS },
  'scoped.effective.read': { scope: 'global', roles: ['authenticated'] },
  // Definition files (the UI's editor): anyone signed in validates; who may apply each resource is the
  // handler's check (api/definitions/authorize.ts, decision 283).
  'definition.validate': { scope: 'global', roles: ['authenticated'] },
  'definition.apply': { scope: 'global', roles: ['authenticated'] },
  // The tier picker: the handler shows each caller only its own tiers (api/scoped/visible-scopes.ts).
  'scope.list': { scope: 'global', roles: ['authenticated'] },
  // Workflows: administrators; the handler re-checks the workflow's namespace (decision 118).
  'workflow.list': { scope: 'global', roles: ['authenticated'] },
  'workflow.read': { scope: 'global', roles: ADMINS },
  'workflow.write': { scope: 'global', roles: ADMINS },
  'workflow.deploy': { scope: 'global', roles: ADMINS },
} as const satisfies Record<string, { scope: Scope; roles: readonly Role[] }>;

export type Action = keyof typeof POLICY;

export interface Owner {
  subject: string;
  role: 'Owner' | 'Editor' | 'Viewer';
}

/** What an agent-scoped decision needs to know about the agent. */
export interface AgentRef {
  namespace: string;
  owners?: readonly Owner[];
}

const SHARE_ROLE: Record<Owner['role'], Role> = { Owner: 'owner', Editor: 'editor', Viewer: 'viewer' };

export function shareRoleOf(
  subject: string,
  owners: readonly Owner[] | undefined,
): Owner['role'] | undefined {
  return owners?.find((o) => o.subject === subject)?.role;
}

/** Every role `principal` holds, for an agent or (without one) in `namespace` or globally. */
export function rolesOf(principal: Principal, target?: AgentRef | { namespace: string }): Set<Role> {
  // A Gateway key is a machine credential: it holds its own role and nothing else.
  if (principal.gateway) return new Set<Role>(['gateway']);
  const roles = new Set<Role>(['authenticated']);
  if (principal.orgAdmin) roles.add('org_admin');
  const ns = target?.namespace;
  const adminsHere =
    ns !== undefined ? principal.workspaceAdminOf.includes(ns) : principal.workspaceAdminOf.length > 0;
  if (adminsHere) roles.add('workspace_admin');
  const share = target && 'owners' in target ? shareRoleOf(principal.subject, target.owners) : undefined;
  if (share) roles.add(SHARE_ROLE[share]);
  return roles;
}

export function can(
  principal: Principal,
  action: Action,
  target?: AgentRef | { namespace: string },
): boolean {
  const held = rolesOf(principal, target);
  return (POLICY[action].roles as readonly Role[]).some((r) => held.has(r));
}

/** True when the principal sees the agent at all (lists and counts filter by this). */
export function canSee(principal: Principal, agent: AgentRef): boolean {
  return can(principal, 'agent.read', agent);
}

const ROLE_WORDS: Record<Role, string> = {
  org_admin: 'an organization administrator',
  workspace_admin: 'an administrator of the workspace',
  owner: 'an Owner of the agent',
  editor: 'an Editor',
  viewer: 'a Viewer',
  authenticated: 'anyone signed in',
  gateway: "the agent's Gateway",
};

/** Who an action is for, in words: "an organization administrator or an administrator of the workspace". */
export function rolesInWords(action: Action): string {
  const words = POLICY[action].roles.map((r) => ROLE_WORDS[r]);
  return words.length <= 1 ? (words[0] ?? 'nobody') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
