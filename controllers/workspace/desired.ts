// What a PlatformWorkspace stands for, pure: one PlatformAgent per
// `spec.agents[]` entry (owners from the workspace defaults and the entry,
// the entry winning per subject), the `platform-auditor-chain` ConfigMap and
// the workspace status fields. Each agent carries a hash of what the
// workspace wrote, so an unchanged workspace causes no write.
import type * as k8s from '@kubernetes/client-node';
import type { Organization, PlatformAgent, PlatformWorkspace } from '../../crds/generated/types.ts';
import { chainIds, chainLists, composeChain, unknownAuditors } from '../chain/compose.ts';
import { workspaceChainInput } from '../agent/chain.ts';
import { specHash } from '../../base/controller/hash.ts';
import { ownerReference } from '../common/meta.ts';
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import { API_VERSION, CONFIGMAP, MANAGED_BY, LABEL, ANNOTATION } from '../../contract/kube.ts';

export const WORKSPACE_KIND = 'PlatformWorkspace';
type Owner = NonNullable<PlatformAgent['spec']['owners']>[number];
type Entry = NonNullable<PlatformWorkspace['spec']['agents']>[number];

/** Workspace default owners and the entry's own, unique by subject; the entry wins. */
export function mergeOwners(defaults: readonly Owner[] = [], own: readonly Owner[] = []): Owner[] {
  const out = new Map<string, Owner>();
  for (const o of [...defaults, ...own]) out.set(o.subject, { subject: o.subject, role: o.role });
  return [...out.values()];
}

/** The spec fields the workspace manages on each of its agents; `null` clears a field. */
export function agentSpecFromEntry(ws: PlatformWorkspace, entry: Entry): Record<string, unknown> {
  const owners = mergeOwners(ws.spec.defaults?.owners, entry.owners);
  return {
    workspace: ws.metadata.name,
    owners,
    model: entry.model ?? null,
    auditorSettings: entry.auditorSettings ?? null,
    abilities: entry.abilities ?? null,
    environment: entry.environment ?? null,
  };
}

export interface DesiredAgent {
  name: string;
  hash: string;
  /** The full object for a create. */
  body: PlatformAgent;
  /** The merge patch for an update (spec fields, labels, hash). */
  patch: Record<string, unknown>;
}

const withoutNulls = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

export function desiredAgents(ws: PlatformWorkspace): DesiredAgent[] {
  const owner = ownerReference({ apiVersion: API_VERSION, kind: WORKSPACE_KIND, metadata: ws.metadata });
  return (ws.spec.agents ?? []).map((entry) => {
    const spec = agentSpecFromEntry(ws, entry);
    const labels = { [LABEL.workspace]: ws.metadata.name ?? '' };
    const hash = specHash({ spec, labels });
    const annotations = { [ANNOTATION.specHash]: hash };
    const body = {
      apiVersion: API_VERSION,
      kind: 'PlatformAgent',
      metadata: {
        name: entry.name,
        namespace: ws.metadata.namespace,
        labels,
        annotations,
        ownerReferences: [owner],
      },
      spec: withoutNulls(spec),
    } as PlatformAgent;
    return { name: entry.name, hash, body, patch: { metadata: { labels, annotations }, spec } };
  });
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A merge-patch value that turns `current` into `desired`: keys only `current` has become null. */
export function replacing(current: unknown, desired: unknown): unknown {
  if (!isMap(current) || !isMap(desired)) return desired;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(current)) if (!(key in desired)) out[key] = null;
  for (const [key, value] of Object.entries(desired)) out[key] = replacing(current[key], value);
  return out;
}

/** The spec fields the workspace owns as whole objects: a key its entry dropped must leave the agent. */
const REPLACED_FIELDS = ['model', 'auditorSettings', 'abilities', 'environment'] as const;

/**
 * The update patch of a generated agent. The workspace entry is the whole
 * truth of the fields it manages (a definition file applied by GitOps, and
 * the agent tier of settings saved through the API, decision 124), so each is
 * replaced, not merged: a key removed from the entry is removed from the agent.
 */
export function agentPatch(d: DesiredAgent, current: PlatformAgent): Record<string, unknown> {
  const spec = { ...(d.patch.spec as Record<string, unknown>) };
  const stored = current.spec as Record<string, unknown>;
  for (const field of REPLACED_FIELDS) spec[field] = replacing(stored[field], spec[field]);
  return { ...d.patch, spec };
}

/**
 * The chain ConfigMap: the workspace's composed chain; auditors that only the
 * user put in a `postResponse` list go to `postResponse`, all others (system
 * and required ones included) to `preRequest`, so the ordered union is the chain.
 */
export function desiredChainConfigMap(ws: PlatformWorkspace, org: Organization | undefined): k8s.V1ConfigMap {
  const { input } = workspaceChainInput(ws, org);
  const chain = composeChain(input);
  const wsLists = chainLists(ws.spec.defaults?.auditorChain);
  const orgLists = chainLists(org?.spec.defaults?.auditorChain);
  const pre = new Set([...orgLists.preRequest, ...wsLists.preRequest]);
  const post = new Set([...orgLists.postResponse, ...wsLists.postResponse].filter((id) => !pre.has(id)));
  const isPost = (e: { auditorId: string; scope: string }): boolean =>
    e.scope === 'user' && post.has(e.auditorId);
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: CONFIGMAP.auditorChain,
      namespace: ws.metadata.namespace,
      labels: { [LABEL.managedBy]: MANAGED_BY, [LABEL.workspace]: ws.metadata.name ?? '' },
      ownerReferences: [
        ownerReference({ apiVersion: API_VERSION, kind: WORKSPACE_KIND, metadata: ws.metadata }),
      ],
    },
    data: {
      preRequest: chain
        .filter((e) => !isPost(e))
        .map((e) => e.auditorId)
        .join(','),
      postResponse: chain
        .filter(isPost)
        .map((e) => e.auditorId)
        .join(','),
    },
  };
}

export interface WorkspaceChainCheck {
  ids: string[];
  condition: DesiredCondition;
}

export function workspaceChainCheck(
  ws: PlatformWorkspace,
  org: Organization | undefined,
  known: ReadonlySet<string>,
): WorkspaceChainCheck {
  const { input, missingFrameworks } = workspaceChainInput(ws, org);
  const chain = composeChain(input);
  const unknown = unknownAuditors(chain, known);
  const type = 'ChainValid';
  let condition: DesiredCondition = {
    type,
    status: 'True',
    reason: 'Composed',
    message: chainIds(chain).join(','),
  };
  if (unknown.length > 0) {
    condition = {
      type,
      status: 'False',
      reason: 'UnknownAuditor',
      message: `unknown auditor(s) ${unknown.join(', ')}: register them (AuditorRegistration) or remove them; agents keep their running pods`,
    };
  } else if (missingFrameworks.length > 0) {
    condition = {
      type,
      status: 'False',
      reason: 'UnknownFramework',
      message: `framework(s) ${missingFrameworks.join(', ')} are not defined by organization ${ws.spec.organization ?? '(none)'}`,
    };
  }
  return { ids: chainIds(chain), condition };
}

export interface WorkspaceFindings {
  /** The ChainValid condition (workspaceChainCheck). */
  chain: DesiredCondition;
  /** `spec.organization`, and the Organization when it exists. */
  organization: string | undefined;
  org: Organization | undefined;
  /** Agent names held by agents the workspace does not own. */
  taken: readonly string[];
}

function organizationFound(
  organization: string | undefined,
  org: Organization | undefined,
): DesiredCondition {
  const type = 'OrganizationFound';
  if (!organization || org)
    return { type, status: 'True', reason: organization ? 'Found' : 'NoOrganization' };
  return {
    type,
    status: 'False',
    reason: 'OrganizationNotFound',
    message: `organization ${organization} does not exist; org-required auditors cannot be applied`,
  };
}

function agentsReconciled(taken: readonly string[]): DesiredCondition {
  const type = 'AgentsReconciled';
  if (taken.length === 0) return { type, status: 'True', reason: 'AgentsInSync' };
  return {
    type,
    status: 'False',
    reason: 'AgentNameTaken',
    message: `agent(s) ${taken.join(', ')} exist and are not owned by this workspace; they are left untouched`,
  };
}

/** The workspace's conditions; Ready is True when every other one is. */
export function workspaceConditions(f: WorkspaceFindings): DesiredCondition[] {
  const desired = [f.chain, organizationFound(f.organization, f.org), agentsReconciled(f.taken)];
  const failing = desired.filter((c) => c.status !== 'True');
  const ready: DesiredCondition =
    failing.length === 0
      ? {
          type: 'Ready',
          status: 'True',
          reason: 'Reconciled',
          message: 'chain valid, organization found, agents in sync',
        }
      : {
          type: 'Ready',
          status: 'False',
          reason: 'SeeConditions',
          message: failing.map((c) => `${c.type} is False: ${c.reason}`).join('; '),
        };
  return [...desired, ready];
}
