// The agent's SVIDs as a Secret beside it, pure: what the Secret holds (a
// JWT-SVID for the authorization server, an X.509-SVID and its key, the trust
// bundle), and when it is due again: at half its life, at once when missing,
// for another SPIFFE ID, or signed by a key that is no longer current. The
// webhook mounts it into the platform sidecars only (decision 141).
import type * as k8s from '@kubernetes/client-node';
import { ownerReference } from '../common/meta.ts';
import { ownedLabels } from '../agent/pod.ts';
import { AGENT_API_VERSION, AGENT_KIND, ownedNames, type PlatformAgent } from '../agent/types.ts';
import { ANNOTATION, SVID_FILE } from '../../contract/kube.ts';

export { SVID_FILE };

export interface SvidPolicy {
  /** JWT-SVID and X.509-SVID lifetime. */
  ttlSeconds: number;
  /** The JWT-SVID's audience: the authorization server's issuer. */
  audience: string;
}

export const svidSecretName = (agent: PlatformAgent): string => ownedNames(agent.metadata.name ?? '').svid;

/** What the Secret should be signed as: the agent's SPIFFE ID and the current key id. */
export interface SvidIdentity {
  spiffeId: string;
  keyId: string;
}

/** Milliseconds since the epoch when the Secret is due again; 0: now. */
export function svidRenewalAt(
  secret: k8s.V1Secret | undefined,
  want: SvidIdentity,
  policy: SvidPolicy,
): number {
  const a = secret?.metadata?.annotations ?? {};
  if (a[ANNOTATION.svidSpiffeId] !== want.spiffeId || a[ANNOTATION.svidKeyId] !== want.keyId) return 0;
  const expires = Date.parse(a[ANNOTATION.svidExpires] ?? '');
  if (!Number.isFinite(expires)) return 0;
  return expires - (policy.ttlSeconds * 1000) / 2;
}

export interface SvidMaterial {
  jwt: string;
  certPem: string;
  keyPem: string;
  bundlePem: string;
  jwks: string;
  expires: Date;
}

export function svidSecret(agent: PlatformAgent, want: SvidIdentity, m: SvidMaterial): k8s.V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name: svidSecretName(agent),
      namespace: agent.metadata.namespace,
      labels: ownedLabels(agent),
      annotations: {
        [ANNOTATION.svidExpires]: m.expires.toISOString(),
        [ANNOTATION.svidSpiffeId]: want.spiffeId,
        [ANNOTATION.svidKeyId]: want.keyId,
      },
      ownerReferences: [
        ownerReference({ apiVersion: AGENT_API_VERSION, kind: AGENT_KIND, metadata: agent.metadata }),
      ],
    },
    stringData: {
      [SVID_FILE.jwt]: m.jwt,
      [SVID_FILE.cert]: m.certPem,
      [SVID_FILE.key]: m.keyPem,
      [SVID_FILE.bundle]: m.bundlePem,
      [SVID_FILE.jwks]: m.jwks,
    },
  };
}

/** What `CredentialsReady` says once the OAuth client exists: whether that client obtained a token with its SVID. */
export function credentialsCondition(
  clientId: string,
  svid: k8s.V1Secret | undefined,
): { type: 'CredentialsReady'; status: 'True' | 'False'; reason: string; message: string } {
  const type = 'CredentialsReady';
  const a = svid?.metadata?.annotations ?? {};
  const check = a[ANNOTATION.tokenCheck];
  if (!svid || !check)
    return {
      type,
      status: 'False',
      reason: 'SvidPending',
      message: `OAuth client ${clientId}: waiting for its SVID and a first token`,
    };
  if (check !== 'ok')
    return {
      type,
      status: 'False',
      reason: 'TokenRefused',
      message: `OAuth client ${clientId} could not obtain a token with its SVID: ${check.slice(0, 200)}`,
    };
  return {
    type,
    status: 'True',
    reason: 'TokenObtained',
    message: `OAuth client ${clientId} obtained a client_credentials token with its SVID at ${a[ANNOTATION.tokenCheckTime] ?? 'an unknown time'}`,
  };
}
