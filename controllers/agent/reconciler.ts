// The PlatformAgent reconciler: reads the agent and its context (workspace,
// organization, registered auditors) from informer caches, asks the pure
// modules what should be (chain, identity, settings, stale, status), brings
// the owned objects in line, writes status only when it changed and records
// an Event on every phase and condition change.
import type * as k8s from '@kubernetes/client-node';
import type { Organization, PlatformWorkspace } from '../../crds/generated/types.ts';
import type { Keyring } from '../../base/crypto/envelope.ts';
import type { Logger } from '../../base/log.ts';
import { lockViolations, resolveSettings } from '../../policy/settings-cascade.ts';
import type { ReconcileResult } from '../../base/controller/controller.ts';
import type { Condition, DesiredCondition } from '../../base/controller/conditions.ts';
import type { EventRecorder, EventSpec } from '../../base/controller/events.ts';
import type { StatusWriter } from '../../base/controller/status-writer.ts';
import { staleVerdict } from '../review/stale.ts';
import { agentChain, chainCondition, chainUsable, type AgentChain, type AgentChainLookups } from './chain.ts';
import type { AgentConnections } from './app-connections.ts';
import { conditionEvents, readyEvent } from './condition-events.ts';
import { credentialRefsCondition } from './credential-refs.ts';
import type { GatewayKeys } from './gateway-keys.ts';
import { claimIdentity, identityCondition, spiffeId, type IdentityClaim } from './identity.ts';
import type { AgentObjects } from './owned.ts';
import { passportSummary } from './passport.ts';
import { AgentPodSync, type PodSyncResult } from './pod-sync.ts';
import {
  computeAgentStatus,
  hasOwner,
  workspaceOwnerGoing,
  type AgentObservation,
  type AgentStatusResult,
} from './status.ts';
import { AGENT_API_VERSION, AGENT_KIND, type PlatformAgent } from './types.ts';
import type { WiringResult } from './wiring.ts';

/** Requeue limit: Node timers overflow past ~24.8 days, and resync covers longer waits. */
const MAX_REQUEUE_MS = 3_600_000;
/** A gateway key that could not be minted is tried again after this long. */
const KEY_RETRY_MS = 30_000;
const KEYRING_WAIT_MS = 200;
const CHAIN_BLOCKED =
  'the auditor chain names unknown or unwireable auditors, or unknown frameworks; see condition ChainValid';

export interface AgentContextReader {
  agent(key: string): PlatformAgent | undefined;
  /** Agents holding or asking for the same email or handle as `agent`. */
  identityRivals(agent: PlatformAgent): PlatformAgent[];
  workspace(namespace: string, name: string): PlatformWorkspace | undefined;
  organization(name: string): Organization | undefined;
  knownAuditors(): ReadonlySet<string>;
  /** Registered auditors the webhook cannot wire into a pod, with why. */
  unwireableAuditors(): ReadonlyMap<string, string>;
  /** The auditors the agent's installed catalog apps bring, per app. */
  installedApps(agent: PlatformAgent): AgentChainLookups['installedApps'];
  /** The MCP tools and A2A connections its installs and its tiers give it. */
  connections(agent: PlatformAgent, ws?: PlatformWorkspace, org?: Organization): AgentConnections;
  credentialExists(namespace: string, name: string): boolean;
  /** The node a pod runs on, as last seen. */
  node(name: string): k8s.V1Node | undefined;
}

export interface AgentReconcilerDeps {
  read: AgentContextReader;
  objects: AgentObjects;
  gatewayKeys: GatewayKeys;
  /** What the pod tells the Gateway and auditors (policy, model, key Secret, settings). */
  wiring: (
    agent: PlatformAgent,
    chain: readonly string[],
    ws?: PlatformWorkspace,
    org?: Organization,
  ) => WiringResult;
  keyring: () => { keyring?: Keyring; error: string; loading?: boolean };
  statusWriter: StatusWriter;
  events: EventRecorder;
  log: Logger;
  trustDomain: string;
  emailDomain: string;
  staleAfterMs: number;
  /** Replace secured pods the webhook did not inject (false only where no platform webhook runs). */
  requireInjection: boolean;
  clock?: () => Date;
}

interface StatusFindings {
  chain: AgentChain;
  claim: IdentityClaim;
  clientId: string | undefined;
  connections: AgentConnections;
}

export class AgentReconciler {
  private readonly clock: () => Date;
  private readonly pods: AgentPodSync;

  constructor(private readonly deps: AgentReconcilerDeps) {
    this.clock = deps.clock ?? (() => new Date());
    this.pods = new AgentPodSync({
      objects: deps.objects,
      events: deps.events,
      requireInjection: deps.requireInjection,
      clock: this.clock,
    });
  }

  readonly reconcile = async (key: string): Promise<ReconcileResult | void> => {
    const agent = this.deps.read.agent(key);
    if (!agent) return;
    // Owner references garbage-collect the rest; the key record lives in another namespace.
    if (agent.metadata.deletionTimestamp) return this.deps.gatewayKeys.release(agent);
    if (await this.deps.gatewayKeys.claim(agent)) return; // the update event brings it back with the finalizer
    // Before the first keyring attempt ends, wait rather than report a credential state that flips at once.
    if (this.deps.keyring().loading) return { requeueAfterMs: KEYRING_WAIT_MS };
    return this.sync(agent);
  };

  /** Brings the owned objects in line, then writes the status they and the agent's context give. */
  private async sync(agent: PlatformAgent): Promise<ReconcileResult | undefined> {
    const now = this.clock();
    const { ws, org } = this.context(agent);
    const chain = agentChain(agent, ws, org, {
      known: this.deps.read.knownAuditors(),
      installedApps: this.deps.read.installedApps(agent),
      unwireable: this.deps.read.unwireableAuditors(),
    });
    const claim = claimIdentity(agent, this.deps.read.identityRivals(agent), this.deps.emailDomain);
    const { keyring, error } = this.deps.keyring();
    const wiring = this.deps.wiring(agent, chain.ids, ws, org);
    const [, credentials, gatewayKey] = await Promise.all([
      this.deps.objects.ensureServiceAccount(agent),
      this.deps.objects.ensureOAuthClient(agent, keyring, error),
      this.deps.gatewayKeys.ensure(agent),
    ]);
    const going = workspaceOwnerGoing(agent, (name) =>
      this.deps.read.workspace(agent.metadata.namespace ?? '', name),
    );
    const pod = await this.syncPod(agent, chain, going, wiring);
    const stale = staleVerdict(agent, now, this.deps.staleAfterMs);
    const conditions = [
      identityCondition(claim),
      chainCondition(chain),
      stale.condition,
      settingsCondition(agent, ws, org),
      credentialRefsCondition(agent, org?.spec.homeNamespace, this.deps.read.credentialExists),
      credentials.condition,
      ...(pod.injection ? [pod.injection] : []),
      wiring.condition,
      gatewayKey.condition,
    ];
    const fields = this.statusFields(agent, {
      chain,
      claim,
      clientId: credentials.clientId,
      connections: this.deps.read.connections(agent, ws, org),
    });
    const observed = {
      pod: pod.pod,
      node: this.nodeOf(pod.pod),
      podProblem: pod.problem,
      fields,
      conditions,
    };
    await this.writeStatus(agent, computeAgentStatus(agent, observed, now));
    return requeue(stale.becomesStaleInMs, pod.retryAfterMs ?? (gatewayKey.retry ? KEY_RETRY_MS : undefined));
  }

  private statusFields(agent: PlatformAgent, found: StatusFindings): AgentObservation['fields'] {
    const { chain, claim } = found;
    return {
      spiffeId: spiffeId(this.deps.trustDomain, agent),
      oauthClientId: found.clientId ?? agent.status?.oauthClientId,
      email: claim.email,
      handle: claim.handle,
      chain: chainUsable(chain) ? chain.ids : agent.status?.chain,
      passport: passportSummary(agent, chain.ids),
      // Always lists (empty too): a status write carries over what it does not name.
      tools: found.connections.tools,
      a2aConnections: found.connections.a2aConnections,
    };
  }

  private nodeOf(pod: k8s.V1Pod | undefined): k8s.V1Node | undefined {
    const name = pod?.spec?.nodeName;
    return name ? this.deps.read.node(name) : undefined;
  }

  private context(agent: PlatformAgent): { ws?: PlatformWorkspace; org?: Organization } {
    const wsName = agent.spec.workspace;
    const ws = wsName ? this.deps.read.workspace(agent.metadata.namespace ?? '', wsName) : undefined;
    const orgName = ws?.spec.organization;
    return { ws, org: orgName ? this.deps.read.organization(orgName) : undefined };
  }

  /**
   * Suspended agents lose their pod; an unusable chain, or a workspace owner
   * being deleted, keeps whatever runs and builds nothing; otherwise build it.
   */
  private async syncPod(
    agent: PlatformAgent,
    chain: AgentChain,
    ownerGoing: string,
    wiring: WiringResult,
  ): Promise<PodSyncResult> {
    if (!hasOwner(agent) || agent.spec.suspend === true) {
      this.pods.forget(agent);
      await this.deps.objects.removePod(agent);
      return {};
    }
    const blocked = ownerGoing || (chainUsable(chain) ? '' : CHAIN_BLOCKED);
    if (blocked) {
      const existing = this.deps.objects.existingPod(agent);
      return existing ? { pod: existing } : { problem: { reason: 'PodBlocked', message: blocked } };
    }
    if (wiring.blocked) {
      const existing = this.deps.objects.existingPod(agent);
      return existing ? { pod: existing } : { problem: { reason: 'PodBlocked', message: wiring.blocked } };
    }
    return this.pods.sync(agent, chain.ids, wiring.pod);
  }

  private async writeStatus(agent: PlatformAgent, result: AgentStatusResult): Promise<void> {
    const subject = { ...agent, apiVersion: AGENT_API_VERSION, kind: AGENT_KIND };
    const written = await this.deps.statusWriter.write(subject, result.status);
    if (!written) return;
    const from = agent.status?.phase ?? 'none';
    if (from !== result.phase) {
      const { name, namespace } = agent.metadata;
      this.deps.log.info({ agent: name, namespace, from, to: result.phase }, 'agent phase changed');
    }
    for (const event of agentStatusEvents(agent.status, result)) await this.deps.events.emit(subject, event);
  }
}

/**
 * The Events of a written status: the phase change (a Warning when the owners
 * went) or else a Ready change in the same phase (a sidecar crashes in a
 * running pod), then one per other condition that changed.
 */
export function agentStatusEvents(previous: PlatformAgent['status'], result: AgentStatusResult): EventSpec[] {
  const from = previous?.phase ?? 'none';
  const before = previous?.conditions as Condition[] | undefined;
  const after = result.status.conditions as Condition[];
  const events: EventSpec[] = [];
  if (from !== result.phase) {
    const warning = result.reason === 'NoOwner';
    events.push({
      type: warning ? 'Warning' : 'Normal',
      reason: warning ? 'OwnersMissing' : 'PhaseChanged',
      action: 'UpdateStatus',
      note: `phase ${from} → ${result.phase}: ${result.message}`,
    });
  } else {
    const ready = readyEvent(before, after);
    if (ready) events.push(ready);
  }
  return [...events, ...conditionEvents(before, after)];
}

function settingsCondition(
  agent: PlatformAgent,
  ws: PlatformWorkspace | undefined,
  org: Organization | undefined,
): DesiredCondition {
  const violations = lockViolations(
    resolveSettings({
      org: org?.spec.defaults?.auditorSettings,
      workspace: ws?.spec.defaults?.auditorSettings,
      agent: agent.spec.auditorSettings,
    }),
  );
  if (violations.length === 0) {
    return { type: 'SettingsLocked', status: 'False', reason: 'NoLockedOverride' };
  }
  return {
    type: 'SettingsLocked',
    status: 'True',
    reason: 'LockedSettingOverridden',
    message: violations.join('; '),
  };
}

function requeue(staleInMs: number | undefined, podRetryMs: number | undefined): ReconcileResult | undefined {
  const waits = [staleInMs, podRetryMs].filter((x): x is number => x !== undefined);
  if (waits.length === 0) return undefined;
  return { requeueAfterMs: Math.min(MAX_REQUEUE_MS, ...waits.map((w) => Math.max(w, 0) + 50)) };
}
