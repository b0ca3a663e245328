// Who is calling: a subject string (CLARIFICATIONS: the OIDC `sub` or email,
// the API key's owner, or `system:serviceaccount:<ns>:<name>`) and the
// administrator grants that came with the credential.
export type AuthMethod = 'api_key' | 'service_account' | 'oidc';

/** `gateway`: a Gateway's PLATFORM_API_KEY; it submits Evidence, reads policies and relays registrations, nothing else. */
export const KEY_ROLES = ['user', 'workspace_admin', 'org_admin', 'gateway'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

export interface Principal {
  subject: string;
  method: AuthMethod;
  orgAdmin: boolean;
  /** Namespaces (workspaces) this principal administers. */
  workspaceAdminOf: readonly string[];
  /** The API key id when authenticated by key. */
  keyId?: string;
  /** A Gateway's key: holds the `gateway` role only. */
  gateway?: boolean;
  /** A Gateway key's workspaces: Evidence only for agents there (empty: any workspace). */
  gatewayWorkspaces?: readonly string[];
  /** A Gateway key's agents (`<namespace>.<name>`): Evidence only for them (empty: any agent). */
  gatewayAgents?: readonly string[];
}

/** A credential check: `undefined` when the token is not of its kind. */
export type AuthResult = { principal: Principal } | { reject: string } | undefined;

export interface Authenticator {
  readonly name: string;
  authenticate(token: string): Promise<AuthResult>;
}

/** Administrator grants configured by subject (for service accounts and OIDC users). */
export interface AdminGrants {
  orgAdmins: readonly string[];
  /** `namespace=subject` pairs. */
  workspaceAdmins: readonly string[];
}

export function grantsFor(
  subject: string,
  grants: AdminGrants,
): Pick<Principal, 'orgAdmin' | 'workspaceAdminOf'> {
  const workspaceAdminOf = grants.workspaceAdmins
    .map((pair) => pair.split('='))
    .filter(([, s]) => s === subject)
    .map(([ns]) => ns as string);
  return { orgAdmin: grants.orgAdmins.includes(subject), workspaceAdminOf };
}
