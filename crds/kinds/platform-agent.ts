// PlatformAgent: one AI agent, its owners, its model, its auditor settings and
// its abilities. The controller reconciles it into a pod; an agent without an
// Owner is stored and suspended, never rejected (no rule requires an Owner).
import { conditionsSchema, type KindDefinition } from '../kit.ts';
import { AGENT_PHASES, AUDIT_MODES, TRUST_TIERS } from '../schema/enums.ts';
import {
  SPIFFE_ID_PATTERN,
  abilities,
  auditorChain,
  auditorSettings,
  baseStatus,
  bool,
  environment,
  id,
  int,
  listMap,
  mapOf,
  obj,
  oneOf,
  owners,
  str,
  stringSet,
  time,
} from '../schema/parts.ts';
import { PLURAL } from '../../contract/kube.ts';

/** Most MCP tools or A2A connections a status lists (the controller lists the first, by name). */
export const STATUS_LIST_MAX = 128;

export const platformAgent: KindDefinition = {
  kind: 'PlatformAgent',
  plural: PLURAL.agent,
  singular: 'platformagent',
  shortNames: ['pagent'],
  scope: 'Namespaced',
  scopeReason: 'An agent lives in its workspace namespace with its pod, ServiceAccount and Secrets.',
  spec: obj({
    owners: owners(),
    model: obj({ id: str({ maxLength: 253, minLength: 1 }) }, ['id']),
    workspace: str({ maxLength: 253, description: 'The PlatformWorkspace this agent belongs to, if any.' }),
    email: str({ maxLength: 254, format: 'email' }),
    handle: str({ maxLength: 63, pattern: '^[a-z0-9]([-._a-z0-9]{0,61}[a-z0-9])?$' }),
    image: str({ maxLength: 512 }),
    auditMode: oneOf(AUDIT_MODES, 'enforce'),
    suspend: bool({ description: 'Set by the suspend operation; cleared by reactivate.' }),
    auditorChain: auditorChain(),
    auditorSettings: auditorSettings(),
    frameworks: stringSet(id(), 16),
    abilities: abilities(),
    environment: environment(),
  }),
  status: baseStatus(conditionsSchema, {
    phase: oneOf(AGENT_PHASES),
    trustTier: oneOf(TRUST_TIERS),
    spiffeId: str({ maxLength: 512, pattern: SPIFFE_ID_PATTERN }),
    oauthClientId: str({ maxLength: 253 }),
    email: str({ maxLength: 254, format: 'email' }),
    handle: str({ maxLength: 63 }),
    ownerCount: int({ minimum: 0 }),
    lastActivityTime: time(),
    chain: stringSet(id(), 64),
    passport: obj({
      owners: stringSet(str({ maxLength: 256 }), 64),
      trustTiers: mapOf(oneOf(TRUST_TIERS), 64),
      lastAttestationTime: time(),
      accessCount: int({ minimum: 0 }),
    }),
    // What the agent's installed apps and its tiers' required tools connect it to (decision 126).
    tools: listMap(
      obj(
        {
          name: str({ maxLength: 253, minLength: 1 }),
          serverUrl: str({ maxLength: 2048 }),
          source: oneOf(['app', 'org', 'workspace']),
          app: str({ maxLength: 253 }),
        },
        ['name', 'source'],
      ),
      'name',
      STATUS_LIST_MAX,
    ),
    a2aConnections: listMap(
      obj(
        {
          name: str({ maxLength: 253, minLength: 1 }),
          app: str({ maxLength: 253 }),
          url: str({ maxLength: 2048 }),
        },
        ['name', 'app'],
      ),
      'name',
      STATUS_LIST_MAX,
    ),
  }),
  printerColumns: [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    {
      name: 'Owner',
      type: 'string',
      jsonPath: '.spec.owners[?(@.role=="Owner")].subject',
      description: 'First Owner',
    },
    { name: 'Owners', type: 'integer', jsonPath: '.status.ownerCount' },
    { name: 'Trust Tier', type: 'string', jsonPath: '.status.trustTier' },
    { name: 'Model', type: 'string', jsonPath: '.spec.model.id', priority: 1 },
  ],
};
