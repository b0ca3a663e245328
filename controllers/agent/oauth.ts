// The agent's OAuth client record, registered on creation for the platform's
// token endpoint: the client id (also in status) and a random client secret,
// envelope-encrypted (base/crypto/envelope.ts) with the Secret's
// `<namespace>/<name>/client_secret` as context, so a record copied into
// another Secret does not decrypt.
import { randomBytes } from 'node:crypto';
import type * as k8s from '@kubernetes/client-node';
import { encrypt, type Keyring } from '../../base/crypto/envelope.ts';
import { ownerReference } from '../common/meta.ts';
import { ownedLabels } from './pod.ts';
import { AGENT_API_VERSION, AGENT_KIND, ownedNames, type PlatformAgent } from './types.ts';
import { ANNOTATION } from '../../contract/kube.ts';
import { agentIdOf } from '../../contract/agent-id.ts';

export const CLIENT_ID_KEY = 'client_id';
export const CLIENT_SECRET_KEY = 'client_secret';

/** Unique per incarnation of the agent: a re-created agent of the same name gets a new client. */
export function oauthClientId(agent: PlatformAgent): string {
  return `${agentIdOf(agent)}.${(agent.metadata.uid ?? '').replace(/-/g, '').slice(0, 12)}`;
}

export function secretContext(namespace: string, secretName: string): string {
  return `${namespace}/${secretName}/${CLIENT_SECRET_KEY}`;
}

export function oauthClientSecret(agent: PlatformAgent, keyring: Keyring): k8s.V1Secret {
  const name = ownedNames(agent.metadata.name ?? '').secret;
  const namespace = agent.metadata.namespace ?? '';
  const clientId = oauthClientId(agent);
  const plaintext = randomBytes(32).toString('base64url');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name,
      namespace,
      labels: ownedLabels(agent),
      annotations: { [ANNOTATION.oauthClientId]: clientId },
      ownerReferences: [
        ownerReference({ apiVersion: AGENT_API_VERSION, kind: AGENT_KIND, metadata: agent.metadata }),
      ],
    },
    stringData: {
      [CLIENT_ID_KEY]: clientId,
      [CLIENT_SECRET_KEY]: encrypt(keyring, plaintext, secretContext(namespace, name)),
    },
  };
}
