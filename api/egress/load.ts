// What the egress bundle of one agent is made of, read: its Access Manifest
// and credential cascade fresh from the apiserver (a stale cache must not
// widen access), its installs, catalog entries and delegation grants from the
// API's caches. The pure parts are bundle.ts and policy/egress-cedar.ts.
import type { PlatformAgent } from '../agents/model.ts';
import type { ApiDeps } from '../routes/route.ts';
import { agentAccessManifest } from '../delegations/agent-manifest.ts';
import { grantPhaseOf } from '../delegations/model.ts';
import { agentCredentials } from '../scoped/agent-cascade.ts';
import type { CredentialResolution } from '../scoped/credential-cascade.ts';
import { appService } from '../catalog/install-routing.ts';
import { egressCedar } from '../../policy/egress-cedar.ts';
import {
  agentRuleSources,
  egressBundle,
  mergeRules,
  type EgressBundleView,
  type RuleSource,
} from './bundle.ts';

type Deps = Pick<ApiDeps, 'writer' | 'installedApps' | 'catalog' | 'grants' | 'now'>;

export const agentIdOf = (agent: PlatformAgent): string =>
  `${agent.metadata.namespace}.${agent.metadata.name}`;

function installsOf(deps: Deps, agent: PlatformAgent) {
  return deps.installedApps
    .list()
    .filter((i) => i.metadata.namespace === agent.metadata.namespace && i.spec.agent === agent.metadata.name)
    .sort((a, b) => a.spec.app.localeCompare(b.spec.app));
}

/** The credential the cascade gives the agent under `name`, if any. */
export function givenCredential(resolution: CredentialResolution, name: string) {
  return [...resolution.effective.values()].find((e) => e.credential.metadata.name === name);
}

function credentialServices(resolution: CredentialResolution): (name: string) => string | undefined {
  const all = [
    ...[...resolution.effective.values()].map((e) => e.credential),
    ...resolution.withheld.map((w) => w.credential),
  ];
  return (name) => all.find((c) => c.metadata.name === name)?.spec.service;
}

export async function loadEgressBundle(deps: Deps, agent: PlatformAgent): Promise<EgressBundleView> {
  const agentId = agentIdOf(agent);
  const wsName = agent.spec.workspace;
  const [manifest, resolution, workspace] = await Promise.all([
    agentAccessManifest(deps.writer, agent),
    agentCredentials(deps.writer, agent),
    wsName ? deps.writer.readWorkspace(agent.metadata.namespace ?? '', wsName) : undefined,
  ]);
  const installs = installsOf(deps, agent);
  const installSources: RuleSource[] = installs.map((i) => {
    const entry = deps.catalog.get(i.spec.app)?.spec;
    const service = entry ? appService(entry) : undefined;
    const issuer = i.spec.mcpMetadata?.issuer;
    return {
      source: `install:${i.spec.app}`,
      rules: i.spec.credentialRouting ?? [],
      ...(service ? { appService: service } : {}),
      ...(i.spec.auth ? { auth: i.spec.auth } : {}),
      ...(issuer ? { issuer } : {}),
    };
  });
  const rules = mergeRules(
    [...agentRuleSources(agent, workspace?.spec.environment), ...installSources],
    credentialServices(resolution),
  );
  const mcpServers = installs.flatMap((i) => {
    const entry = deps.catalog.get(i.spec.app)?.spec;
    return entry?.type === 'mcp_server' && entry.serverUrl
      ? [{ name: i.spec.app, url: entry.serverUrl }]
      : [];
  });
  const now = deps.now();
  const grants = deps.grants
    .list()
    .filter((g) => g.metadata.namespace === agent.metadata.namespace && g.spec.agent === agent.metadata.name)
    .map((g) => ({
      user: g.spec.user,
      service: g.spec.service,
      expiresAt: g.spec.expiresAt,
      phase: grantPhaseOf(g, now),
    }));
  const cedar = egressCedar({
    agentId,
    suspended: agent.spec.suspend === true,
    owners: agent.spec.owners ?? [],
    manifest,
    rules: rules.map((r) => ({
      service: r.service,
      injectionMethod: r.injection_method,
      credentialAvailable:
        r.credential_ref !== null && givenCredential(resolution, r.credential_ref) !== undefined,
    })),
    grants,
    now,
  });
  return egressBundle({ agent_id: agentId, rules, mcp_servers: mcpServers, cedar });
}
