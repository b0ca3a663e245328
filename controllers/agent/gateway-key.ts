// The agent's own Gateway API key, pure: a `gateway`-role key limited to the
// agent's namespace and bound to its agent id, so a leaked key submits
// Evidence for this one agent only. Its record (the hash, never the key) is a
// Secret in the Verifier's key namespace, written in the API key store's own
// format (api/auth/key-store.ts), so the API authenticates it like any key;
// the raw key is a Secret beside the agent, owned by it, that the pod names
// for the webhook (`platform.computing/api-key-secret`). The record is in
// another namespace, where owner references cannot reach: a finalizer on the
// agent removes it (`gateway-keys.ts`).
import type * as k8s from '@kubernetes/client-node';
import type { MintedKey } from '../../api/auth/api-key-format.ts';
import { keyRecordSecret, type StoredKey } from '../../api/auth/key-store.ts';
import { ownerReference } from '../common/meta.ts';
import { ownedLabels } from './pod.ts';
import { AGENT_API_VERSION, AGENT_KIND, ownedNames, type PlatformAgent } from './types.ts';
import { ANNOTATION, FINALIZER, LABEL, MANAGED_BY, SECRET_KEY } from '../../contract/kube.ts';
import { agentIdOf } from '../../contract/agent-id.ts';

export const gatewayKeySecretName = (agent: PlatformAgent): string =>
  ownedNames(agent.metadata.name ?? '').gatewayKey;

/** The selector of every key record minted for this agent. */
export const recordSelector = (agent: PlatformAgent): string =>
  `${LABEL.agentUid}=${agent.metadata.uid ?? ''}`;

/** The key record for the Verifier's key namespace and the agent's Secret holding the key. */
export function gatewayKeyObjects(
  agent: PlatformAgent,
  minted: MintedKey,
  keyNamespace: string,
  now: Date,
): { record: k8s.V1Secret; secret: k8s.V1Secret } {
  const id = agentIdOf(agent);
  const stored: StoredKey = {
    id: minted.id,
    sha256: minted.sha256,
    subject: `gateway:${id}`,
    role: 'gateway',
    workspaces: [agent.metadata.namespace ?? ''],
    agents: [id],
    description: `Gateway key of agent ${id}, minted by the operator`,
    createdBy: 'platform-operator',
    createdAt: now.toISOString(),
  };
  const record = keyRecordSecret(stored, keyNamespace, {
    [LABEL.managedBy]: MANAGED_BY,
    [LABEL.agentUid]: agent.metadata.uid ?? '',
  });
  const secret: k8s.V1Secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name: gatewayKeySecretName(agent),
      namespace: agent.metadata.namespace,
      labels: ownedLabels(agent),
      annotations: { [ANNOTATION.apiKeyId]: minted.id },
      ownerReferences: [
        ownerReference({ apiVersion: AGENT_API_VERSION, kind: AGENT_KIND, metadata: agent.metadata }),
      ],
    },
    stringData: { [SECRET_KEY.apiKey]: minted.key },
  };
  return { record, secret };
}

/** A JSON patch adding the finalizer (no resourceVersion: it never drops another finalizer). */
export function addFinalizerPatch(agent: PlatformAgent): object[] | undefined {
  const finalizers = agent.metadata.finalizers;
  if (finalizers?.includes(FINALIZER.gatewayKey)) return undefined;
  return finalizers
    ? [{ op: 'add', path: '/metadata/finalizers/-', value: FINALIZER.gatewayKey }]
    : [{ op: 'add', path: '/metadata/finalizers', value: [FINALIZER.gatewayKey] }];
}

/** A JSON patch removing the finalizer, guarded by a test of its position. */
export function removeFinalizerPatch(agent: PlatformAgent): object[] | undefined {
  const i = (agent.metadata.finalizers ?? []).indexOf(FINALIZER.gatewayKey);
  if (i < 0) return undefined;
  const path = `/metadata/finalizers/${i}`;
  return [
    { op: 'test', path, value: FINALIZER.gatewayKey },
    { op: 'remove', path },
  ];
}
