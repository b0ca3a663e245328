// The API-key authenticator over the key store.
import type { ApiKeyStore } from './key-store.ts';
import type { Authenticator } from './principal.ts';

export function apiKeyAuthenticator(store: ApiKeyStore): Authenticator {
  return {
    name: 'api_key',
    async authenticate(token) {
      const check = await store.check(token);
      if (!check) return undefined;
      if ('reject' in check) return check;
      const r = check.record;
      return {
        principal: {
          subject: r.subject,
          method: 'api_key',
          keyId: r.id,
          orgAdmin: r.role === 'org_admin',
          workspaceAdminOf: r.role === 'workspace_admin' ? r.workspaces : [],
          ...(r.role === 'gateway'
            ? { gateway: true, gatewayWorkspaces: r.workspaces, gatewayAgents: r.agents ?? [] }
            : {}),
        },
      };
    },
  };
}
