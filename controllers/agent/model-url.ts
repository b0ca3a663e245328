// The base URL of an agent's model, pure: what its Gateway forwards allowed
// calls to (PLATFORM_MODEL_URL) and what the agent itself calls
// (OPENAI_BASE_URL; the redirect hands that connection to the Gateway).
// From the agent's `spec.model.id`, most specific first:
//   1. a PlatformEnvironment (deploymentType model) in the agent's namespace
//      serving that model: its Service's cluster IP (an address, so the
//      webhook redirects exactly that destination), else its DNS endpoint;
//   2. a ModelRegistration of that model with an endpoint (in-cluster or external);
//   3. the operator's default (PLATFORM_MODEL_URL), else none: the webhook's own default.
import type { ModelRegistration, PlatformEnvironment } from '../../crds/generated/types.ts';
import { environmentEndpoint, environmentObjectName, MODEL_PORT } from '../environment/desired.ts';

export interface ModelSources {
  environments: readonly PlatformEnvironment[];
  registrations: readonly ModelRegistration[];
  /** The cluster IP of a Service (undefined while unknown or headless). */
  serviceIp: (namespace: string, name: string) => string | undefined;
  defaultUrl?: string;
}

export interface ModelChoice {
  url?: string;
  source: string;
}

const byName = <T extends { metadata: { name?: string } }>(a: T, b: T): number =>
  (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');

function environmentUrl(env: PlatformEnvironment, sources: ModelSources): string {
  const ip = sources.serviceIp(env.metadata.namespace ?? '', environmentObjectName(env));
  if (!ip || ip === 'None') return environmentEndpoint(env);
  return `http://${ip.includes(':') ? `[${ip}]` : ip}:${MODEL_PORT}`;
}

export function agentModelUrl(
  agent: { metadata: { namespace?: string }; spec: { model?: { id: string } } },
  sources: ModelSources,
): ModelChoice {
  const id = agent.spec.model?.id;
  const env = id
    ? sources.environments
        .filter(
          (e) =>
            e.metadata.namespace === agent.metadata.namespace &&
            e.spec.deploymentType === 'model' &&
            e.spec.model?.id === id &&
            !e.metadata.deletionTimestamp,
        )
        .sort(byName)[0]
    : undefined;
  if (env) return { url: environmentUrl(env, sources), source: `PlatformEnvironment ${env.metadata.name}` };
  const reg = id
    ? sources.registrations.filter((r) => r.spec.modelId === id && r.spec.endpoint).sort(byName)[0]
    : undefined;
  if (reg?.spec.endpoint) return { url: reg.spec.endpoint, source: `ModelRegistration ${reg.metadata.name}` };
  if (sources.defaultUrl) return { url: sources.defaultUrl, source: 'the operator default' };
  return { source: "the webhook's default" };
}
