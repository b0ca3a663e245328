// Wiring of the agent controller: the reconciler on PlatformAgent keys, fed
// by the agent informer and by everything an agent's result depends on
// (its pod, ServiceAccount and Secrets; its workspace and organization; the
// registered auditors; the policies, model registrations and environments
// its Gateway is wired to; its installed catalog apps and their entries;
// rival agents for email and handle).
import * as k8s from '@kubernetes/client-node';
import { LABEL } from '../../contract/kube.ts';
import type {
  AgentInstalledApp,
  AppCatalogEntry,
  AuditorPolicy,
  AuditorRegistration,
  ScopedToolInstall,
} from '../../crds/generated/types.ts';
import type { Keyring } from '../../base/crypto/envelope.ts';
import { BUILTIN_AUDITOR_IDS } from '../../auditors/builtin.ts';
import { installedAuditors, withRegisteredAuditors } from '../../api/catalog/entries.ts';
import { registeredEntry } from '../../webhooks/mutate/directory.ts';
import { inNamespace, type Caches } from '../common/caches.ts';
import { defineController } from '../common/define.ts';
import type { ControllerContext, Toolkit } from '../common/toolkit.ts';
import type { Controller, WatchSource } from '../../base/controller/controller.ts';
import { objectKey } from '../../base/controller/keys.ts';
import { ownerKeys } from '../../base/controller/owners.ts';
import { gatewayKeySecretName } from './gateway-key.ts';
import { GatewayKeys } from './gateway-keys.ts';
import { IdentityIndex } from './identity-index.ts';
import { AgentObjects } from './owned.ts';
import { agentConnections } from './app-connections.ts';
import type { PodSettings } from './pod.ts';
import { AgentReconciler, type AgentContextReader, type AgentReconcilerDeps } from './reconciler.ts';
import { AGENT_RESOURCE, type PlatformAgent } from './types.ts';
import { agentWiring, type WiringResult } from './wiring.ts';

export const AGENT_CONTROLLER = 'platformagent';

export interface AgentControllerOptions {
  pod: PodSettings;
  emailDomain: string;
  staleAfterMs: number;
  /** Replace secured pods the webhook did not inject. */
  requireInjection: boolean;
  keyring: () => { keyring?: Keyring; error: string; loading?: boolean };
  /** The Verifier's key namespace, where gateway key records go. */
  keyNamespace: string;
  /** Model URL when no environment or registration serves the agent's model. */
  defaultModelUrl?: string;
}

/** The agent's own installs, as cached. */
const installsOf = (c: Caches, agent: PlatformAgent): AgentInstalledApp[] =>
  inNamespace(c.installedApps, agent.metadata.namespace ?? '').filter(
    (i) => i.spec.agent === agent.metadata.name,
  );

/** Registered auditors the webhook would not wire (its own rule), by id with why. */
function unwireable(registrations: readonly AuditorRegistration[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of registrations) {
    if (BUILTIN_AUDITOR_IDS.includes(r.spec.auditorId)) continue;
    const { problem } = registeredEntry(r.spec);
    if (problem) out.set(r.spec.auditorId, problem);
  }
  return out;
}

/** The app catalog as the API shows it: stored entries and registered auditors. */
const catalogOf = (c: Caches): AppCatalogEntry[] =>
  withRegisteredAuditors(c.catalog.list(), c.auditors.list());

function reader(ctx: ControllerContext, identities: IdentityIndex): AgentContextReader {
  const c = ctx.caches;
  return {
    agent: (key) => c.agents.get(key),
    identityRivals: (agent) => identities.rivals(agent),
    workspace: (namespace, name) => c.workspaces.get(`${namespace}/${name}`),
    organization: (name) => c.organizations.get(name),
    credentialExists: (namespace, name) => c.credentials.get(`${namespace}/${name}`) !== undefined,
    node: (name) => c.nodes.get(name),
    knownAuditors: () => new Set([...BUILTIN_AUDITOR_IDS, ...c.auditors.list().map((a) => a.spec.auditorId)]),
    unwireableAuditors: () => unwireable(c.auditors.list()),
    installedApps: (agent) => installedAuditors(installsOf(c, agent), catalogOf(c)),
    connections: (agent, ws, org) =>
      agentConnections(agent, ws, org, {
        installs: installsOf(c, agent),
        entries: catalogOf(c),
        toolInstalls: c.toolInstalls.list(),
      }),
  };
}

/** The pod wiring of an agent, from the caches (the decisions are `wiring.ts`). */
function wiringFrom(c: Caches, defaultModelUrl: string | undefined): AgentReconcilerDeps['wiring'] {
  return (agent, chain, ws, org): WiringResult =>
    agentWiring(agent, chain, {
      ...(ws ? { workspace: ws } : {}),
      ...(org ? { organization: org } : {}),
      policies: c.policies.list(),
      models: {
        environments: inNamespace(c.environments, agent.metadata.namespace ?? ''),
        registrations: c.models.list(),
        serviceIp: (namespace, name) => c.services.get(`${namespace}/${name}`)?.spec?.clusterIP,
        ...(defaultModelUrl ? { defaultUrl: defaultModelUrl } : {}),
      },
      apiKeySecret: gatewayKeySecretName(agent),
    });
}

/** Agents whose pod runs on the node. */
function agentsOnNode(c: Caches, node: string): string[] {
  return c.pods
    .list()
    .filter((p) => p.spec?.nodeName === node && p.metadata?.labels?.[LABEL.agent])
    .map((p) => `${p.metadata?.namespace}/${p.metadata?.labels?.[LABEL.agent]}`);
}

/** Agents of a namespace, or every agent for an object without one (cluster-scoped or org-wide). */
function agentsNear(c: Caches, namespace: string | undefined): string[] {
  return namespace ? inNamespace(c.agents, namespace).map((a) => objectKey(a)) : c.agents.keys();
}

/** Agents an app is installed on. */
function agentsWithApp(c: Caches, app: string): string[] {
  return c.installedApps
    .list()
    .filter((i) => i.spec.app === app)
    .map((i) => `${i.metadata.namespace}/${i.spec.agent}`);
}

function agentReconciler(
  ctx: ControllerContext,
  options: AgentControllerOptions,
  kit: Toolkit,
  identities: IdentityIndex,
): AgentReconciler {
  const c = ctx.caches;
  const core = ctx.kc.makeApiClient(k8s.CoreV1Api);
  const objects = new AgentObjects(
    core,
    { pods: c.pods, serviceAccounts: c.serviceAccounts, secrets: c.secrets },
    kit.writer,
    options.pod,
  );
  const gatewayKeys = new GatewayKeys({
    core,
    custom: ctx.kc.makeApiClient(k8s.CustomObjectsApi),
    secrets: c.secrets,
    writer: kit.writer,
    keyNamespace: options.keyNamespace,
    log: ctx.log,
  });
  return new AgentReconciler({
    read: reader(ctx, identities),
    objects,
    gatewayKeys,
    wiring: wiringFrom(c, options.defaultModelUrl),
    keyring: options.keyring,
    statusWriter: kit.statusWriter,
    events: kit.events,
    log: ctx.log,
    trustDomain: options.pod.trustDomain,
    emailDomain: options.emailDomain,
    staleAfterMs: options.staleAfterMs,
    requireInjection: options.requireInjection,
  });
}

/** Everything an agent's result depends on, mapped to the agents it concerns. */
function agentWatches(c: Caches, identities: IdentityIndex): WatchSource[] {
  const allAgents = (): string[] => c.agents.keys();
  const toAgent = ownerKeys({ label: LABEL.agent });
  return [
    { informer: c.pods, mapToKeys: toAgent },
    { informer: c.serviceAccounts, mapToKeys: toAgent },
    { informer: c.secrets, mapToKeys: toAgent },
    {
      informer: c.workspaces,
      mapToKeys: (ws) =>
        inNamespace(c.agents, ws.metadata?.namespace ?? '')
          .filter((a: PlatformAgent) => a.spec.workspace === ws.metadata?.name)
          .map((a) => objectKey(a)),
    },
    { informer: c.organizations, mapToKeys: allAgents },
    { informer: c.auditors, mapToKeys: allAgents },
    { informer: c.credentials, mapToKeys: allAgents },
    // What the Gateway is wired to: org policies reach agents in any namespace.
    {
      informer: c.policies,
      mapToKeys: (p) => {
        const policy = p as AuditorPolicy;
        return agentsNear(c, policy.spec.scope === 'org' ? undefined : policy.metadata.namespace);
      },
    },
    { informer: c.models, mapToKeys: allAgents },
    // An install or uninstall changes its agent's chain; an entry's auditors, its agents'.
    {
      informer: c.installedApps,
      mapToKeys: (i) => [`${i.metadata?.namespace}/${(i as AgentInstalledApp).spec.agent}`],
    },
    { informer: c.catalog, mapToKeys: (e) => agentsWithApp(c, e.metadata?.name ?? '') },
    // A tool required or blocked at org tier reaches agents in any namespace; at workspace tier, its namespace's.
    {
      informer: c.toolInstalls,
      mapToKeys: (t) => {
        const tool = t as ScopedToolInstall;
        return agentsNear(c, tool.spec.scope === 'org' ? undefined : tool.metadata.namespace);
      },
    },
    // A node that stops being ready takes its agents' readiness with it.
    { informer: c.nodes, mapToKeys: (n) => agentsOnNode(c, n.metadata?.name ?? '') },
    { informer: c.environments, mapToKeys: (e) => agentsNear(c, e.metadata?.namespace ?? '') },
    {
      informer: c.services,
      mapToKeys: (svc) =>
        svc.metadata?.labels?.[LABEL.environment] ? agentsNear(c, svc.metadata.namespace ?? '') : [],
    },
    // An agent that changes or goes may free or take an email or handle others want.
    {
      informer: c.agents,
      mapToKeys: (a) => identities.rivals(a as PlatformAgent).map((r) => objectKey(r)),
    },
  ];
}

export function createAgentController(ctx: ControllerContext, options: AgentControllerOptions): Controller {
  const c = ctx.caches;
  const identities = new IdentityIndex(options.emailDomain, (key) => c.agents.get(key));
  c.agents.on((type, agent) => (type === 'delete' ? identities.remove(agent) : identities.upsert(agent)));
  return defineController(ctx, {
    name: AGENT_CONTROLLER,
    resource: AGENT_RESOURCE,
    primary: c.agents,
    watches: agentWatches(c, identities),
    reconciler: (kit) => agentReconciler(ctx, options, kit, identities).reconcile,
  });
}
