// An install of a catalog app on an agent, pure: the AgentInstalledApp the
// install API writes (owned by the agent, so it goes with it) and the record
// the API shows for it.
import type { AgentInstalledApp, PlatformAgent } from '../../crds/generated/types.ts';
import { formatAgentId } from '../../contract/agent-id.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';
import { installName, mcpMetadataView, type CatalogApp, type McpMetadata } from './entries.ts';
import type { InstallAuth } from './install-flow.ts';
import { redactSecrets } from './secret-config.ts';

/** The install body: which app, and the agent's configuration overrides. */
export interface InstallBody {
  app_id: string;
  version?: string;
  configuration?: Record<string, unknown>;
}

export const APP_ID = {
  type: 'string',
  minLength: 1,
  maxLength: 253,
  pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$',
};

export const INSTALL_BODY = {
  type: 'object',
  required: ['app_id'],
  additionalProperties: false,
  properties: {
    app_id: APP_ID,
    version: { type: 'string', minLength: 1, maxLength: 63 },
    configuration: { type: 'object', maxProperties: 64 },
  },
};

export const APP_ID_PATTERN = new RegExp(APP_ID.pattern);

/** What a reinstall keeps of the install it replaces (its version, for the replace; labels, annotations). */
function keptMetadata(existing: AgentInstalledApp | undefined): AgentInstalledApp['metadata'] {
  if (!existing) return {};
  const { resourceVersion, labels, annotations } = existing.metadata;
  return { resourceVersion, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) };
}

/** The AgentInstalledApp for `body` on `agent`; over `existing` (same name) when there is one. */
export function installObject(
  agent: PlatformAgent,
  body: InstallBody,
  existing: AgentInstalledApp | undefined,
  auth?: InstallAuth,
): AgentInstalledApp {
  const name = agent.metadata.name ?? '';
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'AgentInstalledApp',
    metadata: {
      ...keptMetadata(existing),
      name: existing?.metadata.name ?? installName(name, body.app_id),
      namespace: agent.metadata.namespace ?? '',
      ownerReferences: [
        {
          apiVersion: `${GROUP}/${VERSION}`,
          kind: 'PlatformAgent',
          name,
          uid: agent.metadata.uid ?? '',
        },
      ],
    },
    spec: {
      agent: name,
      app: body.app_id,
      ...(body.version ? { version: body.version } : {}),
      configuration: body.configuration ?? {},
      ...(auth ? authSpec(auth) : {}),
    },
  };
}

/** The install flow's outcome as spec fields (decision 155); the client secret is never among them. */
function authSpec(a: InstallAuth): Partial<AgentInstalledApp['spec']> {
  return {
    auth: a.auth,
    ...(a.credentialRouting.length > 0 ? { credentialRouting: a.credentialRouting } : {}),
    ...(a.mcpMetadata ? { mcpMetadata: a.mcpMetadata } : {}),
  };
}

export interface InstallRecord {
  agent_id: string;
  app_id: string;
  install_name: string;
  /** The app's display name, type and category; null when the app left the catalog. */
  name: string | null;
  type: string | null;
  category: string | null;
  version: string | null;
  configuration: Record<string, unknown>;
  installed_at: string | null;
  /** How the MCP tool authenticates (install flow steps 2–4); null for other apps. */
  auth: InstallAuthView | null;
  credential_routing: RoutingRuleView[];
  mcp_metadata: McpMetadata | null;
}

export interface InstallAuthView {
  method: 'enforced_credential' | 'client_credentials' | 'connect_required';
  /** `connected` once a credential or client is in place; `connect_required` until a user connects one. */
  status: 'connected' | 'connect_required';
  credential_ref?: string;
  credential_scope?: string;
  client_id?: string;
  token_endpoint?: string;
  registered_at?: string;
  connect_options?: string[];
}

export interface RoutingRuleView {
  destination: string;
  credential_ref?: string;
  injection_method: string;
  ttl?: string;
  approval?: string;
}

type Spec = AgentInstalledApp['spec'];

function authView(auth: Spec['auth']): InstallAuthView | null {
  if (!auth) return null;
  const optional: [keyof InstallAuthView, unknown][] = [
    ['credential_ref', auth.credentialRef],
    ['credential_scope', auth.credentialScope],
    ['client_id', auth.clientId],
    ['token_endpoint', auth.tokenEndpoint],
    ['registered_at', auth.registeredTime],
    ['connect_options', auth.connectOptions],
  ];
  return {
    method: auth.method,
    status: auth.method === 'connect_required' ? 'connect_required' : 'connected',
    ...Object.fromEntries(optional.filter(([, v]) => v !== undefined)),
  };
}

const ruleView = (r: NonNullable<Spec['credentialRouting']>[number]): RoutingRuleView => ({
  destination: r.destination,
  ...(r.credentialRef ? { credential_ref: r.credentialRef } : {}),
  injection_method: r.injectionMethod ?? 'sidecar',
  ...(r.ttl ? { ttl: r.ttl } : {}),
  ...(r.approval ? { approval: r.approval } : {}),
});

/** What the record says of the app itself; nulls when the app left the catalog. */
function appFacts(app: CatalogApp | undefined): Pick<InstallRecord, 'name' | 'type' | 'category'> {
  return app
    ? { name: app.name, type: app.type, category: app.category }
    : { name: null, type: null, category: null };
}

export function installRecord(install: AgentInstalledApp, app: CatalogApp | undefined): InstallRecord {
  const { metadata: meta, spec } = install;
  return {
    agent_id: formatAgentId({ namespace: meta.namespace ?? '', name: spec.agent }),
    app_id: spec.app,
    install_name: meta.name ?? '',
    ...appFacts(app),
    version: spec.version ?? app?.version ?? null,
    // Secrets are refused on install; one written past the API is still never shown.
    configuration: redactSecrets(spec.configuration ?? {}) as Record<string, unknown>,
    installed_at: meta.creationTimestamp ? String(meta.creationTimestamp) : null,
    auth: authView(spec.auth),
    credential_routing: (spec.credentialRouting ?? []).map(ruleView),
    mcp_metadata: mcpMetadataView(spec.mcpMetadata),
  };
}
