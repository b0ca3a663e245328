// The Verifier's MCP endpoint against the real apiserver, called with the
// official SDK client: the tools, the REST permissions behind them (a Viewer
// is refused a write as a tool error), unauthenticated callers refused, bad
// arguments named, the concurrency cap (429) and MCP_ENABLED=false (404);
// auditor_settings answers as /v1/auditors/settings does (badges, locks).
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization, PlatformAgent } from '../../crds/generated/types.ts';
import { k8s } from '../../base/kube.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';
import { defaultOwners, storedAgent, useApi, type ApiFixture, type Persona } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';

const ns = useNamespace('api-mcp');
const fx = useApi(ns, () => ({ MCP_MAX_CONCURRENT_CALLS: '1' }));

async function clientAs(api: ApiFixture, persona: Persona | undefined): Promise<Client> {
  const headers: Record<string, string> = persona ? { authorization: `Bearer ${api.keys[persona]}` } : {};
  const client = new Client({ name: 'api-mcp-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${api.api.url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

interface ToolAnswer {
  isError?: boolean;
  value: Record<string, unknown> & { detail?: string; code?: string; status?: number };
}

async function callTool(persona: Persona, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const client = await clientAs(fx, persona);
  try {
    const r = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    return { isError: r.isError, value: JSON.parse(r.content[0]!.text) as ToolAnswer['value'] };
  } finally {
    await client.close();
  }
}

const policyId = (name: string): string => `${ns.name}.${name}`;
const SPEC = (): Record<string, unknown> => ({ scope: 'workspace', scopeId: ns.name });

describe('MCP tools', () => {
  it('lists the tools and serves discovery metadata', async () => {
    const client = await clientAs(fx, 'viewer');
    const { tools } = await client.listTools();
    await client.close();
    expect(tools.map((t) => t.name)).toContain('auditor_policy');
    const meta = await fx.call('GET', '/.well-known/mcp');
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ endpoint: '/mcp', transport: 'streamable-http' });
  });

  it('auditor_policy creates, reads and lists as org admin, as the REST routes do', async () => {
    const id = policyId('mcp-one');
    const created = await callTool('org_admin', 'auditor_policy', { operation: 'create', id, spec: SPEC() });
    expect(created.isError).toBeFalsy();
    expect(created.value).toMatchObject({ id });
    const rest = await fx.call('GET', `/v1/policies/${id}`, { key: fx.keys.org_admin });
    expect(rest.status).toBe(200);
    const read = await callTool('org_admin', 'auditor_policy', { operation: 'get', id });
    expect(read.value).toMatchObject({ id, spec: { scope: 'workspace' } });
    const listed = await callTool('org_admin', 'auditor_policy', { operation: 'list' });
    expect((listed.value.items as { id: string }[]).map((p) => p.id)).toContain(id);
  });

  it('refuses a Viewer a write as a tool error and writes nothing', async () => {
    const id = policyId('mcp-viewer');
    const r = await callTool('viewer', 'auditor_policy', { operation: 'create', id, spec: SPEC() });
    expect(r.isError).toBe(true);
    expect(r.value).toMatchObject({ code: 'forbidden', status: 403 });
    expect(r.value.detail).toContain('policy.write');
    const rest = await fx.call('GET', `/v1/policies/${id}`, { key: fx.keys.org_admin });
    expect(rest.status).toBe(404);
  });

  it('names a bad argument in a tool error (no 5xx)', async () => {
    const missing = await callTool('org_admin', 'auditor_policy', { operation: 'get' });
    expect(missing.isError).toBe(true);
    expect(missing.value).toMatchObject({ code: 'invalid_arguments', status: 400 });
    expect(missing.value.detail).toContain('id');
    const bad = await callTool('org_admin', 'auditor_policy', { operation: 'drop', id: 'x' });
    expect(bad.value.detail).toContain('arguments/operation');
    const unknown = await callTool('org_admin', 'no_such_tool', {});
    expect(unknown.value).toMatchObject({ code: 'unknown_tool' });
  });

  it('refuses an unauthenticated caller with 401', async () => {
    await expect(clientAs(fx, undefined)).rejects.toThrow(/unauthenticated/);
    const r = await fx.call('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(r.status).toBe(401);
  });

  it('refuses a call over MCP_MAX_CONCURRENT_CALLS with 429 and frees the slot after', async () => {
    // A request whose body never completes holds the only slot.
    const held = request(`${fx.api.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fx.keys.org_admin}`,
        'content-type': 'application/json',
        'content-length': '1000',
      },
    });
    held.on('error', () => undefined);
    held.write('{"jsonrpc":');
    const over = await eventually(async () => {
      const r = await fx.call('POST', '/mcp', {
        key: fx.keys.viewer,
        body: { jsonrpc: '2.0', id: 1, method: 'ping' },
      });
      return r.status === 429 ? r : undefined;
    }, '429 over the cap');
    expect(over.body).toMatchObject({ code: 'too_many_calls' });
    held.destroy();
    const client = await eventually(() => clientAs(fx, 'viewer').catch(() => undefined), 'slot freed');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe('auditor_settings', () => {
  const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  // The namespace is named when the file's setup runs, after describe.
  let org = '';
  let agentId = '';
  const ORGS = { group: GROUP, version: VERSION, plural: 'organizations' };
  const set = (
    persona: Persona,
    scope: string,
    target: Record<string, string>,
    setting: Record<string, unknown>,
  ) => callTool(persona, 'auditor_settings', { operation: 'set', scope, ...target, ...setting });

  beforeAll(async () => {
    org = `${ns.name}-org`;
    agentId = `${ns.name}.mcp-agent`;
    await custom().createClusterCustomObject({
      ...ORGS,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'Organization',
        metadata: { name: org },
        spec: { homeNamespace: ns.name },
      },
    });
    await custom().createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'platformworkspaces',
      namespace: ns.name,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'PlatformWorkspace',
        metadata: { name: 'team' },
        spec: { organization: org },
      },
    });
    const r = await fx.call('POST', '/v1/agents', {
      key: fx.keys.org_admin,
      body: {
        namespace: ns.name,
        name: 'mcp-agent',
        spec: { owners: defaultOwners(), workspace: 'team', model: { id: 'm' } },
      },
    });
    expect(r.status).toBe(201);
  });
  afterAll(async () => {
    await custom().deleteClusterCustomObject({ ...ORGS, name: org });
  });

  it('lets an org admin lock an org value, and refuses a lower tier the locked setting (409)', async () => {
    const locked = await set(
      'org_admin',
      'org',
      { organization: org },
      {
        auditor_id: 'injection',
        setting: 'threshold',
        value: 0.7,
        locked: true,
      },
    );
    expect(locked.isError).toBeFalsy();
    expect(locked.value).toMatchObject({
      scope: 'org',
      target: { organization: org },
      setting: { value: 0.7, badge: 'DIRECT', locked: true },
    });
    const stored = (await custom().getClusterCustomObject({ ...ORGS, name: org })) as Organization;
    expect(stored.spec.defaults?.auditorSettings?.injection?.threshold).toEqual({
      value: 0.7,
      enforced: true,
    });
    const below = await set(
      'workspace_admin',
      'workspace',
      { namespace: ns.name, workspace: 'team' },
      {
        auditor_id: 'injection',
        setting: 'threshold',
        value: 0.2,
      },
    );
    expect(below.isError).toBe(true);
    expect(below.value).toMatchObject({ code: 'setting_locked', status: 409 });
    expect(below.value.detail).toContain('injection.threshold is LOCKED (Set by Org Admin)');
    const resetBelow = await callTool('owner', 'auditor_settings', {
      operation: 'reset',
      scope: 'agent',
      agent_id: agentId,
      auditor_id: 'injection',
      setting: 'threshold',
    });
    expect(resetBelow.value).toMatchObject({ code: 'setting_locked', status: 409 });
  });

  it('lets an Owner set the agent tier and refuses a Viewer with the route detail, writing nothing', async () => {
    const viewer = await set(
      'viewer',
      'agent',
      { agent_id: agentId },
      {
        auditor_id: 'toxicity',
        setting: 'threshold',
        value: 0.5,
      },
    );
    expect(viewer.isError).toBe(true);
    expect(viewer.value).toMatchObject({ code: 'forbidden', status: 403 });
    expect(viewer.value.detail).toContain(`may not change auditor settings of agent ${agentId}`);
    expect((await storedAgent(ns.name, 'mcp-agent')).spec.auditorSettings?.toxicity).toBeUndefined();
    const wsOnOrg = await set(
      'workspace_admin',
      'org',
      { organization: org },
      {
        auditor_id: 'toxicity',
        setting: 'threshold',
        value: 0.5,
      },
    );
    expect(wsOnOrg.value).toMatchObject({ code: 'forbidden', status: 403 });
    const owner = await set(
      'owner',
      'agent',
      { agent_id: agentId },
      {
        auditor_id: 'toxicity',
        setting: 'threshold',
        value: 0.6,
      },
    );
    expect(owner.isError).toBeFalsy();
    expect(owner.value).toMatchObject({ setting: { value: 0.6, source: 'agent', badge: 'DIRECT' } });
    const agent: PlatformAgent = await storedAgent(ns.name, 'mcp-agent');
    expect(agent.spec.auditorSettings?.toxicity?.threshold).toMatchObject({ value: 0.6 });
  });

  it('answers a get with the badges of every setting the tier sees', async () => {
    const read = await callTool('viewer', 'auditor_settings', {
      operation: 'get',
      scope: 'agent',
      agent_id: agentId,
    });
    expect(read.isError).toBeFalsy();
    const items = read.value.items as { auditor_id: string; setting: string }[];
    const item = (auditor: string, setting: string) =>
      items.find((i) => i.auditor_id === auditor && i.setting === setting);
    expect(read.value).toMatchObject({ scope: 'agent', target: { agent_id: agentId } });
    expect(item('injection', 'threshold')).toMatchObject({
      value: 0.7,
      source: 'org',
      badge: 'LOCKED (Set by Org Admin)',
      editable: false,
    });
    expect(item('toxicity', 'threshold')).toMatchObject({ value: 0.6, badge: 'DIRECT', editable: true });
  });

  it('refuses a bad value (422) or a missing target (400) with the route detail, and resets a setting', async () => {
    const bad = await set(
      'owner',
      'agent',
      { agent_id: agentId },
      {
        auditor_id: 'toxicity',
        setting: 'threshold',
        value: 'high',
      },
    );
    expect(bad.value).toMatchObject({ code: 'invalid_setting', status: 422 });
    const noTarget = await callTool('owner', 'auditor_settings', { operation: 'get', scope: 'agent' });
    expect(noTarget.value).toMatchObject({ status: 400, detail: 'scope agent needs agent_id' });
    const reset = await callTool('owner', 'auditor_settings', {
      operation: 'reset',
      scope: 'agent',
      agent_id: agentId,
      auditor_id: 'toxicity',
      setting: 'threshold',
    });
    expect(reset.isError).toBeFalsy();
    expect(reset.value).toMatchObject({ removed: true, setting: null });
    const agent = await storedAgent(ns.name, 'mcp-agent');
    expect(agent.spec.auditorSettings?.toxicity?.threshold).toBeUndefined();
  });
});

describe('MCP_ENABLED=false', () => {
  const off = useApi(ns, () => ({ MCP_ENABLED: 'false' }));
  it('serves neither the endpoint nor the metadata', async () => {
    const r = await off.call('POST', '/mcp', {
      key: off.keys.org_admin,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(r.status).toBe(404);
    expect((await off.call('GET', '/.well-known/mcp')).status).toBe(404);
  });
});
