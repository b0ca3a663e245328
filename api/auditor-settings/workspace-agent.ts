// Where the agent tier of the auditor-settings cascade is stored (decision
// 124). An agent a PlatformWorkspace generates (its controller owner) is
// rewritten from its `spec.agents[]` entry by the workspace controller, so
// its agent-tier settings live in that entry's `auditorSettings`: saving
// there survives the next workspace reconcile and shows in the workspace's
// definition file. Any other agent holds them in `spec.auditorSettings`.
import type { PlatformAgent, PlatformWorkspace } from '../../crds/generated/types.ts';
import type { AuditorSettings } from '../../policy/settings-cascade.ts';
import type { RouteCtx } from '../routes/route.ts';

const WORKSPACE_KIND = 'PlatformWorkspace';

/** The name of the PlatformWorkspace that generated `agent`, if one did. */
export function generatingWorkspace(agent: PlatformAgent): string | undefined {
  return (agent.metadata.ownerReferences ?? []).find((r) => r.kind === WORKSPACE_KIND && r.controller)?.name;
}

/** The workspace the agent belongs to: the one that generated it, else the one its spec names. */
export async function workspaceOfAgent(
  rc: RouteCtx,
  agent: PlatformAgent,
): Promise<PlatformWorkspace | undefined> {
  const name = generatingWorkspace(agent) ?? agent.spec.workspace;
  return name ? rc.deps.writer.readWorkspace(agent.metadata.namespace ?? '', name) : undefined;
}

type Entry = NonNullable<PlatformWorkspace['spec']['agents']>[number];

/** The workspace entry that generates `agent`, when `ws` is its generator and still lists it. */
export function generatingEntry(agent: PlatformAgent, ws: PlatformWorkspace | undefined): Entry | undefined {
  if (!ws || generatingWorkspace(agent) !== ws.metadata.name) return undefined;
  return (ws.spec.agents ?? []).find((e) => e.name === agent.metadata.name);
}

export interface AgentSettingsHolder {
  settings: AuditorSettings | undefined;
  /** Replaces the agent tier (resourceVersion-guarded: a concurrent change answers 409). */
  save(settings: AuditorSettings): Promise<void>;
}

/** The object holding the agent's tier: its generating workspace entry, else the agent. */
export function agentSettingsHolder(
  rc: RouteCtx,
  agent: PlatformAgent,
  ws: PlatformWorkspace | undefined,
): AgentSettingsHolder {
  const entry = generatingEntry(agent, ws);
  if (entry && ws) {
    return {
      settings: entry.auditorSettings,
      save: async (settings) => {
        if (Object.keys(settings).length > 0) entry.auditorSettings = settings;
        else delete entry.auditorSettings;
        await rc.deps.writer.replaceWorkspace(ws);
      },
    };
  }
  return {
    settings: agent.spec.auditorSettings,
    save: async (settings) => {
      agent.spec.auditorSettings = settings;
      await rc.deps.writer.replaceAgent(agent);
    },
  };
}
