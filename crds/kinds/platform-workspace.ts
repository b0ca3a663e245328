// PlatformWorkspace: a multi-agent definition file as stored. Its defaults
// (chain, settings, owners) feed every agent listed under spec.agents.
import { conditionsSchema, type KindDefinition } from '../kit.ts';
import {
  abilities,
  auditorChain,
  auditorSettings,
  baseStatus,
  environment,
  id,
  int,
  listMap,
  obj,
  owners,
  str,
  stringSet,
} from '../schema/parts.ts';
import { PLURAL } from '../../contract/kube.ts';
import { accessManifest } from '../schema/access-manifest.ts';

const workspaceAgent = obj(
  {
    name: str({ maxLength: 63, minLength: 1, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' }),
    model: obj({ id: str({ maxLength: 253, minLength: 1 }) }, ['id']),
    owners: owners(),
    auditorSettings: auditorSettings(),
    abilities: abilities(),
    environment: environment(),
  },
  ['name'],
);

export const platformWorkspace: KindDefinition = {
  kind: 'PlatformWorkspace',
  plural: PLURAL.workspace,
  singular: 'platformworkspace',
  shortNames: ['pws'],
  scope: 'Namespaced',
  scopeReason:
    'A workspace is the tenancy unit: its namespace holds its agents, workspace-tier policies, credentials and tool installs, so namespace RBAC is workspace RBAC.',
  spec: obj({
    displayName: str({ maxLength: 253 }),
    organization: str({ maxLength: 253, description: 'Name of the Organization this workspace belongs to.' }),
    defaults: obj({ auditorChain: auditorChain(), auditorSettings: auditorSettings(), owners: owners() }),
    requiredAuditors: stringSet(id(), 32),
    frameworks: stringSet(id(), 16),
    agents: listMap(workspaceAgent, 'name', 64),
    abilities: abilities(),
    environment: environment(),
    accessManifest: accessManifest(),
  }),
  status: baseStatus(conditionsSchema, { agentCount: int({ minimum: 0 }), chain: stringSet(id(), 64) }),
  printerColumns: [
    { name: 'Organization', type: 'string', jsonPath: '.spec.organization' },
    { name: 'Agents', type: 'integer', jsonPath: '.status.agentCount' },
  ],
};
