// PlatformEnvironment: a model deployment with its auditors (deploymentType
// `model` provisions the model plus auditors as a headless API backend).
import { conditionsSchema, type KindDefinition } from '../kit.ts';
import { DEPLOYMENT_TYPES } from '../schema/enums.ts';
import {
  abilities,
  auditorChain,
  auditorSettings,
  baseStatus,
  environment,
  obj,
  oneOf,
  owners,
  str,
} from '../schema/parts.ts';
import { PLURAL } from '../../contract/kube.ts';

export const platformEnvironment: KindDefinition = {
  kind: 'PlatformEnvironment',
  plural: PLURAL.environment,
  singular: 'platformenvironment',
  shortNames: ['penv'],
  scope: 'Namespaced',
  scopeReason:
    'The model and auditor pods it provisions run in the workspace namespace beside the agents that call them.',
  spec: obj(
    {
      deploymentType: oneOf(DEPLOYMENT_TYPES, 'model'),
      model: obj({ id: str({ maxLength: 253, minLength: 1 }) }, ['id']),
      owners: owners(),
      auditorChain: auditorChain(),
      auditorSettings: auditorSettings(),
      abilities: abilities(),
      environment: environment(),
    },
    ['deploymentType'],
    {
      'x-kubernetes-validations': [
        {
          rule: "self.deploymentType != 'model' || has(self.model)",
          message: 'deploymentType model needs model.id',
        },
      ],
    },
  ),
  status: baseStatus(conditionsSchema, { endpoint: str({ maxLength: 512 }) }),
  printerColumns: [
    { name: 'Type', type: 'string', jsonPath: '.spec.deploymentType' },
    { name: 'Model', type: 'string', jsonPath: '.spec.model.id' },
    { name: 'Endpoint', type: 'string', jsonPath: '.status.endpoint', priority: 1 },
  ],
};
