// /api/v1/workflows against the real apiserver: a two-node workflow is
// created, deployed (two PlatformAgents owned by the Workflow), stopped (both
// suspended), aggregated into one composite passport; bad graphs are 422
// naming the problem and write nothing; only administrators of the
// workflow's namespace reach it (decision 118).
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../crds/generated/types.ts';
import { k8s } from '../../base/kube.ts';
import { defaultOwners, storedAgent, useApi } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

const ns = useNamespace('api-workflows');
const fx = useApi(ns);

const spec = () => ({ owners: defaultOwners(), model: { id: 'gpt-test' } });
const twoNodes = () => ({
  nodes: [
    { name: 'lead', agent: 'wf-lead', role: 'triage', spec: spec() },
    { name: 'helper', agent: 'wf-helper', spec: spec() },
  ],
  edges: [{ from: 'lead', to: 'helper', condition: 'needs a lookup' }],
});
const id = () => `${ns.name}.triage`;
const path = (suffix = '') => `/api/v1/workflows/${id()}${suffix}`;

const storedWorkflow = async (name: string): Promise<Workflow | undefined> =>
  (await kubeConfig()
    .makeApiClient(k8s.CustomObjectsApi)
    .getNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'workflows',
      namespace: ns.name,
      name,
    })
    .catch(() => undefined)) as Workflow | undefined;

describe('workflows', () => {
  it('a workspace administrator creates a two-node workflow (draft)', async () => {
    const r = await fx.call('POST', '/api/v1/workflows', {
      key: fx.keys.workspace_admin,
      body: { namespace: ns.name, name: 'triage', description: 'two agents', ...twoNodes() },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ workflow_id: id(), phase: 'draft', deployed: false, agents: [] });
    expect((r.body.nodes as unknown[]).length).toBe(2);
  });

  it('refuses create and deploy from non-administrators; lists only what the caller administers', async () => {
    for (const who of ['owner', 'editor', 'viewer', 'stranger'] as const) {
      const c = await fx.call('POST', '/api/v1/workflows', {
        key: fx.keys[who],
        body: { namespace: ns.name, name: `by-${who}`, ...twoNodes() },
      });
      expect(c.status).toBe(403);
      expect((await fx.call('POST', path('/deploy'), { key: fx.keys[who] })).status).toBe(403);
      expect((await fx.call('GET', path(), { key: fx.keys[who] })).status).toBe(403);
      const l = await fx.call('GET', '/api/v1/workflows', { key: fx.keys[who] });
      expect(l.status).toBe(200);
      expect(l.body.items).toEqual([]);
    }
    expect(await storedWorkflow('by-owner')).toBeUndefined();
    const l = await fx.call('GET', '/api/v1/workflows', { key: fx.keys.workspace_admin });
    expect(l.body.items?.map((w) => w.workflow_id)).toContain(id());
  });

  it('a workspace administrator of another namespace is refused', async () => {
    const other = await fx.call('POST', '/v1/api-keys', {
      key: fx.keys.org_admin,
      body: { subject: 'otto@example.com', role: 'workspace_admin', workspaces: ['elsewhere'] },
    });
    const key = String(other.body.key);
    expect((await fx.call('GET', path(), { key })).status).toBe(403);
    expect((await fx.call('POST', path('/deploy'), { key })).status).toBe(403);
  });

  it('a bad graph update is 422 naming the problem, and nothing is written', async () => {
    const before = await storedWorkflow('triage');
    const cases: [unknown, RegExp][] = [
      [{ ...twoNodes(), edges: [{ from: 'lead', to: 'ghost' }] }, /edges\[0\]: unknown node "ghost"/],
      [{ ...twoNodes(), edges: [{ from: 'lead', to: 'lead' }] }, /node "lead" delegates to itself/],
      [
        { nodes: [...twoNodes().nodes, { name: 'lead', agent: 'x', spec: spec() }] },
        /node "lead" appears twice/,
      ],
      [
        {
          ...twoNodes(),
          edges: [
            { from: 'lead', to: 'helper' },
            { from: 'helper', to: 'lead' },
          ],
        },
        /delegation cycle lead -> helper -> lead/,
      ],
      [
        { nodes: Array.from({ length: 65 }, (_, i) => ({ name: `n${i}`, agent: `a${i}`, spec: spec() })) },
        /65 nodes, at most 64/,
      ],
      [
        { nodes: [{ name: 'lead', agent: 'x', spec: { model: { id: 'm' } } }] },
        /needs at least one entry with role Owner/,
      ],
    ];
    for (const [body, detail] of cases) {
      const r = await fx.call('PUT', path(), { key: fx.keys.org_admin, body });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.code).toBe('invalid_graph');
      expect(r.body.detail).toMatch(detail);
    }
    expect((await storedWorkflow('triage'))?.metadata.resourceVersion).toBe(before?.metadata.resourceVersion);
  });

  it('deploy creates both agents owned by the workflow; deploying again changes nothing', async () => {
    const r = await fx.call('POST', path('/deploy'), { key: fx.keys.workspace_admin });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // No operator runs here: the new agents are not observed yet (api-workflows-phase moves it on).
    expect(r.body).toMatchObject({
      phase: 'deploying',
      deployed: true,
      agents: [
        { node: 'lead', agent_id: `${ns.name}.wf-lead` },
        { node: 'helper', agent_id: `${ns.name}.wf-helper` },
      ],
    });
    const wf = await storedWorkflow('triage');
    for (const name of ['wf-lead', 'wf-helper']) {
      const a = await storedAgent(ns.name, name);
      expect(a.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Workflow', uid: wf?.metadata.uid });
      expect(a.spec.suspend).toBeUndefined();
      await fx.until(`/v1/agents/${ns.name}.${name}`, (g) => g.status === 200);
    }
    const again = await fx.call('POST', path('/deploy'), { key: fx.keys.org_admin });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.phase).toBe('deploying');
  });

  it('the composite passport aggregates the passports of both agents', async () => {
    const r = await fx.call('GET', path('/passport'), { key: fx.keys.workspace_admin });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.workflow_id).toBe(id());
    const agents = r.body.agents as { node: string; agent_id: string; passport: { agent_id: string } }[];
    expect(agents.map((a) => [a.node, a.passport.agent_id])).toEqual([
      ['lead', `${ns.name}.wf-lead`],
      ['helper', `${ns.name}.wf-helper`],
    ]);
    expect(r.body.missing).toEqual([]);
  });

  it('stop suspends both agents; deploy resumes them', async () => {
    const r = await fx.call('POST', path('/stop'), { key: fx.keys.workspace_admin });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ phase: 'stopped', deployed: false });
    for (const name of ['wf-lead', 'wf-helper'])
      expect((await storedAgent(ns.name, name)).spec.suspend).toBe(true);
    expect((await fx.call('POST', path('/deploy'), { key: fx.keys.org_admin })).status).toBe(200);
    for (const name of ['wf-lead', 'wf-helper'])
      expect((await storedAgent(ns.name, name)).spec.suspend).toBeUndefined();
  });

  it('deploy refuses to take over an agent it did not create (409) and writes nothing', async () => {
    const other = await fx.createAgent('taken');
    const body = { namespace: ns.name, name: 'grab', nodes: [{ name: 'x', agent: 'taken', spec: spec() }] };
    expect((await fx.call('POST', '/api/v1/workflows', { key: fx.keys.org_admin, body })).status).toBe(201);
    const r = await fx.call('POST', `/api/v1/workflows/${ns.name}.grab/deploy`, { key: fx.keys.org_admin });
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.detail).toContain(other);
    expect((await storedAgent(ns.name, 'taken')).metadata.ownerReferences).toBeUndefined();
    expect((await storedWorkflow('grab'))?.spec.deployed).toBe(false);
  });

  it('DELETE refuses a deployed workflow (409) and non-administrators (403), writing nothing', async () => {
    const deployed = await fx.call('DELETE', path(), { key: fx.keys.org_admin });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(409);
    expect(deployed.body).toMatchObject({ code: 'workflow_deployed' });
    expect(deployed.body.detail).toContain('stop it first');
    expect((await fx.call('POST', path('/stop'), { key: fx.keys.org_admin })).status).toBe(200);
    for (const who of ['owner', 'editor', 'viewer', 'stranger'] as const)
      expect((await fx.call('DELETE', path(), { key: fx.keys[who] })).status).toBe(403);
    expect(await storedWorkflow('triage')).toBeDefined();
    expect((await storedAgent(ns.name, 'wf-lead')).metadata.deletionTimestamp).toBeUndefined();
  });

  it('DELETE of a stopped workflow removes it and, through ownership, its agents', async () => {
    const r = await fx.call('DELETE', path(), { key: fx.keys.workspace_admin });
    expect(r.status, JSON.stringify(r.body)).toBe(204);
    expect(await storedWorkflow('triage')).toBeUndefined();
    expect((await fx.call('GET', path(), { key: fx.keys.org_admin })).status).toBe(404);
    expect((await fx.call('DELETE', path(), { key: fx.keys.org_admin })).status).toBe(404);
    const api = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
    const gone = async (name: string) =>
      (await api
        .getNamespacedCustomObject({
          group: GROUP,
          version: VERSION,
          plural: 'platformagents',
          namespace: ns.name,
          name,
        })
        .then(() => false)
        .catch(() => true))
        ? true
        : undefined;
    await eventually(() => gone('wf-lead'), 'the lead agent to be garbage-collected');
    await eventually(() => gone('wf-helper'), 'the helper agent to be garbage-collected');
  });

  it('unknown workflows are 404; bad bodies are 400', async () => {
    expect(
      (await fx.call('GET', `/api/v1/workflows/${ns.name}.nope`, { key: fx.keys.org_admin })).status,
    ).toBe(404);
    expect((await fx.call('GET', '/api/v1/workflows/nodot', { key: fx.keys.org_admin })).status).toBe(404);
    const r = await fx.call('POST', '/api/v1/workflows', {
      key: fx.keys.org_admin,
      body: { namespace: ns.name, name: 'Bad Name', nodes: [] },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_body');
  });
});
