// What an agent's Gateway and auditors need from its pod, pure (CLARIFICATIONS
// "Pod wiring"): the effective policy id (policy-id.ts), the model URL
// (model-url.ts), the workspace id, the Secret with its own API key, and the
// resolved auditorSettings (org → workspace → agent) of the chain's auditors,
// checked the way the webhook and the auditors will check them. Settings an
// auditor would refuse block a new pod and keep a running one, like an
// unknown auditor (decision 44).
import type { Organization, PlatformWorkspace } from '../../crds/generated/types.ts';
import { auditorSettingsProblems, type AuditorSettingValues } from '../../auditors/catalog/settings.ts';
import type { AuditorPolicy } from '../../crds/generated/types.ts';
import { effectiveSettings, resolveSettings } from '../../policy/settings-cascade.ts';
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import { agentModelUrl, type ModelSources } from './model-url.ts';
import { effectivePolicyId } from './policy-id.ts';
import type { PlatformAgent } from './types.ts';

export const CONDITION_GATEWAY_CONFIGURED = 'GatewayConfigured';

export interface PodWiring {
  workspaceId: string;
  /** The Secret (key `api-key`) the gateway and proxy read PLATFORM_API_KEY from. */
  apiKeySecret: string;
  /** Undefined: the Gateway applies the built-in default policy. */
  policyId?: string;
  /** Undefined: the webhook's default model URL. */
  modelUrl?: string;
  /** Only the chain's auditors; empty when none is set. */
  auditorSettings: AuditorSettingValues;
}

export interface WiringContext {
  workspace?: PlatformWorkspace;
  organization?: Organization;
  policies: readonly AuditorPolicy[];
  models: ModelSources;
  apiKeySecret: string;
}

export interface WiringResult {
  pod: PodWiring;
  condition: DesiredCondition;
  /** Why no pod may be built from this wiring (a running one is kept). */
  blocked?: string;
}

/** The workspace an agent belongs to, else (standalone) its namespace, as apply-preset names it. */
export function workspaceIdOf(agent: PlatformAgent): string {
  return agent.spec.workspace || (agent.metadata.namespace ?? '');
}

/** The resolved settings of the chain's auditors (the cascade resolves settings of any auditor). */
export function chainSettings(
  agent: PlatformAgent,
  chain: readonly string[],
  ctx: Pick<WiringContext, 'workspace' | 'organization'>,
): AuditorSettingValues {
  const all = effectiveSettings(
    resolveSettings({
      org: ctx.organization?.spec.defaults?.auditorSettings,
      workspace: ctx.workspace?.spec.defaults?.auditorSettings,
      agent: agent.spec.auditorSettings,
    }),
  );
  return Object.fromEntries(Object.entries(all).filter(([id]) => chain.includes(id)));
}

export function agentWiring(
  agent: PlatformAgent,
  chain: readonly string[],
  ctx: WiringContext,
): WiringResult {
  const policy = effectivePolicyId(agent, ctx.workspace?.spec.organization, ctx.policies);
  const model = agentModelUrl(agent, ctx.models);
  const auditorSettings = chainSettings(agent, chain, ctx);
  const pod: PodWiring = {
    workspaceId: workspaceIdOf(agent),
    apiKeySecret: ctx.apiKeySecret,
    ...(policy.id ? { policyId: policy.id } : {}),
    ...(model.url ? { modelUrl: model.url } : {}),
    auditorSettings,
  };
  const problems = auditorSettingsProblems(auditorSettings);
  if (problems.length > 0) {
    return {
      pod,
      blocked: 'the resolved auditor settings are invalid; see condition GatewayConfigured',
      condition: {
        type: CONDITION_GATEWAY_CONFIGURED,
        status: 'False',
        reason: 'InvalidAuditorSettings',
        message: `${problems.join('; ')}; the running pod is kept`,
      },
    };
  }
  const message = `policy ${policy.id ?? 'platform:default'} (${policy.source}); model ${model.url ?? '(webhook default)'} (${model.source})`;
  return {
    pod,
    condition: { type: CONDITION_GATEWAY_CONFIGURED, status: 'True', reason: 'Resolved', message },
  };
}
