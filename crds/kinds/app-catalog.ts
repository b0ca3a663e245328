// AppCatalogEntry (the platform-wide catalog) and AgentInstalledApp (one
// install of an entry on one agent, with its configuration overrides).
import { conditionsSchema, type JSONSchema, type KindDefinition } from '../kit.ts';
import {
  APP_CATEGORIES,
  APP_TYPES,
  CONNECT_OPTIONS,
  INSTALL_AUTH_METHODS,
  TRUST_TIERS,
} from '../schema/enums.ts';
import {
  arr,
  credentialRouting,
  secretKeyRef,
  baseStatus,
  digest,
  freeForm,
  id,
  int,
  obj,
  oneOf,
  str,
  stringSet,
  text,
  time,
} from '../schema/parts.ts';
import { PLURAL } from '../../contract/kube.ts';

const CATEGORY_OF_TYPE: Record<(typeof APP_TYPES)[number], (typeof APP_CATEGORIES)[number]> = {
  mcp_server: 'MCP Servers',
  auditor: 'Auditors',
  a2a_agent: 'A2A Agents',
  skill: 'Skills',
  runtime: 'Runtimes',
};
const uri = (): JSONSchema => str({ maxLength: 2048, format: 'uri' });

/** RFC 9728 / RFC 8414 facts about an MCP server's authorization (the spec's `mcp_metadata`). */
const mcpMetadata = (): JSONSchema =>
  obj({
    resource: uri(),
    authorizationServers: arr(uri(), 16),
    scopes: stringSet(str({ maxLength: 253 }), 64),
    resourceIndicators: arr(uri(), 16),
    issuer: uri(),
    tokenEndpoint: uri(),
    registrationEndpoint: uri(),
  });

/** How an install authenticates to its MCP server: the outcome of the install flow (decision 155). */
const installAuth = (): JSONSchema =>
  obj(
    {
      method: oneOf(INSTALL_AUTH_METHODS),
      credentialRef: str({ maxLength: 253, minLength: 1, description: 'The enforced ScopedCredential.' }),
      credentialScope: oneOf(['org', 'workspace']),
      clientId: str({ maxLength: 1024, minLength: 1, description: 'The client id the AS registered.' }),
      clientSecretRef: secretKeyRef(),
      tokenEndpoint: uri(),
      registeredTime: time(),
      connectOptions: stringSet(oneOf(CONNECT_OPTIONS), 4),
    },
    ['method'],
  );

const categoryRule = Object.entries(CATEGORY_OF_TYPE)
  .map(([type, category]) => `(self.type == '${type}' && self.category == '${category}')`)
  .join(' || ');

export const appCatalogEntry: KindDefinition = {
  kind: 'AppCatalogEntry',
  plural: PLURAL.appCatalogEntry,
  singular: 'appcatalogentry',
  shortNames: ['papp'],
  scope: 'Cluster',
  scopeReason: 'There is one catalog for the platform; every workspace installs from it.',
  spec: obj(
    {
      displayName: str({ maxLength: 253, minLength: 1 }),
      description: text({ maxLength: 4096 }),
      category: oneOf(APP_CATEGORIES),
      type: oneOf(APP_TYPES),
      trustTier: oneOf(TRUST_TIERS, 'unverified'),
      version: str({ maxLength: 63 }),
      image: str({ maxLength: 512 }),
      imageDigest: digest(),
      serverUrl: str({ maxLength: 2048, format: 'uri' }),
      auditorId: id(),
      requiredPermissions: stringSet(str({ maxLength: 253 }), 64),
      dataClasses: {
        ...stringSet(id(), 32),
        description:
          'Data classes the app gives the agent access to (e.g. pii, financial, source-code); an agent whose Access Manifest does not permit one cannot install it.',
      },
      auditorRequirements: stringSet(id(), 32),
      service: str({
        maxLength: 253,
        minLength: 1,
        description:
          'The service whose ScopedCredentials serve this app (the install flow, decision 154); the host of serverUrl by default.',
      }),
      mcpMetadata: mcpMetadata(),
    },
    ['displayName', 'category', 'type'],
    {
      'x-kubernetes-validations': [
        {
          rule: categoryRule,
          message: 'category must be the group of the type (mcp_server → MCP Servers, …)',
        },
        {
          rule: "self.type != 'auditor' || has(self.auditorId)",
          message: 'an auditor app names its auditorId',
        },
      ],
    },
  ),
  status: baseStatus(conditionsSchema, { installCount: int({ minimum: 0 }) }),
  printerColumns: [
    { name: 'Type', type: 'string', jsonPath: '.spec.type' },
    { name: 'Trust Tier', type: 'string', jsonPath: '.spec.trustTier' },
    { name: 'Installs', type: 'integer', jsonPath: '.status.installCount' },
  ],
};

export const agentInstalledApp: KindDefinition = {
  kind: 'AgentInstalledApp',
  plural: PLURAL.installedApp,
  singular: 'agentinstalledapp',
  shortNames: ['pinstall'],
  scope: 'Namespaced',
  scopeReason:
    'An install belongs to one agent and lives beside it; as its own kind it is written by the install API without contending for the agent spec applied from definition files.',
  spec: obj(
    {
      agent: str({ maxLength: 253, minLength: 1 }),
      app: str({ maxLength: 253, minLength: 1, description: 'Name of the AppCatalogEntry.' }),
      version: str({ maxLength: 63 }),
      configuration: freeForm(),
      credentialRouting: credentialRouting(),
      mcpMetadata: mcpMetadata(),
      auth: installAuth(),
    },
    ['agent', 'app'],
  ),
  status: baseStatus(conditionsSchema, { installedTime: time(), ready: { type: 'boolean' } }),
  printerColumns: [
    { name: 'Agent', type: 'string', jsonPath: '.spec.agent' },
    { name: 'App', type: 'string', jsonPath: '.spec.app' },
  ],
};
