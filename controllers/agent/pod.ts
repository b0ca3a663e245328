// The desired agent pod, pure. The spec hash annotation records what was
// built; a pod whose hash differs is replaced (pods are mostly immutable and
// the webhook injects sidecars from the chain annotation at creation). The
// wiring annotations carry what the Gateway and the auditors need (wiring.ts);
// the agent calls its model's real base URL (OPENAI_BASE_URL), which the
// webhook's redirect hands to the Gateway.
import type * as k8s from '@kubernetes/client-node';
import { canonicalize } from '../../base/canonical.ts';
import { specHash } from '../../base/controller/hash.ts';
import { ownerReference } from '../common/meta.ts';
import { AGENT_API_VERSION, AGENT_KIND, ownedNames, type PlatformAgent } from './types.ts';
import type { PodWiring } from './wiring.ts';
import { LABEL, ANNOTATION, MANAGED_BY } from '../../contract/kube.ts';
import { agentIdOf } from '../../contract/agent-id.ts';

export interface PodSettings {
  image: string;
  runtimeClassName?: string;
  trustDomain: string;
}

export function ownedLabels(agent: PlatformAgent): Record<string, string> {
  return { [LABEL.managedBy]: MANAGED_BY, [LABEL.agent]: agent.metadata.name ?? '' };
}

/** The wiring annotations the webhook reads (unset values are left out). */
export function wiringAnnotations(wiring: PodWiring | undefined): Record<string, string> {
  if (!wiring) return {};
  const settings = Object.keys(wiring.auditorSettings).length > 0;
  return {
    [ANNOTATION.workspaceId]: wiring.workspaceId,
    [ANNOTATION.apiKeySecret]: wiring.apiKeySecret,
    ...(wiring.policyId ? { [ANNOTATION.policyId]: wiring.policyId } : {}),
    ...(wiring.modelUrl ? { [ANNOTATION.modelUrl]: wiring.modelUrl } : {}),
    ...(settings ? { [ANNOTATION.auditorSettings]: canonicalize(wiring.auditorSettings) } : {}),
  };
}

function agentEnv(agent: PlatformAgent, settings: PodSettings, wiring?: PodWiring): k8s.V1EnvVar[] {
  const workspace = wiring?.workspaceId ?? agent.spec.workspace;
  return [
    { name: 'PLATFORM_AGENT_ID', value: agentIdOf(agent) },
    { name: 'PLATFORM_SPIFFE_ID', value: `spiffe://${settings.trustDomain}/agent/${agentIdOf(agent)}` },
    ...(agent.spec.model?.id ? [{ name: 'PLATFORM_MODEL_ID', value: agent.spec.model.id }] : []),
    ...(workspace ? [{ name: 'PLATFORM_WORKSPACE_ID', value: workspace }] : []),
    ...(wiring?.modelUrl ? [{ name: 'OPENAI_BASE_URL', value: wiring.modelUrl }] : []),
  ];
}

export function desiredPod(
  agent: PlatformAgent,
  chain: readonly string[],
  settings: PodSettings,
  wiring?: PodWiring,
): k8s.V1Pod {
  const names = ownedNames(agent.metadata.name ?? '');
  const spec: k8s.V1PodSpec = {
    serviceAccountName: names.serviceAccount,
    containers: [
      {
        name: 'agent',
        image: agent.spec.image ?? settings.image,
        env: agentEnv(agent, settings, wiring),
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      },
    ],
    ...(settings.runtimeClassName ? { runtimeClassName: settings.runtimeClassName } : {}),
  };
  const annotations = {
    [ANNOTATION.auditorChain]: chain.join(','),
    [ANNOTATION.auditMode]: agent.spec.auditMode ?? 'enforce',
    // The identity controller's SVID Secret: the webhook mounts it into the platform sidecars only.
    [ANNOTATION.svidSecret]: names.svid,
    ...wiringAnnotations(wiring),
  };
  const hash = specHash({ spec, annotations });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: names.pod,
      namespace: agent.metadata.namespace,
      labels: { ...ownedLabels(agent), [LABEL.secured]: 'true' },
      annotations: { ...annotations, [ANNOTATION.specHash]: hash },
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
