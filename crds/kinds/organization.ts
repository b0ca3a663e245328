// Organization: the top tier of every cascade. Org-scope defaults, the
// auditors every workspace must run, and compliance frameworks naming the
// auditors each requires.
import { conditionsSchema, type KindDefinition } from '../kit.ts';
import {
  auditorChain,
  auditorSettings,
  baseStatus,
  id,
  listMap,
  obj,
  owners,
  str,
  stringSet,
  text,
} from '../schema/parts.ts';
import { PLURAL } from '../../contract/kube.ts';
import { accessManifest } from '../schema/access-manifest.ts';

const framework = obj(
  {
    name: id(),
    description: text({ maxLength: 4096 }),
    requiredAuditors: stringSet(id(), 32),
  },
  ['name', 'requiredAuditors'],
  {
    'x-kubernetes-validations': [
      {
        rule: 'size(self.requiredAuditors) > 0',
        message: 'a compliance framework names at least one required auditor',
      },
    ],
  },
);

export const organization: KindDefinition = {
  kind: 'Organization',
  plural: PLURAL.organization,
  singular: 'organization',
  shortNames: ['porg'],
  scope: 'Cluster',
  scopeReason:
    'The organisation spans every workspace namespace; only cluster-level RBAC may edit org-tier rules, so a workspace admin cannot loosen them.',
  spec: obj(
    {
      displayName: str({ maxLength: 253 }),
      trustDomain: str({ maxLength: 253, pattern: '^[a-z0-9._-]+$' }),
      homeNamespace: str({
        maxLength: 63,
        pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
        description: 'Namespace holding org-tier AuditorPolicies, ScopedCredentials and ScopedToolInstalls.',
      }),
      defaults: obj({ auditorChain: auditorChain(), auditorSettings: auditorSettings(), owners: owners() }),
      requiredAuditors: stringSet(id(), 32),
      frameworks: listMap(framework, 'name', 16),
      accessManifest: accessManifest(),
    },
    ['homeNamespace'],
  ),
  status: baseStatus(conditionsSchema, { workspaceCount: { type: 'integer', format: 'int64', minimum: 0 } }),
  printerColumns: [
    { name: 'Home', type: 'string', jsonPath: '.spec.homeNamespace' },
    { name: 'Trust Domain', type: 'string', jsonPath: '.spec.trustDomain' },
  ],
};
