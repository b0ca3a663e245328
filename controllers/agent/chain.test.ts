import { describe, expect, it } from 'vitest';
import type { Organization, PlatformWorkspace } from '../../crds/generated/types.ts';
import { agentChain, chainCondition, chainUsable } from './chain.ts';
import type { PlatformAgent } from './types.ts';

const KNOWN = new Set(['injection', 'toxicity', 'model-context', 'llm-judge', 'pii']);

function agent(spec: PlatformAgent['spec'] = {}, annotations?: Record<string, string>): PlatformAgent {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformAgent',
    metadata: { name: 'a', namespace: 'team', ...(annotations ? { annotations } : {}) },
    spec,
  };
}

const workspace = {
  metadata: { name: 'research', namespace: 'team' },
  spec: { defaults: { auditorChain: { preRequest: [{ auditorId: 'pii' }] } } },
} as unknown as PlatformWorkspace;

describe('agentChain', () => {
  it('gives a standalone agent the built-in default chain: injection, toxicity, then the system auditors', () => {
    expect(agentChain(agent(), undefined, undefined, { known: KNOWN }).ids).toEqual([
      'injection',
      'toxicity',
      'model-context',
      'llm-judge',
    ]);
  });

  it("uses a standalone agent's own selection instead of the default chain", () => {
    const own = agent({ auditorChain: { preRequest: [{ auditorId: 'pii' }] } });
    expect(agentChain(own, undefined, undefined, { known: KNOWN }).ids).toEqual([
      'model-context',
      'llm-judge',
      'pii',
    ]);
  });

  it('lets an explicit chain drop the default auditors (they are user-selected), never the system ones', () => {
    const explicit = agent({}, { 'platform.computing/auditor-chain': 'injection' });
    const chain = agentChain(explicit, undefined, undefined, { known: KNOWN });
    expect(chain.ids).toEqual(['injection', 'model-context', 'llm-judge']);
    expect(chain.refused).toEqual([]);
  });

  it("gives a workspace agent the workspace's chain, not the built-in default", () => {
    const member = agent({ workspace: 'research' });
    const org = undefined as Organization | undefined;
    expect(agentChain(member, workspace, org, { known: KNOWN }).ids).toEqual([
      'model-context',
      'llm-judge',
      'pii',
    ]);
  });

  it("adds the auditors of the agent's installed apps, which an explicit chain keeps silently", () => {
    const installedApps = [{ app: 'scanner-app', auditors: ['scanner', 'pii'] }];
    const known = new Set([...KNOWN, 'scanner']);
    const member = agent({ workspace: 'research' });
    expect(agentChain(member, workspace, undefined, { known, installedApps }).ids).toEqual([
      'model-context',
      'llm-judge',
      'scanner',
      'pii',
    ]);
    const explicit = agent({}, { 'platform.computing/auditor-chain': 'injection' });
    const chain = agentChain(explicit, undefined, undefined, { known, installedApps });
    expect(chain.ids).toEqual(['injection', 'model-context', 'llm-judge', 'scanner', 'pii']);
    expect(chain.refused).toEqual([]);
  });

  it('reports an installed app whose auditor is not known', () => {
    const installedApps = [{ app: 'x', auditors: ['nope'] }];
    expect(agentChain(agent(), undefined, undefined, { known: KNOWN, installedApps }).unknown).toEqual([
      'nope',
    ]);
  });

  it('blocks a new pod while a registered auditor of the chain cannot be wired, saying why', () => {
    const why = 'auditor pii is reached with api_key auth, which an injected gateway cannot present yet';
    const unwireable = new Map([['pii', why]]);
    const chain = agentChain(agent({ workspace: 'research' }), workspace, undefined, {
      known: KNOWN,
      unwireable,
    });
    expect(chain.unwireable).toEqual([why]);
    expect(chainUsable(chain)).toBe(false);
    expect(chainCondition(chain)).toMatchObject({ status: 'False', reason: 'AuditorNotWireable' });
    expect(chainCondition(chain).message).toContain(why);
    const other = agentChain(agent(), undefined, undefined, { known: KNOWN, unwireable });
    expect(chainUsable(other)).toBe(true); // not in this chain: no effect
  });
});
