// What an MCP tool install routes, pure: the service a catalog app names
// (decision 154) and the CredentialRoutingRules of steps 2 and 3 for the
// server's host. Which credential a tier enforces (step 2) is the credential
// cascade's to say (api/scoped/credential-cascade.ts).
import type { AppCatalogEntry } from '../../crds/generated/types.ts';

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
