// ScopedCredential and ScopedToolInstall: the org → workspace tiers of the
// credential and tool cascades. Org-tier objects live in the Organization's
// home namespace, workspace-tier ones in the workspace namespace.
import { conditionsSchema, type KindDefinition, type JSONSchema } from '../kit.ts';
import { CASCADE_SCOPES, SHARING_MODES, TOOL_ENFORCEMENTS } from '../schema/enums.ts';
import { HOST_PATTERN, baseStatus, obj, oneOf, secretKeyRef, str, stringSet, time } from '../schema/parts.ts';
import { PLURAL } from '../../contract/kube.ts';

const SCOPE_REASON =
  'The Secret holding the material (or the tool install) sits in the same namespace as the object, so no reference crosses namespaces; the tier is the namespace (org home or workspace).';

export const cascadeScope = (): Record<string, JSONSchema> => ({
  scope: oneOf(CASCADE_SCOPES),
  scopeId: str({
    maxLength: 253,
    minLength: 1,
    description: 'Name of the Organization or PlatformWorkspace.',
  }),
});

const AUTH_STATUSES = ['connected', 'expired', 'revoked', 'error', 'pending'] as const;

export const scopedCredential: KindDefinition = {
  kind: 'ScopedCredential',
  plural: PLURAL.credential,
  singular: 'scopedcredential',
  shortNames: ['pcred'],
  scope: 'Namespaced',
  scopeReason: SCOPE_REASON,
  spec: obj(
    {
      ...cascadeScope(),
      service: str({ maxLength: 253, minLength: 1 }),
      type: oneOf(['oauth_token', 'api_key', 'oauth_flow']),
      sharingMode: oneOf(SHARING_MODES, 'inherit'),
      secretRef: secretKeyRef(),
      destinations: stringSet(str({ maxLength: 253, pattern: HOST_PATTERN }), 32),
    },
    ['scope', 'scopeId', 'service', 'type'],
    {
      'x-kubernetes-validations': [
        {
          rule: "self.type == 'oauth_flow' || has(self.secretRef)",
          message: 'oauth_token and api_key need a secretRef',
        },
      ],
    },
  ),
  status: baseStatus(conditionsSchema, { authStatus: oneOf(AUTH_STATUSES), lastRotatedTime: time() }),
  printerColumns: [
    { name: 'Service', type: 'string', jsonPath: '.spec.service' },
    { name: 'Scope', type: 'string', jsonPath: '.spec.scope' },
    { name: 'Sharing', type: 'string', jsonPath: '.spec.sharingMode' },
    { name: 'Auth', type: 'string', jsonPath: '.status.authStatus' },
  ],
};

export const scopedToolInstall: KindDefinition = {
  kind: 'ScopedToolInstall',
  plural: PLURAL.toolInstall,
  singular: 'scopedtoolinstall',
  shortNames: ['ptool'],
  scope: 'Namespaced',
  scopeReason: SCOPE_REASON,
  spec: obj(
    {
      ...cascadeScope(),
      tool: str({ maxLength: 253, minLength: 1, description: 'The MCP tool (catalog entry name).' }),
      service: str({ maxLength: 253 }),
      serverUrl: str({ maxLength: 2048, format: 'uri' }),
      enforcement: oneOf(TOOL_ENFORCEMENTS, 'available'),
      credentialRef: str({ maxLength: 253, minLength: 1 }),
    },
    ['scope', 'scopeId', 'tool'],
    {
      'x-kubernetes-validations': [
        {
          rule: "self.enforcement != 'blocked' || !has(self.credentialRef)",
          message: 'a blocked tool carries no credentialRef',
        },
      ],
    },
  ),
  status: baseStatus(conditionsSchema, { authStatus: oneOf(AUTH_STATUSES) }),
  printerColumns: [
    { name: 'Tool', type: 'string', jsonPath: '.spec.tool' },
    { name: 'Scope', type: 'string', jsonPath: '.spec.scope' },
    { name: 'Enforcement', type: 'string', jsonPath: '.spec.enforcement' },
  ],
};
