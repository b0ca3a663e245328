// The subagent tree as a function of the agent, its pod and its recent events.
import { describe, expect, it } from 'vitest';
import type { ConsoleEvent } from '../../contract/console.ts';
import type { PlatformAgent } from '../../crds/generated/types.ts';
import { subagentTree, type PodSummary } from './tree.ts';

const NOW = Date.parse('2030-01-01T12:00:00Z');
const ago = (s: number): string => new Date(NOW - s * 1000).toISOString();

const agent = (extra: Partial<PlatformAgent['spec']> = {}, phase = 'running'): PlatformAgent =>
  ({
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformAgent',
    metadata: { namespace: 'team', name: 'bot' },
    spec: {
      owners: [],
      abilities: {
        subagents: [
          { name: 'researcher', description: 'finds things' },
          { name: 'writer' },
          { name: 'quiet one' },
        ],
      },
      ...extra,
    },
    status: { phase },
  }) as unknown as PlatformAgent;

const running: PodSummary = {
  pod: { name: 'bot-abc', phase: 'Running' },
  resources: { cpu_millicores: 12, memory_bytes: 3_000_000, reason: null },
};

let seq = 0;
const ev = (
  subagent: string | null,
  type: ConsoleEvent['type'],
  secondsAgo: number,
  extra: Partial<Pick<ConsoleEvent, 'payload' | 'severity'>> = {},
): ConsoleEvent => ({
  id: String(++seq),
  timestamp: ago(secondsAgo),
  agent_id: 'team.bot',
  subagent,
  type,
  severity: 'info',
  auditor: null,
  auditors: [],
  payload: {},
  ...extra,
});

const EVENTS: ConsoleEvent[] = [
  ev('researcher', 'model_call', 300, { payload: { model: 'gpt-4o' } }),
  ev('researcher', 'tool_call', 30, {
    payload: { method: 'GET', destination: 'api.example.com:443', path: '/search' },
  }),
  ev('researcher', 'chain_decision', 29, { severity: 'error' }),
  ev('writer', 'approval_requested', 120, {
    payload: { kind: 'approval', action: 'delete', target: 'DELETE x' },
  }),
  ev('stray', 'model_call', 5, { payload: { model: null } }),
  ev(null, 'log', 1, { payload: { line: 'hello' } }),
  ev(null, 'model_call', 2, { payload: { model: 'small' } }),
];

describe('subagentTree', () => {
  it('roots the tree at the agent with its pod, usage and own activity', () => {
    const t = subagentTree({ agent: agent(), pod: running, events: EVENTS, nowMs: NOW });
    expect(t.agent_id).toBe('team.bot');
    expect(t.nodes[0]).toEqual({
      name: 'bot',
      kind: 'agent',
      parent: null,
      declared: true,
      description: null,
      status: 'running',
      current_task: 'model small',
      last_event_at: ago(1),
      usage: { model_calls: 1, tool_calls: 0, errors: 0, approvals: 0 },
      pod: 'bot-abc',
      resources: { cpu_millicores: 12, memory_bytes: 3_000_000, reason: null },
      events: '/v1/agents/team.bot/console/events',
    });
  });

  it('gives each declared subagent its status, current task, activity and drill-down', () => {
    const nodes = subagentTree({ agent: agent(), pod: running, events: EVENTS, nowMs: NOW }).nodes;
    const [researcher, writer, quiet] = nodes.slice(1);
    expect(researcher).toMatchObject({
      name: 'researcher',
      kind: 'subagent',
      parent: 'bot',
      declared: true,
      description: 'finds things',
      status: 'active',
      current_task: 'GET api.example.com:443/search',
      last_event_at: ago(29),
      usage: { model_calls: 1, tool_calls: 1, errors: 1, approvals: 0 },
      pod: null,
      resources: null,
      events: '/v1/agents/team.bot/console/events?subagent=researcher',
    });
    expect(writer).toMatchObject({ status: 'idle', current_task: 'approval: delete DELETE x' });
    expect(quiet).toMatchObject({
      status: 'unknown',
      current_task: null,
      last_event_at: null,
      usage: { model_calls: 0, tool_calls: 0, errors: 0, approvals: 0 },
      events: '/v1/agents/team.bot/console/events?subagent=quiet%20one',
    });
  });

  it('shows a subagent that acted without being declared, after the declared ones', () => {
    const nodes = subagentTree({ agent: agent(), pod: running, events: EVENTS, nowMs: NOW }).nodes;
    expect(nodes.map((n) => n.name)).toEqual(['bot', 'researcher', 'writer', 'quiet one', 'stray']);
    expect(nodes[4]).toMatchObject({
      declared: false,
      description: null,
      status: 'active',
      current_task: 'model call',
    });
  });

  it("gives every subagent the agent's status when the agent is suspended or not running", () => {
    const suspended = subagentTree({
      agent: agent({ suspend: true }),
      pod: running,
      events: EVENTS,
      nowMs: NOW,
    });
    expect(new Set(suspended.nodes.map((n) => n.status))).toEqual(new Set(['suspended']));
    const noPod: PodSummary = {
      pod: null,
      resources: { cpu_millicores: null, memory_bytes: null, reason: 'the agent has no pod' },
    };
    const pending = subagentTree({ agent: agent({}, 'pending'), pod: noPod, events: EVENTS, nowMs: NOW });
    expect(pending.nodes.map((n) => n.status)).toEqual([
      'pending',
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
    expect(pending.nodes[0]).toMatchObject({ pod: null, resources: { reason: 'the agent has no pod' } });
    const unknown = subagentTree({
      agent: agent(),
      pod: { ...noPod, lookupProblem: 'pods: forbidden' },
      events: [],
      nowMs: NOW,
    });
    expect(unknown.nodes[0]?.status).toBe('unknown');
  });

  it('links no drill-down for a declared name no call can carry', () => {
    const t = subagentTree({
      agent: agent({ abilities: { subagents: [{ name: '-odd' }] } }),
      pod: running,
      events: [],
      nowMs: NOW,
    });
    expect(t.nodes[1]).toMatchObject({ name: '-odd', events: null });
  });
});
