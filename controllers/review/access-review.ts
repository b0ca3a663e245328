// Access review, pure: what one agent can reach and who granted it —
// delegations users granted it (active grants only), credentials routed to it
// (its own rules, and org/workspace ScopedCredentials shared with it), tools
// available to it at org/workspace scope, and the apps installed on it.
// Blocked tools are listed apart, so a reviewer sees the guardrails too.
import type {
  AgentInstalledApp,
  DelegationGrant,
  PlatformAgent,
  ScopedCredential,
  ScopedToolInstall,
} from '../../crds/generated/types.ts';

export interface AccessEntry {
  kind: 'delegation' | 'credential' | 'tool' | 'app';
  /** The service, destination host, tool or app reached. */
  target: string;
  /** Scopes or the injection method, as far as known. */
  access: string[];
  /** A user subject, the agent's Owners, or `org:<id>` / `workspace:<id>`. */
  grantedBy: string;
  /** The object that carries the access. */
  via: string;
  expiresAt?: string;
}

export interface AccessReview {
  agentId: string;
  entries: AccessEntry[];
  blockedTools: { tool: string; blockedBy: string }[];
}

export interface AccessReviewInput {
  agent: PlatformAgent;
  /** The Organization's name (ScopedCredential/ScopedToolInstall `scopeId` of org scope). */
  orgId?: string;
  /** The workspace's name (`scopeId` of workspace scope). */
  workspaceId?: string;
  grants?: readonly DelegationGrant[];
  credentials?: readonly ScopedCredential[];
  toolInstalls?: readonly ScopedToolInstall[];
  installedApps?: readonly AgentInstalledApp[];
}

const scopeLabel = (scope: string, id: string): string => `${scope}:${id}`;

function appliesTo(input: AccessReviewInput, scope: string, scopeId: string): boolean {
  return (
    (scope === 'org' && scopeId === input.orgId) || (scope === 'workspace' && scopeId === input.workspaceId)
  );
}

function owners(agent: PlatformAgent): string {
  const list = (agent.spec.owners ?? []).filter((o) => o.role === 'Owner').map((o) => o.subject);
  return list.length > 0 ? list.join(', ') : '(no owner)';
}

function delegations(input: AccessReviewInput): AccessEntry[] {
  const name = input.agent.metadata.name;
  return (input.grants ?? [])
    .filter((g) => g.spec.agent === name && (g.status?.phase ?? 'active') === 'active')
    .map((g) => ({
      kind: 'delegation',
      target: g.spec.service,
      access: [...g.spec.scopes],
      grantedBy: g.spec.user,
      via: `DelegationGrant/${g.metadata.name}`,
      expiresAt: g.spec.expiresAt,
    }));
}

function routedCredentials(input: AccessReviewInput): AccessEntry[] {
  const env = input.agent.spec.environment;
  const rules = [
    ...(env?.credentialRouting ?? []),
    ...(env?.tools ?? []).flatMap((t) => t.credentialRouting ?? []),
  ];
  return rules.map((r) => ({
    kind: 'credential',
    target: r.destination,
    access: [r.injectionMethod ?? 'sidecar'],
    grantedBy: owners(input.agent),
    via: r.credentialRef ? `ScopedCredential/${r.credentialRef}` : 'credentialRouting',
  }));
}

function sharedCredentials(input: AccessReviewInput): AccessEntry[] {
  return (input.credentials ?? [])
    .filter((c) => c.spec.sharingMode !== 'isolated' && appliesTo(input, c.spec.scope, c.spec.scopeId))
    .map((c) => ({
      kind: 'credential',
      target: c.spec.service,
      access: [c.spec.type, ...(c.spec.destinations ?? [])],
      grantedBy: scopeLabel(c.spec.scope, c.spec.scopeId),
      via: `ScopedCredential/${c.metadata.name}`,
    }));
}

export function accessReview(input: AccessReviewInput): AccessReview {
  const tools = (input.toolInstalls ?? []).filter((t) => appliesTo(input, t.spec.scope, t.spec.scopeId));
  const toolEntries: AccessEntry[] = tools
    .filter((t) => t.spec.enforcement !== 'blocked')
    .map((t) => ({
      kind: 'tool',
      target: t.spec.tool,
      access: [t.spec.enforcement ?? 'available'],
      grantedBy: scopeLabel(t.spec.scope, t.spec.scopeId),
      via: `ScopedToolInstall/${t.metadata.name}`,
    }));
  const apps: AccessEntry[] = (input.installedApps ?? [])
    .filter((a) => a.spec.agent === input.agent.metadata.name)
    .map((a) => ({
      kind: 'app',
      target: a.spec.app,
      access: a.spec.version ? [a.spec.version] : [],
      grantedBy: owners(input.agent),
      via: `AgentInstalledApp/${a.metadata.name}`,
    }));
  return {
    agentId: `${input.agent.metadata.namespace}.${input.agent.metadata.name}`,
    entries: [
      ...delegations(input),
      ...routedCredentials(input),
      ...sharedCredentials(input),
      ...toolEntries,
      ...apps,
    ],
    blockedTools: tools
      .filter((t) => t.spec.enforcement === 'blocked')
      .map((t) => ({ tool: t.spec.tool, blockedBy: scopeLabel(t.spec.scope, t.spec.scopeId) })),
  };
}
