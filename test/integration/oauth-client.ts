// An agent as an OAuth client of the API under test: its status given the
// SPIFFE ID and OAuth client id the operator would write, and JWT-SVIDs
// signed with the trust-domain key the API keeps in its namespace.
import { issueJwtSvid } from '../../base/identity/jwt-svid.ts';
import { maintainTrustKeys } from '../../base/identity/key-secret.ts';
import { signingKeyOf, type SigningKey } from '../../base/identity/trust-keys.ts';
import { agentSpiffeId } from '../../base/identity/spiffe-id.ts';
import { k8s } from '../../base/kube.ts';
import { trustKeyPolicy } from '../../api/identity/trust-bundle.ts';
import { DEFAULT_NAME, GROUP, VERSION } from '../../contract/kube.ts';
import type { ApiFixture } from './api-harness.ts';
import { kubeConfig } from './harness.ts';

export const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const JWT_SPIFFE = 'urn:ietf:params:oauth:client-assertion-type:jwt-spiffe';

export async function trustKey(namespace: string, trustDomain: string): Promise<SigningKey> {
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  const secret = { namespace, name: DEFAULT_NAME.trustKeySecret };
  const keys = await maintainTrustKeys(core, secret, trustKeyPolicy(trustDomain, 720 * 3_600_000));
  return (await signingKeyOf(keys))!;
}

/** Writes the identity status of agent `id` and waits until the API's cache has it; its SPIFFE ID. */
export async function makeClient(
  fx: ApiFixture,
  id: string,
  trustDomain: string,
  clientId = `${id}.c1`,
): Promise<string> {
  const [namespace = '', name = ''] = [id.slice(0, id.indexOf('.')), id.slice(id.indexOf('.') + 1)];
  const spiffeId = agentSpiffeId(trustDomain, id);
  const custom = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  await custom.patchNamespacedCustomObjectStatus(
    {
      group: GROUP,
      version: VERSION,
      plural: 'platformagents',
      namespace,
      name,
      body: { status: { spiffeId, oauthClientId: clientId } },
    },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  await fx.until(`/v1/agents/${id}`, (g) => JSON.stringify(g.body).includes(clientId));
  return spiffeId;
}

export const svid = (spiffeId: string, audience: string, key: SigningKey, now?: number): Promise<string> =>
  issueJwtSvid({ spiffeId, audience, ttlSeconds: 60, key, ...(now !== undefined ? { now } : {}) });

export const form = (params: Record<string, string>): string => new URLSearchParams(params).toString();
export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
