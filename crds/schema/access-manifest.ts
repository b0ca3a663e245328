// The Access Manifest (spec "Access Manifest"; decisions 139, 140): five
// domains on an Organization, narrowed by a PlatformWorkspace. In every
// domain an `allowed…` list, when present, is the whole of what is allowed
// (empty: nothing); absent, that tier does not restrict; `denied…` always wins.
import type { JSONSchema } from '../kit.ts';
import { HIGH_RISK_ACTIONS } from './enums.ts';
import { HOST_PATTERN, ID_PATTERN, bool, duration, listMap, obj, str, stringSet } from './parts.ts';

const name = (): JSONSchema => str({ minLength: 1, maxLength: 253 });
const names = (): JSONSchema => stringSet(name(), 128);
const host = (): JSONSchema => str({ minLength: 1, maxLength: 253, pattern: HOST_PATTERN });

/** Per service: which OAuth scopes may be delegated, for how long, and whether a consent card is asked. */
const serviceTerms = obj(
  {
    service: name(),
    allowedScopes: names(),
    deniedScopes: names(),
    maxDelegationTtl: duration(),
    consentRequired: bool({ default: true }),
  },
  ['service'],
);

export const accessManifest = (): JSONSchema =>
  obj(
    {
      account: obj({ services: listMap(serviceTerms, 'service', 128) }, [], {
        description: 'OBO delegation per service; a service not listed is not delegated at all.',
      }),
      tools: obj(
        {
          allowed: stringSet(str({ maxLength: 253, minLength: 1 }), 128),
          denied: stringSet(str({ maxLength: 253, minLength: 1 }), 128),
        },
        [],
        {
          description:
            'Catalog apps (MCP servers, A2A agents, skills, runtimes) an agent may install; auditors are never refused.',
        },
      ),
      network: obj({ allowedHosts: stringSet(host(), 128), deniedHosts: stringSet(host(), 128) }, [], {
        description:
          'Destinations the credential proxy may reach for the agent (`*.example.com` for subdomains).',
      }),
      data: obj(
        {
          allowedClasses: stringSet(str({ maxLength: 63, pattern: ID_PATTERN }), 64),
          deniedClasses: stringSet(str({ maxLength: 63, pattern: ID_PATTERN }), 64),
        },
        [],
        {
          description:
            'Data classes (e.g. pii, financial, source-code) the agent may read; never more than its owners.',
        },
      ),
      actions: obj(
        {
          approvalRequired: stringSet(str({ maxLength: 63, pattern: ID_PATTERN }), 64),
          denied: stringSet(str({ maxLength: 63, pattern: ID_PATTERN }), 64),
        },
        [],
        {
          description: `Actions needing an Owner's approval beyond the fixed high-risk ones (${HIGH_RISK_ACTIONS.join(', ')}), and actions never allowed.`,
        },
      ),
    },
    [],
    {
      description:
        'Access Manifest (decisions 139, 140): a workspace narrows its organization, never widens it.',
    },
  );
