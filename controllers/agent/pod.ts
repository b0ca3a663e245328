// The desired agent pod, pure. The spec hash annotation records what was
// built; a pod whose hash differs is replaced (pods are mostly immutable and
// the webhook injects sidecars from the chain annotation at creation).
import type * as k8s from '@kubernetes/client-node';
import { specHash } from '../common/hash.ts';
import {
  AGENT_LABEL,
  AUDIT_MODE_ANNOTATION,
  CHAIN_ANNOTATION,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  SECURED_LABEL,
  SPEC_HASH_ANNOTATION,
  ownerReference,
} from '../common/meta.ts';
import { AGENT_API_VERSION, AGENT_KIND, agentId, ownedNames, type PlatformAgent } from './types.ts';

export interface PodSettings {
  image: string;
  runtimeClassName?: string;
  trustDomain: string;
}

export function ownedLabels(agent: PlatformAgent): Record<string, string> {
  return { [MANAGED_BY_LABEL]: MANAGED_BY, [AGENT_LABEL]: agent.metadata.name ?? '' };
}

export function desiredPod(agent: PlatformAgent, chain: readonly string[], settings: PodSettings): k8s.V1Pod {
  const names = ownedNames(agent.metadata.name ?? '');
  const spec: k8s.V1PodSpec = {
    serviceAccountName: names.serviceAccount,
    containers: [
      {
        name: 'agent',
        image: agent.spec.image ?? settings.image,
        env: [
          { name: 'PLATFORM_AGENT_ID', value: agentId(agent) },
          { name: 'PLATFORM_SPIFFE_ID', value: `spiffe://${settings.trustDomain}/agent/${agentId(agent)}` },
          ...(agent.spec.model?.id ? [{ name: 'PLATFORM_MODEL_ID', value: agent.spec.model.id }] : []),
          ...(agent.spec.workspace ? [{ name: 'PLATFORM_WORKSPACE_ID', value: agent.spec.workspace }] : []),
        ],
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      },
    ],
    ...(settings.runtimeClassName ? { runtimeClassName: settings.runtimeClassName } : {}),
  };
  const annotations = {
    [CHAIN_ANNOTATION]: chain.join(','),
    [AUDIT_MODE_ANNOTATION]: agent.spec.auditMode ?? 'enforce',
  };
  const hash = specHash({ spec, annotations });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: names.pod,
      namespace: agent.metadata.namespace,
      labels: { ...ownedLabels(agent), [SECURED_LABEL]: 'true' },
      annotations: { ...annotations, [SPEC_HASH_ANNOTATION]: hash },
      ownerReferences: [
        ownerReference({ apiVersion: AGENT_API_VERSION, kind: AGENT_KIND, metadata: agent.metadata }),
      ],
    },
    spec,
  };
}

export function desiredServiceAccount(agent: PlatformAgent): k8s.V1ServiceAccount {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {
      name: ownedNames(agent.metadata.name ?? '').serviceAccount,
      namespace: agent.metadata.namespace,
      labels: ownedLabels(agent),
      ownerReferences: [
        ownerReference({ apiVersion: AGENT_API_VERSION, kind: AGENT_KIND, metadata: agent.metadata }),
      ],
    },
  };
}
