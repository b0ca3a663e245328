// DelegationGrant and ConsentRequest: on-behalf-of delegation. A consent
// request is resolved once (Allow, Deny, Customize); Allow creates a grant
// with a TTL-bounded lifetime that owners can revoke at any time.
import { conditionsSchema, type KindDefinition } from '../kit.ts';
import { CONSENT_PHASES, CONSENT_RESOLUTIONS, GRANT_PHASES } from '../schema/enums.ts';
import { baseStatus, duration, obj, oneOf, str, stringSet, text, time } from '../schema/parts.ts';
import { PLURAL } from '../../contract/kube.ts';

const SCOPE_REASON =
  'It belongs to one agent and lives beside it, so deleting the agent (or its namespace) removes it.';
const subject = () => str({ maxLength: 256, minLength: 1 });
const agentName = () => str({ maxLength: 253, minLength: 1, description: 'Name of the PlatformAgent.' });
const scopes = () => stringSet(str({ maxLength: 253, minLength: 1 }), 64);

export const delegationGrant: KindDefinition = {
  kind: 'DelegationGrant',
  plural: PLURAL.grant,
  singular: 'delegationgrant',
  shortNames: ['pgrant'],
  scope: 'Namespaced',
  scopeReason: SCOPE_REASON,
  spec: obj(
    {
      user: subject(),
      agent: agentName(),
      service: str({ maxLength: 253, minLength: 1 }),
      scopes: scopes(),
      ttl: duration(),
      grantedAt: time(),
      expiresAt: time(),
      consentRef: str({ maxLength: 253 }),
    },
    ['user', 'agent', 'service', 'scopes', 'grantedAt', 'expiresAt'],
    {
      'x-kubernetes-validations': [
        { rule: 'size(self.scopes) > 0', message: 'a grant delegates at least one scope' },
        {
          rule: 'timestamp(self.expiresAt) > timestamp(self.grantedAt)',
          message: 'expiresAt must be after grantedAt',
        },
      ],
    },
  ),
  status: baseStatus(conditionsSchema, {
    phase: oneOf(GRANT_PHASES),
    revokedTime: time(),
    revokedBy: subject(),
  }),
  printerColumns: [
    { name: 'Agent', type: 'string', jsonPath: '.spec.agent' },
    { name: 'User', type: 'string', jsonPath: '.spec.user' },
    { name: 'Service', type: 'string', jsonPath: '.spec.service' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Expires', type: 'date', jsonPath: '.spec.expiresAt' },
  ],
};

const consentStatus = baseStatus(conditionsSchema, {
  phase: oneOf(CONSENT_PHASES),
  resolution: oneOf(CONSENT_RESOLUTIONS),
  resolvedBy: subject(),
  resolvedTime: time(),
  grantRef: str({ maxLength: 253 }),
});
consentStatus['x-kubernetes-validations'] = [
  {
    rule: "has(self.resolution) == (has(self.phase) && self.phase == 'resolved')",
    message: 'a resolution is set exactly when the phase is resolved',
  },
  {
    rule: "!has(oldSelf.phase) || oldSelf.phase != 'resolved' || (has(self.phase) && self.phase == 'resolved' && self.resolution == oldSelf.resolution)",
    message: 'a consent request resolves once',
  },
];

export const consentRequest: KindDefinition = {
  kind: 'ConsentRequest',
  plural: PLURAL.consent,
  singular: 'consentrequest',
  shortNames: ['pconsent'],
  scope: 'Namespaced',
  scopeReason: SCOPE_REASON,
  spec: obj(
    {
      user: subject(),
      agent: agentName(),
      service: str({ maxLength: 253, minLength: 1 }),
      scopes: scopes(),
      ttl: duration(),
      reason: text({ maxLength: 4096 }),
    },
    ['user', 'agent', 'service', 'scopes'],
  ),
  status: consentStatus,
  printerColumns: [
    { name: 'Agent', type: 'string', jsonPath: '.spec.agent' },
    { name: 'User', type: 'string', jsonPath: '.spec.user' },
    { name: 'Service', type: 'string', jsonPath: '.spec.service' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Resolution', type: 'string', jsonPath: '.status.resolution' },
  ],
};
