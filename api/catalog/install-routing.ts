// What an MCP tool install routes, pure: the service a catalog app names
// (decision 154), the `enforce` ScopedCredential of that service at the
// agent's org or workspace tier (step 2 of the install flow), and the
// CredentialRoutingRules of steps 2 and 3 for the server's host.
import type { AppCatalogEntry, ScopedCredential } from '../../crds/generated/types.ts';
import type { ToolTiers } from './tool-cascade.ts';

export interface RoutingRule {
  destination: string;
  credentialRef?: string;
  injectionMethod: 'sidecar' | 'client_credentials';
  approval: 'auto';
}

/** The host of a server URL, lower-case, without port (a CredentialRoutingRule destination). */
export const hostOf = (serverUrl: string): string => new URL(serverUrl).hostname.toLowerCase();

/** The service of an app: `spec.service`, else the host of its server URL; undefined without either. */
export function appService(spec: Pick<AppCatalogEntry['spec'], 'service' | 'serverUrl'>): string | undefined {
  if (spec.service) return spec.service;
  return spec.serverUrl ? hostOf(spec.serverUrl) : undefined;
}

export interface EnforcedCredential {
  name: string;
  scope: 'org' | 'workspace';
}

/** Whether `c` is the tier's own object: its scope, named after the tier, in the tier's namespace. */
function atTier(c: ScopedCredential, tiers: ToolTiers, scope: 'org' | 'workspace'): boolean {
  const tier = tiers[scope];
  return (
    tier !== undefined &&
    c.spec.scope === scope &&
    c.spec.scopeId === tier.name &&
    c.metadata.namespace === tier.namespace
  );
}

/**
 * The `enforce` ScopedCredential for `service` that binds an agent under
 * `tiers`, from the credentials of both tier namespaces; the org's wins over
 * the workspace's (a child scope must use the parent's enforced credential),
 * then the first by name. Credentials of other tiers, services or modes are
 * ignored. The scoped-credential cascade module replaces this at merge.
 */
export function enforcedCredential(
  credentials: readonly ScopedCredential[],
  tiers: ToolTiers,
  service: string,
): EnforcedCredential | undefined {
  const enforced = credentials
    .filter((c) => c.spec.service === service && c.spec.sharingMode === 'enforce')
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  for (const scope of ['org', 'workspace'] as const) {
    const found = enforced.find((c) => atTier(c, tiers, scope));
    if (found) return { name: found.metadata.name ?? '', scope };
  }
  return undefined;
}

/** Step 2: the sidecar injects the enforced credential into requests to the server. */
export const enforcedRule = (serverUrl: string, credentialRef: string): RoutingRule => ({
  destination: hostOf(serverUrl),
  credentialRef,
  injectionMethod: 'sidecar',
  approval: 'auto',
});

/** Step 3: the sidecar obtains a token with the agent's registered client (its SVID as assertion). */
export const clientCredentialsRule = (serverUrl: string): RoutingRule => ({
  destination: hostOf(serverUrl),
  injectionMethod: 'client_credentials',
  approval: 'auto',
});
