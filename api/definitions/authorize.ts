// Who may apply a definition file's resource through the facade (decision
// 283). A PlatformAgent that exists: its Owners (an apply can rewrite its
// owners, so it is the share dialog's Owner grant); a new one: whoever may
// create agents in its namespace, as the creation wizard (workspace or org
// administrators), with an Owner in the file. A PlatformWorkspace or a
// PlatformEnvironment (it provisions agents or a model server for the
// namespace): an org administrator or an administrator of that namespace.
// Lowering an existing agent's audit mode is an Owner's approval, never an
// apply. Pure.
import type { Principal } from '../auth/principal.ts';
import { loweredAuditMode } from '../agents/audit-mode.ts';
import { ownerCount, type PlatformAgent } from '../agents/model.ts';
import { can, rolesOf } from '../policy/roles.ts';
import type { Resource } from '../../crds/definitions/validate.ts';

export interface Refusal {
  status: 403 | 422;
  code: string;
  detail: string;
}

const ns = (r: Resource): string => String(r.metadata.namespace ?? '');
const ref = (r: Resource): string => `${r.kind} ${ns(r)}/${String(r.metadata.name ?? '')}`;

function agentRefusal(p: Principal, r: Resource, live: PlatformAgent | undefined): Refusal | undefined {
  if (live) {
    const roles = rolesOf(p, { namespace: ns(r), owners: live.spec.owners ?? [] });
    if (roles.has('owner')) return undefined;
    return { status: 403, code: 'forbidden', detail: `${ref(r)} exists: only its Owners may apply it` };
  }
  if (!can(p, 'agent.create', { namespace: ns(r) })) {
    const detail = `${ref(r)} is new: creating agents in ${ns(r)} needs a workspace or org administrator`;
    return { status: 403, code: 'forbidden', detail };
  }
  const spec = r.spec as PlatformAgent['spec'];
  if (ownerCount(spec.owners) > 0) return undefined;
  const detail = `${ref(r)}: spec.owners needs at least one entry with role Owner`;
  return { status: 422, code: 'owner_required', detail };
}

/** Why `p` may not apply `r` (`live`: the agent as stored, for a PlatformAgent), or undefined. */
export function applyRefusal(
  p: Principal,
  r: Resource,
  live: PlatformAgent | undefined,
): Refusal | undefined {
  if (r.kind === 'PlatformAgent') return agentRefusal(p, r, live);
  const roles = rolesOf(p, { namespace: ns(r) });
  if (roles.has('org_admin') || roles.has('workspace_admin')) return undefined;
  return {
    status: 403,
    code: 'forbidden',
    detail: `${ref(r)}: applying a ${r.kind} needs an org administrator or an administrator of namespace ${ns(r)}`,
  };
}

/** The refusal of an apply that would lower an existing agent's audit mode (seen in the server's dry run). */
export function auditModeRefusal(
  r: Resource,
  live: PlatformAgent | undefined,
  preview: PlatformAgent | undefined,
): Refusal | undefined {
  if (r.kind !== 'PlatformAgent' || !live || !preview) return undefined;
  const lowered = loweredAuditMode(live.spec, preview.spec);
  if (!lowered) return undefined;
  return {
    status: 422,
    code: 'approval_required',
    detail: `${ref(r)}: spec.auditMode: lowering it from ${lowered.from} to ${lowered.to} needs an Owner's approval; change it with PATCH /v1/agents/{agent_id} (or on the agent's page), not by applying a file`,
  };
}
