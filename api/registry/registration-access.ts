// Who may write which AuditorRegistration (issue 13, finding 1; decision 81).
// An org administrator registers and changes anything. A Gateway key relays
// its auditors' self-registrations: it may create a registration only for its
// own workspaces, never names an image, and may never change where an existing
// registration points (endpoint), how it is reached (auth), its deployment mode,
// image or workspaces,
// because those decide who receives the prompts and what trust tier the
// auditor earns. Pure.
import { isDeepStrictEqual } from 'node:util';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import type { Principal } from '../auth/principal.ts';

type Spec = AuditorRegistration['spec'];

/** Fields only an org administrator changes once a registration exists. */
export const LOCKED_FIELDS = [
  'endpoint',
  'auth',
  'deploymentMode',
  'workspaces',
  'image',
  'imageDigest',
] as const;
export type LockedField = (typeof LOCKED_FIELDS)[number];

/** What the route does with a registration request. */
export type RegistrationVerdict =
  | { kind: 'write' }
  /** Nothing to change that this key may change: answered as registered, nothing written. */
  | { kind: 'acknowledge' }
  | { kind: 'refuse'; detail: string; code: 'forbidden' | 'registration_locked' };

/**
 * The workspaces a Gateway key speaks for: its workspaces plus those of the
 * agents it is bound to; empty when it is not limited (an org-wide Gateway).
 */
export function gatewayScope(principal: Principal): string[] {
  const fromAgents = (principal.gatewayAgents ?? []).map((a) => a.split('.')[0] ?? '');
  return [...new Set([...(principal.gatewayWorkspaces ?? []), ...fromAgents])].filter(Boolean).sort();
}

const scopeText = (workspaces: readonly string[] | undefined): string =>
  workspaces?.length ? `for workspace(s) ${workspaces.join(', ')}` : 'cluster-wide';

/** True when every workspace of `workspaces` is one of `scope` (a cluster-wide registration never is). */
const within = (workspaces: readonly string[] | undefined, scope: readonly string[]): boolean =>
  (workspaces?.length ?? 0) > 0 && (workspaces ?? []).every((w) => scope.includes(w));

/** The locked fields `next` changes relative to `prev` (a sidecar's endpoint is pod-local: never compared). */
export function lockedChanges(prev: Spec, next: Spec): LockedField[] {
  return LOCKED_FIELDS.filter((field) => {
    if (field === 'endpoint' && prev.deploymentMode === 'sidecar') return false;
    const [a, b] =
      field === 'workspaces'
        ? [sorted(prev.workspaces), sorted(next.workspaces)]
        : [prev[field], next[field]];
    return !isDeepStrictEqual(a, b);
  });
}

const sorted = (list: readonly string[] | undefined): string[] => [...(list ?? [])].sort();

/** A Gateway key's new registration: within its workspaces, and never an image. */
function newRegistrationVerdict(principal: Principal, next: Spec): RegistrationVerdict {
  const scope = gatewayScope(principal);
  const id = next.auditorId;
  // What runs inside agent pods is chosen by the people who own the platform, never by a relayed request.
  if (next.image)
    return {
      kind: 'refuse',
      code: 'forbidden',
      detail: `registering ${id} with an image (a sidecar the webhook injects) is for an org administrator`,
    };
  if (scope.length === 0 || within(next.workspaces, scope)) return { kind: 'write' };
  return {
    kind: 'refuse',
    code: 'forbidden',
    detail: `this gateway key registers auditors only for workspace(s) ${scope.join(', ')}; registering ${id} ${scopeText(next.workspaces)} is for an org administrator`,
  };
}

/**
 * Whether `principal` may store `next` (the registration the request
 * describes) over `existing`. Callers only reach this for principals holding
 * `auditor.register` (org admins and Gateway keys).
 */
export function registrationVerdict(
  principal: Principal,
  next: Spec,
  existing: Spec | undefined,
): RegistrationVerdict {
  if (principal.orgAdmin && !principal.gateway) return { kind: 'write' };
  if (!existing) return newRegistrationVerdict(principal, next);
  const id = next.auditorId;
  const changed = lockedChanges(existing, next);
  if (changed.length > 0)
    return {
      kind: 'refuse',
      code: 'registration_locked',
      detail: `auditor ${id} is registered already; a gateway key cannot change its ${changed.join(', ')} (an org administrator can)`,
    };
  const scope = gatewayScope(principal);
  if (scope.length > 0 && !within(existing.workspaces, scope)) return { kind: 'acknowledge' };
  return isDeepStrictEqual(existing, next) ? { kind: 'acknowledge' } : { kind: 'write' };
}

/**
 * The workspaces a new registration is for when the body names none: a
 * limited Gateway key's own workspaces (so an auditor's plain self-registration
 * through its workspace's Gateway just works), else cluster-wide.
 */
export function defaultWorkspaces(principal: Principal): string[] {
  return principal.gateway ? gatewayScope(principal) : [];
}
