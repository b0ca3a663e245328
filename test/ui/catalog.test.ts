// The app catalog and the creation wizard in chromium against the facade, on
// a workspace whose organization requires one tool and which blocks another:
// the catalog grouped by category, an install on an agent (and a required
// app's uninstall refused in words), and the wizard creating an agent with
// the blocked tool hidden and the required one pre-installed.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { createTiers, defaultOwners, SUBJECTS, useApi } from '../integration/api-harness.ts';
import { kubeConfig, useNamespace } from '../integration/harness.ts';
import { launch, screenshots, seriousViolations } from './browser.ts';

const ns = useNamespace('ui-catalog');
const fx = useApi(ns);
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const RES = { group: GROUP, version: VERSION };
const state = { browser: undefined as unknown as Browser, org: '', agent: '' };
const app = { jira: '', wiki: '', banned: '', planner: '' };

async function entry(name: string, category: string, type: string, displayName: string): Promise<void> {
  await custom().createClusterCustomObject({
    ...RES,
    plural: PLURAL.appCatalogEntry,
    body: {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: 'AppCatalogEntry',
      metadata: { name },
      spec: { displayName, category, type, description: `${displayName} for the team` },
    },
  });
}

async function rule(scope: 'org' | 'workspace', tool: string, enforcement: string): Promise<void> {
  const scope_id = scope === 'org' ? state.org : `${ns.name}.ws`;
  const r = await fx.call('POST', '/v1/scoped-tools', {
    key: fx.keys.org_admin,
    body: { scope, scope_id, tool, enforcement },
  });
  if (r.status !== 201) throw new Error(`scoped tool: ${r.status} ${JSON.stringify(r.body)}`);
}

beforeAll(async () => {
  state.org = `org-${ns.name}`;
  for (const k of Object.keys(app) as (keyof typeof app)[]) app[k] = `${ns.name}-${k}`;
  await entry(app.jira, 'MCP Servers', 'mcp_server', 'Jira');
  await entry(app.wiki, 'MCP Servers', 'mcp_server', 'Wiki');
  await entry(app.banned, 'MCP Servers', 'mcp_server', 'Banned drive');
  await entry(app.planner, 'A2A Agents', 'a2a_agent', 'Planner');
  await createTiers({ org: state.org, homeNamespace: ns.name, namespace: ns.name });
  await fx.until(`/v1/app-catalog/${app.planner}`, (r) => r.status === 200);
  await rule('org', app.jira, 'required');
  await rule('workspace', app.banned, 'blocked');
  state.agent = await fx.createAgent('helper', defaultOwners(), { workspace: 'ws' });
  state.browser = await launch();
}, 120_000);

afterAll(async () => {
  await state.browser?.close();
  for (const name of Object.values(app))
    await custom()
      .deleteClusterCustomObject({ ...RES, plural: PLURAL.appCatalogEntry, name })
      .catch(() => undefined);
  await custom()
    .deleteClusterCustomObject({ ...RES, plural: PLURAL.organization, name: state.org })
    .catch(() => undefined);
});

async function signedIn(key: string, hash: string, heading: string): Promise<Page> {
  const page = await state.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${fx.api.url}/ui/${hash}`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

const installed = async (agentId: string): Promise<string[]> => {
  const r = await fx.call('GET', `/v1/app-catalog/agents/${agentId}/installed`, { key: fx.keys.org_admin });
  return (r.body.items ?? []).map((i) => String(i.app_id)).sort();
};
const card = (page: Page, id: string) => page.locator(`[data-testid="app-card"][data-app="${id}"]`);

describe('the app catalog', () => {
  it('groups apps by category, hides what an agent may not have, installs, and says why a required app stays', async () => {
    const page = await signedIn(fx.keys.owner, '#/catalog', 'App catalog');
    await card(page, app.planner).waitFor();
    const headings = await page.getByTestId('category').getByRole('heading', { level: 2 }).allTextContents();
    expect(headings.slice(0, 3)).toEqual(['MCP Servers', 'Auditors', 'A2A Agents']);
    const mcp = page.getByTestId('category').filter({ hasText: 'MCP Servers' });
    expect(await mcp.getByRole('heading', { name: 'Banned drive' }).count()).toBe(1);
    expect(await card(page, 'builtin-toxicity').textContent()).toMatch(/auditor · trust tier/);

    await page.getByLabel('Install on agent').selectOption(state.agent);
    await expect.poll(() => card(page, app.banned).count()).toBe(0);
    await card(page, app.wiki).getByRole('button', { name: 'Install Wiki' }).click();
    await card(page, app.wiki).getByRole('button', { name: 'Uninstall Wiki' }).waitFor();
    expect(await installed(state.agent)).toEqual([app.wiki]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'catalog');

    expect(await card(page, app.jira).textContent()).toContain(`Required by organization ${state.org}`);
    await card(page, app.jira).getByRole('button', { name: 'Install Jira' }).click();
    await card(page, app.jira).getByRole('button', { name: 'Uninstall Jira' }).click();
    await expect
      .poll(() => card(page, app.jira).getByRole('alert').textContent())
      .toBe(
        `App ${app.jira} is required by organization ${state.org} and cannot be uninstalled; an administrator of that tier may change its enforcement.`,
      );
    expect(await installed(state.agent)).toEqual([app.jira, app.wiki].sort());
    await page.close();
  });
});

describe('the creation wizard', () => {
  it('creates an agent with the blocked tool hidden and the required one pre-installed', async () => {
    const page = await signedIn(fx.keys.workspace_admin, '#/agents', 'Agents');
    await page.getByRole('link', { name: 'New agent' }).click();
    await page.getByRole('heading', { name: 'New agent' }).waitFor();
    expect(await page.getByLabel('Namespace').inputValue()).toBe(ns.name);
    await page.getByLabel('Name', { exact: true }).fill('Wizard_Bot');
    await page.getByLabel('Workspace (optional)').fill('ws');
    await page.getByRole('button', { name: 'Create and choose tools' }).click();
    const name = page.getByLabel('Name', { exact: true });
    expect(await page.getByRole('alert').textContent()).toMatch(/^Lower-case letters, digits and hyphens/);
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Workspace (optional)').inputValue()).toBe('ws');
    await name.fill('wizard-bot');
    await page.getByRole('button', { name: 'Create and choose tools' }).click();

    const id = `${ns.name}.wizard-bot`;
    await page.getByRole('heading', { name: `Tools for ${id}` }).waitFor();
    const tool = (app_id: string) => page.locator(`[data-testid="wizard-tool"][data-app="${app_id}"]`);
    await tool(app.wiki).waitFor();
    expect(await tool(app.banned).count()).toBe(0);
    const jira = tool(app.jira).getByRole('checkbox');
    expect(await jira.isChecked()).toBe(true);
    expect(await jira.isDisabled()).toBe(true);
    expect(await tool(app.jira).textContent()).toContain(`required by organization ${state.org}`);
    await tool(app.wiki).getByRole('checkbox').check();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'wizard');
    await page.getByRole('button', { name: 'Install and finish' }).click();
    const done = page.getByTestId('wizard-done');
    await expect
      .poll(() => done.getByRole('status').textContent())
      .toBe(`Installed: ${app.jira}, ${app.wiki}.`);
    expect(await installed(id)).toEqual([app.jira, app.wiki].sort());
    const agent = await fx.call('GET', `/v1/agents/${id}`, { key: fx.keys.org_admin });
    expect(agent.body.spec).toMatchObject({
      workspace: 'ws',
      owners: [{ subject: SUBJECTS.workspace_admin, role: 'Owner' }],
    });
    await done.getByRole('link', { name: 'Open the agent' }).click();
    await page.getByRole('heading', { name: id, level: 1 }).waitFor();
    await page.close();
  });
});
