// The console's subagent tree, composed from what the handler fetched: the
// agent (its phase and declared subagents), its pod and the pod's resource
// usage, and the agent's recent console events. Pure: the same inputs and
// `nowMs` give the same tree.
import type { PlatformAgent } from '../../crds/generated/types.ts';
import { SUBAGENT_PATTERN, type ConsoleEvent } from '../../contract/console.ts';
import { agentIdOf } from '../../contract/agent-id.ts';

/** A subagent that acted this recently is `active`; one that acted before is `idle`. */
export const ACTIVE_WINDOW_MS = 60_000;

export interface AgentPod {
  name: string;
  /** The pod's phase as Kubernetes says it: Pending, Running, Succeeded, Failed, Unknown. */
  phase: string;
}

/** A pod's resource usage from the kubelet; both null with the reason when it could not be read. */
export interface PodResources {
  cpu_millicores: number | null;
  memory_bytes: number | null;
  reason: string | null;
}

export interface PodSummary {
  /** The agent's pod; null when it has none, or when it could not be looked up (`lookupProblem`). */
  pod: AgentPod | null;
  lookupProblem?: string;
  resources: PodResources;
}

export interface NodeUsage {
  model_calls: number;
  tool_calls: number;
  errors: number;
  approvals: number;
}

export interface TreeNode {
  name: string;
  kind: 'agent' | 'subagent';
  /** The agent's name for a subagent; null for the agent. */
  parent: string | null;
  /** False for a subagent that acted (its calls named it) but is not in `spec.abilities.subagents`. */
  declared: boolean;
  description: string | null;
  status: string;
  current_task: string | null;
  last_event_at: string | null;
  /** Counts over the node's recent events (the agent's own: events no subagent made). */
  usage: NodeUsage;
  /** The agent's pod (the agent node only; subagents run in it). */
  pod: string | null;
  resources: PodResources | null;
  /** The drill-down: the node's events; null for a subagent whose name no call can carry. */
  events: string | null;
}

export interface SubagentTree {
  agent_id: string;
  nodes: TreeNode[];
}

export interface TreeInput {
  agent: PlatformAgent;
  pod: PodSummary;
  /** The agent's recent events, oldest first. */
  events: readonly ConsoleEvent[];
  nowMs: number;
}

const SUBAGENT_RE = new RegExp(SUBAGENT_PATTERN);

/** The agent's status: `suspended`, else its pod's phase in lower case (`pending` without a pod). */
export function agentStatus(agent: PlatformAgent, pod: PodSummary): string {
  if (agent.spec.suspend || agent.status?.phase === 'suspended') return 'suspended';
  if (pod.lookupProblem) return 'unknown';
  return pod.pod ? pod.pod.phase.toLowerCase() : 'pending';
}

/** What an event says the node was doing; undefined for events that are not a task (decisions, logs, errors). */
export function taskOf(e: ConsoleEvent): string | undefined {
  const p = e.payload;
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  switch (e.type) {
    case 'tool_call':
      return `${text(p.method)} ${text(p.destination)}${text(p.path)}`.trim() || 'tool call';
    case 'model_call':
      return text(p.model) ? `model ${text(p.model)}` : 'model call';
    case 'approval_requested':
      return p.kind === 'consent'
        ? `consent: ${text(p.service)}`
        : `approval: ${text(p.action)} ${text(p.target)}`.trim();
    default:
      return undefined;
  }
}

const isError = (e: ConsoleEvent): boolean => e.severity === 'error' || e.severity === 'critical';

function usageOf(events: readonly ConsoleEvent[]): NodeUsage {
  const count = (ok: (e: ConsoleEvent) => boolean): number => events.filter(ok).length;
  return {
    model_calls: count((e) => e.type === 'model_call'),
    tool_calls: count((e) => e.type === 'tool_call'),
    errors: count(isError),
    approvals: count((e) => e.type === 'approval_requested'),
  };
}

/** The newest event time (ISO), by timestamp; null without events. */
function lastEventAt(events: readonly ConsoleEvent[]): string | null {
  let best: number | undefined;
  for (const e of events) {
    const t = Date.parse(e.timestamp);
    if (!Number.isNaN(t) && (best === undefined || t > best)) best = t;
  }
  return best === undefined ? null : new Date(best).toISOString();
}

/** The task of the newest event that is one (events in log order). */
function currentTask(events: readonly ConsoleEvent[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const task = taskOf(events[i] as ConsoleEvent);
    if (task !== undefined) return task;
  }
  return null;
}

function subagentStatus(agentState: string, last: string | null, nowMs: number): string {
  if (agentState !== 'running') return agentState;
  if (last === null) return 'unknown';
  return nowMs - Date.parse(last) <= ACTIVE_WINDOW_MS ? 'active' : 'idle';
}

const eventsLink = (agentId: string, subagent?: string): string =>
  `/v1/agents/${encodeURIComponent(agentId)}/console/events` +
  (subagent === undefined ? '' : `?subagent=${encodeURIComponent(subagent)}`);

interface Subagent {
  name: string;
  description: string | null;
  declared: boolean;
}

/** The declared subagents in spec order, then those only events name, by name. */
function subagentsOf(agent: PlatformAgent, events: readonly ConsoleEvent[]): Subagent[] {
  const declared = (agent.spec.abilities?.subagents ?? []).map((s) => ({
    name: s.name,
    description: s.description ?? null,
    declared: true,
  }));
  const known = new Set(declared.map((s) => s.name));
  const named = [...new Set(events.map((e) => e.subagent).filter((n): n is string => n !== null))]
    .filter((n) => !known.has(n))
    .sort()
    .map((name) => ({ name, description: null, declared: false }));
  return [...declared, ...named];
}

export function subagentTree({ agent, pod, events, nowMs }: TreeInput): SubagentTree {
  const agentId = agentIdOf(agent);
  const agentName = agent.metadata.name ?? '';
  const state = agentStatus(agent, pod);
  const own = events.filter((e) => e.subagent === null);
  const root: TreeNode = {
    name: agentName,
    kind: 'agent',
    parent: null,
    declared: true,
    description: agent.spec.abilities?.soul?.identity?.role ?? null,
    status: state,
    current_task: currentTask(own),
    last_event_at: lastEventAt(own),
    usage: usageOf(own),
    pod: pod.pod?.name ?? null,
    resources: pod.resources,
    events: eventsLink(agentId),
  };
  const children = subagentsOf(agent, events).map((s): TreeNode => {
    const mine = events.filter((e) => e.subagent === s.name);
    const last = lastEventAt(mine);
    return {
      name: s.name,
      kind: 'subagent',
      parent: agentName,
      declared: s.declared,
      description: s.description,
      status: subagentStatus(state, last, nowMs),
      current_task: currentTask(mine),
      last_event_at: last,
      usage: usageOf(mine),
      pod: null,
      resources: null,
      events: SUBAGENT_RE.test(s.name) ? eventsLink(agentId, s.name) : null,
    };
  });
  return { agent_id: agentId, nodes: [root, ...children] };
}
