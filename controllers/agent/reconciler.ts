// The PlatformAgent reconciler: a thin shell around computeAgentStatus. It
// reads the agent from the informer cache, observes the cluster (the pod,
// ServiceAccount and Secret steps of the controllers issue join `observe`
// and `apply`), writes status only when it changed and records an Event on
// every phase change.
import type { Logger } from '../../operator/log.ts';
import type { ReconcileResult } from '../runtime/controller.ts';
import type { EventRecorder } from '../runtime/events.ts';
import type { StatusWriter } from '../runtime/status-writer.ts';
import { computeAgentStatus, type AgentObservation, type AgentStatusResult } from './status.ts';
import { AGENT_API_VERSION, AGENT_KIND, type PlatformAgent } from './types.ts';

export interface AgentReconcilerDeps {
  /** The informer cache: the agent as last seen. */
  getAgent: (key: string) => PlatformAgent | undefined;
  statusWriter: StatusWriter;
  events: EventRecorder;
  log: Logger;
  clock?: () => Date;
}

export class AgentReconciler {
  private readonly clock: () => Date;

  constructor(private readonly deps: AgentReconcilerDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  readonly reconcile = async (key: string): Promise<ReconcileResult | void> => {
    const agent = this.deps.getAgent(key);
    if (!agent) return; // deleted: owner references garbage-collect what it owned
    if (agent.metadata?.deletionTimestamp) return;
    const observed = await this.observe(agent);
    const result = computeAgentStatus(agent, observed, this.clock());
    await this.apply(agent, result);
    const subject = { apiVersion: AGENT_API_VERSION, kind: AGENT_KIND, ...agent };
    const written = await this.deps.statusWriter.write(subject, result.status);
    if (written && agent.status?.phase !== result.phase) await this.recordPhaseChange(agent, result);
  };

  /** What exists in the cluster for this agent. No pod is created yet, so nothing to observe. */
  private async observe(_agent: PlatformAgent): Promise<AgentObservation> {
    return {};
  }

  /** Brings owned objects (pod, ServiceAccount, Secret) in line with the result. Nothing yet. */
  private async apply(_agent: PlatformAgent, _result: AgentStatusResult): Promise<void> {}

  private async recordPhaseChange(agent: PlatformAgent, result: AgentStatusResult): Promise<void> {
    const from = agent.status?.phase ?? 'none';
    const subject = { apiVersion: AGENT_API_VERSION, kind: AGENT_KIND, metadata: agent.metadata };
    const warning = result.reason === 'NoOwner';
    this.deps.log.info(
      { agent: agent.metadata?.name, namespace: agent.metadata?.namespace, from, to: result.phase },
      'agent phase changed',
    );
    await this.deps.events.emit(subject, {
      type: warning ? 'Warning' : 'Normal',
      reason: warning ? 'OwnersMissing' : 'PhaseChanged',
      action: 'UpdateStatus',
      note: `phase ${from} → ${result.phase}: ${result.message}`,
    });
  }
}
