// Credentials and tools per tier in chromium against the facade: an API key
// connected at the org tier and seen in effect for an agent of the
// workspace, rotated and revoked; an org-enforced credential refusing a
// workspace one (409 in words beside the service, nothing typed lost); a tool
// blocked at the workspace tier, then hidden in the creation wizard and shown
// blocked in the agent's effective view; a Viewer and an Editor refused. No
// key typed ever shows in the DOM after saving, nor in any answer the page got.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { createTiers, defaultOwners, useApi, type Persona } from '../integration/api-harness.ts';
import { kubeConfig, useNamespace } from '../integration/harness.ts';
import { launch, screenshots, seriousViolations } from './browser.ts';

const ns = useNamespace('ui-creds');
const fx = useApi(ns, () => ({ PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring` }));
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const RES = { group: GROUP, version: VERSION };
const state = { browser: undefined as unknown as Browser, org: '', agent: '' };
const app = { wiki: '', shell: '' };
const CANARY = {
  org: 'canary-ui-org-4f1c2a-secret',
  rotated: 'canary-ui-rotated-93be07-secret',
  ws: 'canary-ui-ws-0d6a51-secret',
  seeded: 'canary-ui-seeded-7a2e44-secret',
};
/** Every answer any page of this file received (status, headers and body), for the canary scan. */
const answers: string[] = [];

async function api(who: Persona, method: string, path: string, body?: Record<string, unknown>) {
  const r = await fx.call(method, path, { key: fx.keys[who], ...(body ? { body } : {}) });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const WS_ID = () => `${ns.name}.ws`;
const orgCreds = async () =>
  (await api('org_admin', 'GET', `/v1/scoped-credentials?scope=org&scope_id=${state.org}`)).items as {
    service: string;
    last_rotated_at: string | null;
  }[];

beforeAll(async () => {
  state.org = `org-${ns.name}`;
  app.wiki = `${ns.name}-wiki`;
  app.shell = `${ns.name}-shell`;
  for (const [name, displayName] of [
    [app.wiki, 'Wiki'],
    [app.shell, 'Shell'],
  ] as const)
    await custom().createClusterCustomObject({
      ...RES,
      plural: PLURAL.appCatalogEntry,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'AppCatalogEntry',
        metadata: { name },
        spec: { displayName, category: 'MCP Servers', type: 'mcp_server' },
      },
    });
  await createTiers({ org: state.org, homeNamespace: ns.name, namespace: ns.name });
  await fx.until(`/v1/app-catalog/${app.shell}`, (r) => r.status === 200);
  state.agent = await fx.createAgent('bot', defaultOwners(), { workspace: 'ws' });
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

async function signedIn(who: Persona, hash: string): Promise<Page> {
  const page = await state.browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('response', (r) => {
    void r
      .text()
      .then((body) => answers.push(JSON.stringify({ url: r.url(), headers: r.headers(), body })))
      .catch(() => undefined);
  });
  await page.goto(`${fx.api.url}/ui/${hash}`);
  await page.getByLabel('API key').fill(fx.keys[who]);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Credentials and tools', level: 1 }).waitFor();
  return page;
}

const credential = (page: Page, service: string) =>
  page.locator(`[data-testid="credential"][data-service="${service}"]`);
const noCanary = async (page: Page) => {
  const html = await page.content();
  for (const c of Object.values(CANARY)) expect(html).not.toContain(c);
};

describe('credentials at the org tier', () => {
  it('connects an API key, shows its status, and an agent of the workspace gets it', async () => {
    const page = await signedIn('org_admin', '#/credentials');
    await page.getByRole('combobox', { name: 'Organization' }).selectOption(state.org);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText('This tier holds no credential yet.').waitFor();
    expect(page.url()).toContain(`#/credentials/org/${state.org}`);
    expect(await page.getByText('Sign in with the provider (OAuth)').count()).toBe(0);
    await page.getByLabel('Service', { exact: true }).fill('jira');
    await page.getByLabel('Destinations (optional)').fill('jira.example.com');
    const key = page.getByLabel('API key', { exact: true });
    expect(await key.getAttribute('type')).toBe('password');
    await key.fill(CANARY.org);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('jira is connected.');
    await credential(page, 'jira').waitFor();
    expect(await credential(page, 'jira').getByTestId('auth-status').textContent()).toBe('Connected');
    expect(await credential(page, 'jira').textContent()).toContain('jira.example.com');
    expect(await key.inputValue()).toBe('');
    expect((await orgCreds()).map((c) => c.service)).toEqual(['jira']);
    await noCanary(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'credentials');

    await page.goto(`${fx.api.url}/ui/#/credentials/agent/${state.agent}`);
    const effective = page.locator('[data-testid="effective-credential"][data-service="jira"]');
    await effective.waitFor();
    expect(await effective.textContent()).toContain(`From the organization ${state.org}`);
    await page.close();
  });

  it('rotates the key (field cleared) and revokes after asking', async () => {
    const page = await signedIn('org_admin', `#/credentials/org/${state.org}`);
    await credential(page, 'jira').getByRole('button', { name: 'Rotate jira' }).click();
    const fresh = page.getByLabel('New key for jira');
    await page.getByRole('button', { name: 'Save new key' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Enter the new API key.');
    await fresh.fill(CANARY.rotated);
    await page.getByRole('button', { name: 'Save new key' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('The jira key was rotated.');
    expect(await page.getByLabel('New key for jira').count()).toBe(0);
    expect((await orgCreds())[0]?.last_rotated_at).toEqual(expect.any(String));
    await expect.poll(() => credential(page, 'jira').textContent()).not.toContain('Last rotatednever');
    await noCanary(page);

    await credential(page, 'jira').getByRole('button', { name: 'Revoke jira' }).click();
    expect(await page.getByRole('group', { name: 'Revoke jira?' }).textContent()).toContain(
      'agents that use it lose it',
    );
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(await orgCreds()).toHaveLength(1);
    await credential(page, 'jira').getByRole('button', { name: 'Revoke jira' }).click();
    await page.getByRole('button', { name: 'Yes, revoke jira' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toBe('The jira credential was revoked.');
    await expect.poll(() => credential(page, 'jira').count()).toBe(0);
    expect(await orgCreds()).toEqual([]);
    await page.close();
  });
});

describe('credentials at the workspace tier', () => {
  it('refuses a credential the organization enforces, beside the service, keeping what was typed', async () => {
    const seed = { scope: 'org', scope_id: state.org, material: CANARY.seeded };
    await api('org_admin', 'POST', '/v1/scoped-credentials', {
      ...seed,
      service: 'github',
      sharing_mode: 'enforce',
    });
    await api('org_admin', 'POST', '/v1/scoped-credentials', { ...seed, service: 'slack' });
    const page = await signedIn('workspace_admin', `#/credentials/workspace/${ns.name}/ws`);
    await page.getByText('This tier holds no credential yet.').waitFor();
    const service = page.getByLabel('Service', { exact: true });
    await service.fill('github');
    await page.getByLabel('API key', { exact: true }).fill(CANARY.ws);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const refusal = page.locator('#connect-service-error');
    await expect
      .poll(() => refusal.textContent())
      .toBe(
        `Organization ${state.org} enforces its credential for service github; a workspace cannot hold another (an org administrator may change its sharing mode).`,
      );
    expect(await service.getAttribute('aria-invalid')).toBe('true');
    expect(await service.inputValue()).toBe('github');
    expect(await page.getByLabel('API key', { exact: true }).inputValue()).toBe(CANARY.ws);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'credentials-refused');

    await service.fill('slack');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await credential(page, 'slack').waitFor();
    expect(await page.getByLabel('API key', { exact: true }).inputValue()).toBe('');
    await noCanary(page);

    await page.goto(`${fx.api.url}/ui/#/credentials/agent/${state.agent}`);
    const github = page.locator('[data-testid="effective-credential"][data-service="github"]');
    await github.waitFor();
    expect(await github.textContent()).toContain(`From the organization ${state.org}, enforced`);
    const slack = page.locator('[data-testid="effective-credential"][data-service="slack"]');
    expect(await slack.textContent()).toContain(`From the workspace ${ns.name}/ws`);
    expect(
      await page.locator('[data-testid="withheld-credential"][data-service="slack"]').textContent(),
    ).toBe(
      `slack of the organization ${state.org}: not used, because the workspace holds its own credential for this service.`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'credentials-agent');
    await page.close();
  });
});

const toolRow = (page: Page, tool: string) => page.locator(`[data-testid="tool"][data-tool="${tool}"]`);

describe('tools per tier', () => {
  it('blocks a tool at the workspace tier, refuses loosening the org, and the agent and wizard follow', async () => {
    await api('org_admin', 'POST', '/v1/scoped-tools', {
      scope: 'org',
      scope_id: state.org,
      tool: app.wiki,
      enforcement: 'required',
    });
    const page = await signedIn('workspace_admin', `#/credentials/workspace/${ns.name}/ws`);
    await toolRow(page, app.shell).waitFor();
    await toolRow(page, app.shell)
      .getByLabel(/^Shell/)
      .selectOption('blocked');
    await toolRow(page, app.shell).getByRole('button', { name: 'Save Shell' }).click();
    await expect
      .poll(() => toolRow(page, app.shell).getByTestId('tool-here').textContent())
      .toBe('set here: Blocked');
    const tools = await api('workspace_admin', 'GET', `/v1/scoped-tools?scope=workspace&scope_id=${WS_ID()}`);
    expect(tools.items).toEqual([expect.objectContaining({ tool: app.shell, enforcement: 'blocked' })]);

    await toolRow(page, app.wiki).getByLabel(/^Wiki/).selectOption('available');
    await toolRow(page, app.wiki).getByRole('button', { name: 'Save Wiki' }).click();
    await expect
      .poll(() => toolRow(page, app.wiki).getByRole('alert').textContent())
      .toBe(
        `Tool ${app.wiki} is required by organization ${state.org}; a workspace can only keep it required, not make it available.`,
      );
    expect(await toolRow(page, app.wiki).getByLabel(/^Wiki/).inputValue()).toBe('available');

    await page.goto(`${fx.api.url}/ui/#/credentials/agent/${state.agent}`);
    const shell = page.locator(`[data-testid="effective-tools"] tr[data-tool="${app.shell}"]`);
    await shell.waitFor();
    expect(await shell.textContent()).toContain(`${app.shell}Blockedfrom the workspace ${ns.name}/ws`);
    const wiki = page.locator(`[data-testid="effective-tools"] tr[data-tool="${app.wiki}"]`);
    expect(await wiki.textContent()).toContain(`Requiredfrom the organization ${state.org}`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'credentials-agent-tools');

    await page.goto(`${fx.api.url}/ui/#/agents/new`);
    await page.getByLabel('Name', { exact: true }).fill('creds-wizard');
    await page.getByLabel('Workspace (optional)').fill('ws');
    await page.getByRole('button', { name: 'Create and choose tools' }).click();
    const offered = (id: string) => page.locator(`[data-testid="wizard-tool"][data-app="${id}"]`);
    await offered(app.wiki).waitFor();
    expect(await offered(app.shell).count()).toBe(0);
    await page.close();
  });
});

describe('who may not', () => {
  it('shows a workspace administrator the org tier read only', async () => {
    const page = await signedIn('workspace_admin', `#/credentials/org/${state.org}`);
    await credential(page, 'github').waitFor();
    expect(await page.getByTestId('read-only').textContent()).toBe(
      'Read only: you may see this tier but not change it.',
    );
    expect(await page.getByRole('button', { name: 'Connect', exact: true }).count()).toBe(0);
    expect(await credential(page, 'github').getByRole('button').count()).toBe(0);
    expect(await toolRow(page, app.wiki).getByRole('combobox').isDisabled()).toBe(true);
    await page.close();
  });

  it('refuses a Viewer the workspace tier and an Editor the org tier, in words, with no form', async () => {
    const viewer = await signedIn('viewer', `#/credentials/workspace/${ns.name}/ws`);
    await expect
      .poll(() => viewer.getByRole('alert').first().textContent())
      .toMatch(
        /^You are not allowed to do this\. This is for an organization administrator or an administrator of the workspace \(scoped\.list\), and \S+ is not one\.$/,
      );
    expect(await viewer.getByRole('button', { name: 'Connect', exact: true }).count()).toBe(0);
    await viewer.close();
    const editor = await signedIn('editor', `#/credentials/org/${state.org}`);
    await expect
      .poll(() => editor.getByRole('alert').first().textContent())
      .toMatch(
        /^You are not allowed to do this\. This is for an organization administrator or an administrator of the workspace \(scoped\.list\), and \S+ is not one\.$/,
      );
    await editor.goto(`${fx.api.url}/ui/#/credentials/agent/${state.agent}`);
    await editor.locator('[data-testid="effective-credential"][data-service="github"]').waitFor();
    await editor.close();
  });

  it('never received a key in any answer', () => {
    expect(answers.length).toBeGreaterThan(20);
    for (const a of answers) for (const c of Object.values(CANARY)) expect(a).not.toContain(c);
  });
});
