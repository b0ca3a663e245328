// The share dialog: list, add or change, remove. Editors manage Editors and
// Viewers; a change that grants or takes the Owner role needs an Owner or an
// administrator. Removing the last Owner is allowed: the controller then
// suspends the agent (condition OwnersMissing) — the API only edits owners.
import {
  ownerCount,
  removeShare,
  setShare,
  touchesOwner,
  type PlatformAgent,
  type ShareRole,
} from '../agents/model.ts';
import { mutateAgent } from '../agents/mutate.ts';
import { badRequest, forbidden } from '../../base/http-error.ts';
import { validateKind } from '../http/validate.ts';
import { can } from '../policy/roles.ts';
import { bodyOf, type RouteCtx, type RouteSpec } from './route.ts';
import { SHARE_LIST } from './responses.ts';

const SHARE_BODY = {
  type: 'object',
  required: ['subject', 'role'],
  additionalProperties: false,
  properties: {
    subject: { type: 'string', minLength: 1, maxLength: 256, pattern: '^[^\\s]+$' },
    role: { enum: ['Owner', 'Editor', 'Viewer'] },
  },
};

function sharesView(a: PlatformAgent): Record<string, unknown> {
  const shares = a.spec.owners ?? [];
  return {
    agent_id: `${a.metadata.namespace}.${a.metadata.name}`,
    shares,
    owners: ownerCount(shares),
    suspended_for_owners: ownerCount(shares) === 0,
  };
}

function assertMayTouch(rc: RouteCtx, fresh: PlatformAgent, subject: string, role?: ShareRole): void {
  const ref = { namespace: fresh.metadata.namespace ?? '', owners: fresh.spec.owners ?? [] };
  const action = touchesOwner(fresh.spec.owners, subject, role)
    ? 'agent.shares.write_owner'
    : 'agent.shares.write';
  if (!can(rc.principal, action, ref)) {
    throw forbidden(
      action === 'agent.shares.write_owner'
        ? 'only an Owner or an administrator grants or removes the Owner role'
        : 'changing shares needs an Editor, Owner or administrator',
    );
  }
}

async function add(rc: RouteCtx): Promise<unknown> {
  const { subject, role } = bodyOf<{ subject: string; role: ShareRole }>(rc);
  const stored = await mutateAgent(rc.deps.writer, rc.agent as PlatformAgent, (fresh) => {
    assertMayTouch(rc, fresh, subject, role);
    if (fresh.spec.owners?.some((o) => o.subject === subject && o.role === role)) return undefined;
    fresh.spec.owners = setShare(fresh.spec.owners, subject, role);
    return validateKind<PlatformAgent>(fresh, 'agent');
  });
  rc.audit.details = { subject, role };
  return sharesView(stored);
}

async function remove(rc: RouteCtx): Promise<unknown> {
  const subject = rc.params.subject ?? '';
  if (subject === '' || subject.length > 256) throw badRequest('invalid subject');
  const stored = await mutateAgent(rc.deps.writer, rc.agent as PlatformAgent, (fresh) => {
    assertMayTouch(rc, fresh, subject);
    fresh.spec.owners = removeShare(fresh.spec.owners, subject);
    return fresh;
  });
  rc.audit.details = { subject, removed: true, ownersLeft: ownerCount(stored.spec.owners) };
  return sharesView(stored);
}

const SHARES = '/v1/agents/{agent_id}/shares';

export const SHARE_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: SHARES,
    action: 'agent.shares.read',
    summary: 'Who the agent is shared with',
    success: 200,
    response: SHARE_LIST,
    handle: (rc) => Promise.resolve(sharesView(rc.agent as PlatformAgent)),
  },
  {
    method: 'POST',
    path: SHARES,
    action: 'agent.shares.write',
    summary: 'Share with a subject or change its role',
    success: 200,
    response: SHARE_LIST,
    body: SHARE_BODY,
    handle: add,
  },
  {
    method: 'DELETE',
    path: `${SHARES}/{subject}`,
    action: 'agent.shares.write',
    summary: 'Remove a share (the last Owner’s removal suspends the agent)',
    success: 200,
    response: SHARE_LIST,
    handle: remove,
  },
];
