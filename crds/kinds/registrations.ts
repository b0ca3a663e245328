// AuditorRegistration and ModelRegistration: self-hosted auditors and models
// known to the platform (sidecar, in-cluster or external), with the trust tier
// their deployment mode earns.
import { conditionsSchema, type KindDefinition, type JSONSchema } from '../kit.ts';
import {
  AUDITOR_CATEGORIES,
  AUTH_TYPES,
  CATALOG_PHASES,
  CLAIM_TYPES,
  DEPLOYMENT_MODES,
  REQUEST_PHASES,
  SETTING_TYPES,
  TRUST_TIERS,
} from '../schema/enums.ts';
import {
  anyValue,
  baseStatus,
  bool,
  digest,
  id,
  int,
  listMap,
  obj,
  oneOf,
  secretKeyRef,
  str,
  stringSet,
  text,
  time,
} from '../schema/parts.ts';
import { PLURAL } from '../../contract/kube.ts';

const SCOPE_REASON =
  'Registered once for the whole platform: it appears in every workspace’s catalog, wizard and settings.';

/** A namespace (workspace) name: a DNS label. */
const workspaceName = (): JSONSchema =>
  str({ maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$' });

const auth = (): JSONSchema =>
  obj({ type: oneOf(AUTH_TYPES), certPem: text({ maxLength: 16384 }), secretRef: secretKeyRef() }, ['type'], {
    'x-kubernetes-validations': [
      { rule: "self.type != 'mtls' || has(self.certPem)", message: 'mtls auth needs certPem' },
      { rule: "self.type != 'api_key' || has(self.secretRef)", message: 'api_key auth needs secretRef' },
    ],
  });

const placement = (): JSONSchema[] => [
  {
    rule: "self.deploymentMode == 'sidecar' ? has(self.image) : has(self.endpoint)",
    message: 'a sidecar needs image; in-cluster and external need endpoint',
  },
  // `none` is allowed and earns `unverified`: the spec's minimal self-registration carries no auth (decision 112).
  {
    rule: "self.deploymentMode != 'external' || has(self.auth)",
    message: 'an external deployment states its auth (mtls, api_key, or none: unverified)',
  },
];

const setting = obj(
  {
    key: str({ maxLength: 63, pattern: '^[a-z][a-z0-9_]*$' }),
    type: oneOf(SETTING_TYPES),
    default: anyValue(),
  },
  ['key', 'type'],
);
const claim = obj(
  {
    name: str({ maxLength: 253, pattern: '^[a-z][a-z0-9_]*([.][a-z][a-z0-9_]*)*$' }),
    type: oneOf(CLAIM_TYPES),
    description: text({ maxLength: 4096 }),
    settings: listMap(setting, 'key', 32),
  },
  ['name', 'type'],
);

const registrationStatus = baseStatus(conditionsSchema, {
  trustTier: oneOf(TRUST_TIERS),
  registered: bool(),
  vocabularySynced: bool(),
  lastHealthTime: time(),
  // The last probe of the endpoint's GET /health (decision 114).
  health: obj({
    status: oneOf(['healthy', 'unhealthy']),
    checkedAt: time(),
    detail: str({ maxLength: 1024 }),
  }),
});

export const auditorRegistration: KindDefinition = {
  kind: 'AuditorRegistration',
  plural: PLURAL.auditor,
  singular: 'auditorregistration',
  shortNames: ['paud'],
  scope: 'Cluster',
  scopeReason: SCOPE_REASON,
  spec: obj(
    {
      auditorId: id(),
      displayName: str({ maxLength: 253 }),
      description: text({ maxLength: 4096 }),
      version: str({ maxLength: 63 }),
      category: oneOf(AUDITOR_CATEGORIES),
      phase: oneOf(CATALOG_PHASES),
      supportedPhases: stringSet(oneOf(REQUEST_PHASES), 4),
      deploymentMode: oneOf(DEPLOYMENT_MODES),
      endpoint: str({ maxLength: 2048, format: 'uri' }),
      image: str({ maxLength: 512 }),
      imageDigest: digest(),
      auth: auth(),
      vocabularyUrl: str({ maxLength: 2048, format: 'uri' }),
      healthCheckIntervalSeconds: int({ minimum: 1, maximum: 3600, default: 30 }),
      defaultPort: int({ minimum: 1, maximum: 65535, default: 8080 }),
      claims: listMap(claim, 'name', 128),
      // The workspaces it was registered for (by their Gateway); absent: cluster-wide (decision 81).
      workspaces: stringSet(workspaceName(), 64),
    },
    ['auditorId', 'category', 'phase', 'deploymentMode'],
    { 'x-kubernetes-validations': placement() },
  ),
  status: registrationStatus,
  validations: [
    { rule: 'self.metadata.name == self.spec.auditorId', message: 'metadata.name must equal spec.auditorId' },
  ],
  printerColumns: [
    { name: 'Category', type: 'string', jsonPath: '.spec.category' },
    { name: 'Phase', type: 'string', jsonPath: '.spec.phase' },
    { name: 'Mode', type: 'string', jsonPath: '.spec.deploymentMode' },
    { name: 'Trust Tier', type: 'string', jsonPath: '.status.trustTier' },
  ],
};

export const modelRegistration: KindDefinition = {
  kind: 'ModelRegistration',
  plural: PLURAL.model,
  singular: 'modelregistration',
  shortNames: ['pmodel'],
  scope: 'Cluster',
  scopeReason: SCOPE_REASON,
  spec: obj(
    {
      modelId: str({ maxLength: 253, minLength: 1 }),
      modelType: oneOf(['chat', 'completion', 'embedding', 'classifier']),
      deploymentMode: oneOf(DEPLOYMENT_MODES),
      endpoint: str({ maxLength: 2048, format: 'uri' }),
      image: str({ maxLength: 512 }),
      imageDigest: digest(),
      auth: auth(),
    },
    ['modelId', 'deploymentMode'],
    { 'x-kubernetes-validations': placement() },
  ),
  status: registrationStatus,
  printerColumns: [
    { name: 'Model', type: 'string', jsonPath: '.spec.modelId' },
    { name: 'Type', type: 'string', jsonPath: '.spec.modelType' },
    { name: 'Mode', type: 'string', jsonPath: '.spec.deploymentMode' },
    { name: 'Trust Tier', type: 'string', jsonPath: '.status.trustTier' },
  ],
};
