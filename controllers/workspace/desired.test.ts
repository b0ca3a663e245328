import { describe, expect, it } from 'vitest';
import type { Organization, PlatformAgent, PlatformWorkspace } from '../../crds/generated/types.ts';
import { agentChain } from '../agent/chain.ts';
import {
  agentPatch,
  desiredAgents,
  desiredChainConfigMap,
  mergeOwners,
  replacing,
  workspaceChainCheck,
  workspaceConditions,
} from './desired.ts';

const org: Organization = {
  apiVersion: 'platform.io/v1alpha1',
  kind: 'Organization',
  metadata: { name: 'acme' },
  spec: {
    homeNamespace: 'acme',
    requiredAuditors: ['injection'],
    frameworks: [{ name: 'hipaa', requiredAuditors: ['phi'] }],
  },
};

function ws(spec: Partial<PlatformWorkspace['spec']> = {}): PlatformWorkspace {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformWorkspace',
    metadata: { name: 'team', namespace: 'team', uid: 'ws-uid', generation: 2 },
    spec: {
      organization: 'acme',
      frameworks: ['hipaa'],
      defaults: {
        owners: [{ subject: 'alice', role: 'Owner' }],
        auditorChain: { preRequest: [{ auditorId: 'toxicity' }], postResponse: [{ auditorId: 'judge-2' }] },
      },
      agents: [
        { name: 'planner', model: { id: 'm' } },
        {
          name: 'coder',
          owners: [
            { subject: 'alice', role: 'Viewer' },
            { subject: 'bob', role: 'Owner' },
          ],
        },
      ],
      ...spec,
    },
  };
}

describe('workspace agents', () => {
  it('makes one owned agent per entry with owners from the defaults and the entry, the entry winning', () => {
    const [planner, coder] = desiredAgents(ws());
    expect(planner!.body.metadata).toMatchObject({
      name: 'planner',
      namespace: 'team',
      labels: { 'platform.io/workspace': 'team' },
      ownerReferences: [{ kind: 'PlatformWorkspace', uid: 'ws-uid', controller: true }],
    });
    expect(planner!.body.spec).toEqual({
      workspace: 'team',
      owners: [{ subject: 'alice', role: 'Owner' }],
      model: { id: 'm' },
    });
    expect(coder!.body.spec.owners).toEqual([
      { subject: 'alice', role: 'Viewer' },
      { subject: 'bob', role: 'Owner' },
    ]);
    expect(coder!.patch.spec).toMatchObject({ model: null, abilities: null });
  });

  it('changes an agent hash only when its entry or the defaults change', () => {
    const before = desiredAgents(ws()).map((a) => a.hash);
    expect(desiredAgents(ws({ displayName: 'Team' })).map((a) => a.hash)).toEqual(before);
    const changed = desiredAgents(ws({ defaults: { owners: [] } })).map((a) => a.hash);
    expect(changed[0]).not.toBe(before[0]);
  });

  it('merges owners without duplicates', () => {
    expect(mergeOwners([{ subject: 'a', role: 'Owner' }], [{ subject: 'a', role: 'Editor' }])).toEqual([
      { subject: 'a', role: 'Editor' },
    ]);
  });
});

describe('chain ConfigMap and workspace chain', () => {
  it('writes the composed chain, user postResponse auditors last', () => {
    expect(desiredChainConfigMap(ws(), org).data).toEqual({
      preRequest: 'model-context,llm-judge,injection,phi,toxicity',
      postResponse: 'judge-2',
    });
  });

  it('reports unknown auditors and undefined frameworks', () => {
    const known = new Set(['model-context', 'llm-judge', 'injection', 'phi', 'toxicity']);
    expect(workspaceChainCheck(ws(), org, known).condition).toMatchObject({
      status: 'False',
      reason: 'UnknownAuditor',
    });
    expect(
      workspaceChainCheck(ws({ frameworks: ['sox'] }), org, new Set([...known, 'judge-2'])).condition,
    ).toMatchObject({
      reason: 'UnknownFramework',
    });
  });

  it('gives an agent the workspace chain plus its own, and refuses an explicit chain that drops a required auditor', () => {
    const known = new Set(['model-context', 'llm-judge', 'injection', 'phi', 'toxicity', 'judge-2', 'pii']);
    const agent = {
      apiVersion: 'platform.io/v1alpha1' as const,
      kind: 'PlatformAgent' as const,
      metadata: {
        name: 'planner',
        namespace: 'team',
        annotations: { 'platform.computing/auditor-chain': 'pii' },
      },
      spec: { workspace: 'team' },
    };
    const chain = agentChain(agent, ws(), org, { known });
    expect(chain.ids).toEqual(['model-context', 'llm-judge', 'injection', 'phi', 'pii']);
    expect(chain.refused).toEqual([
      'auditor injection is required by organization acme and cannot be removed',
      'auditor phi is required by compliance framework hipaa and cannot be removed',
    ]);
  });
});

describe('workspaceConditions', () => {
  const chain = { type: 'ChainValid', status: 'True' as const, reason: 'Composed' };

  it('is Ready when the chain is valid, the organization found and every agent its own', () => {
    const conditions = workspaceConditions({ chain, organization: undefined, org: undefined, taken: [] });
    expect(conditions.map((c) => `${c.type}=${c.status}/${c.reason}`)).toEqual([
      'ChainValid=True/Composed',
      'OrganizationFound=True/NoOrganization',
      'AgentsReconciled=True/AgentsInSync',
      'Ready=True/Reconciled',
    ]);
  });

  it('reports a missing organization and agent names it does not own, and is not Ready', () => {
    const conditions = workspaceConditions({ chain, organization: 'acme', org: undefined, taken: ['bot'] });
    expect(conditions.map((c) => `${c.type}=${c.status}/${c.reason}`)).toEqual([
      'ChainValid=True/Composed',
      'OrganizationFound=False/OrganizationNotFound',
      'AgentsReconciled=False/AgentNameTaken',
      'Ready=False/SeeConditions',
    ]);
    expect(conditions[2]!.message).toContain('agent(s) bot exist and are not owned by this workspace');
    expect(conditions[3]!.message).toBe(
      'OrganizationFound is False: OrganizationNotFound; AgentsReconciled is False: AgentNameTaken',
    );
  });
});

describe('agentPatch: the entry’s model, abilities and environment replace the agent’s', () => {
  it('removes keys the entry dropped, deep inside the object too', () => {
    const current = {
      metadata: { name: 'planner', namespace: 'team' },
      spec: {
        model: { id: 'gpt-4o', temperature: 0.2 },
        abilities: { soul: { personality: 'terse', guidelines: ['a'] } },
        environment: { tools: [{ name: 'github' }], credentialRouting: [{ destination: 'api.github.com' }] },
      },
    } as unknown as PlatformAgent;
    const team = ws({
      agents: [
        {
          name: 'planner',
          model: { id: 'gpt-4o' },
          abilities: { soul: { guidelines: ['b'] } },
          environment: { tools: [{ name: 'github' }] },
        },
      ],
    });
    const spec = agentPatch(desiredAgents(team)[0]!, current).spec as Record<string, unknown>;
    expect(spec.model).toEqual({ id: 'gpt-4o', temperature: null });
    expect(spec.abilities).toEqual({ soul: { personality: null, guidelines: ['b'] } });
    expect(spec.environment).toEqual({ tools: [{ name: 'github' }], credentialRouting: null });
  });
});

describe('agentPatch: the entry’s auditorSettings replace the agent’s', () => {
  const current = {
    metadata: { name: 'planner', namespace: 'team' },
    spec: {
      auditorSettings: {
        injection: { threshold: { value: 0.5 }, banSubstrings: { value: ['x'] } },
        toxicity: { threshold: { value: 0.7 } },
      },
    },
  } as unknown as PlatformAgent;

  it('clears settings the entry no longer has, keeping and updating the rest', () => {
    const team = ws({
      agents: [{ name: 'planner', auditorSettings: { injection: { threshold: { value: 0.6 } } } }],
    });
    const patch = agentPatch(desiredAgents(team)[0]!, current);
    expect((patch.spec as Record<string, unknown>).auditorSettings).toEqual({
      injection: { threshold: { value: 0.6 }, banSubstrings: null },
      toxicity: null,
    });
  });

  it('clears the whole field when the entry has none', () => {
    const patch = agentPatch(desiredAgents(ws({ agents: [{ name: 'planner' }] }))[0]!, current);
    expect((patch.spec as Record<string, unknown>).auditorSettings).toBeNull();
  });

  it('replacing: lists and scalars replace, maps lose keys only the current value has', () => {
    expect(replacing({ a: 1, b: { c: 2, d: 3 } }, { b: { c: [1] } })).toEqual({
      a: null,
      b: { c: [1], d: null },
    });
    expect(replacing(undefined, { a: 1 })).toEqual({ a: 1 });
    expect(replacing({ a: 1 }, null)).toBeNull();
  });
});
