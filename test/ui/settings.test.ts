// Auditor settings per tier in chromium against the facade: a workspace's
// settings opened from the scope picker, each control derived from the
// auditor's schema (slider, toggle, text, tag input, number), the inheritance
// badge saying where each value comes from, override and reset, a 422 shown
// beside the field it concerns with what was typed kept; at the agent tier a
// value the org locks is disabled, and an ended session loses nothing typed.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { createTiers, defaultOwners, useApi, type Persona } from '../integration/api-harness.ts';
import { kubeConfig, useNamespace } from '../integration/harness.ts';
import { launch, screenshots, seriousViolations } from './browser.ts';

const ns = useNamespace('ui-settings');
const fx = useApi(ns);
const state = { browser: undefined as unknown as Browser, org: '', agent: '' };
const PATH = '/v1/auditors/settings';

const put = async (who: Persona, body: Record<string, unknown>) => {
  const r = await fx.call('PUT', PATH, { key: fx.keys[who], body });
  if (r.status !== 200) throw new Error(`PUT settings: ${r.status} ${JSON.stringify(r.body)}`);
};

/** The tier's stored view of `<auditor>.<setting>` (camelCase), as the API holds it. */
async function stored(query: Record<string, string>, auditor: string, setting: string) {
  const r = await fx.call('GET', `${PATH}?${new URLSearchParams(query).toString()}`, {
    key: fx.keys.org_admin,
  });
  return r.body.items?.find((i) => i.auditor_id === auditor && i.setting === setting);
}

beforeAll(async () => {
  state.org = `org-${ns.name}`;
  await createTiers({ org: state.org, homeNamespace: ns.name, namespace: ns.name });
  state.agent = await fx.createAgent('bot', defaultOwners(), { workspace: 'ws' });
  await put('org_admin', {
    scope: 'org',
    organization: state.org,
    auditor_id: 'toxicity',
    setting: 'threshold',
    value: 0.6,
  });
  await put('org_admin', {
    scope: 'org',
    organization: state.org,
    auditor_id: 'injection',
    setting: 'threshold',
    value: 0.9,
    locked: true,
  });
  state.browser = await launch();
}, 120_000);

afterAll(async () => {
  await state.browser?.close();
  await kubeConfig()
    .makeApiClient(k8s.CustomObjectsApi)
    .deleteClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL.organization,
      name: state.org,
    })
    .catch(() => undefined);
});

async function signedIn(key: string, hash: string, heading = 'Auditor settings'): Promise<Page> {
  const page = await state.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${fx.api.url}/ui/${hash}`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

const setting = (page: Page, key: string): Locator =>
  page.locator(`[data-testid="setting"][data-key="${key}"]`);
const badge = (page: Page, key: string) => setting(page, key).getByTestId('setting-badge').textContent();
const WS = () => ({ scope: 'workspace', namespace: ns.name, workspace: 'ws' });

describe('settings of a workspace', () => {
  it('opens from the scope picker with each control from the schema and a badge per field', async () => {
    const page = await signedIn(fx.keys.org_admin, '#/settings');
    await page.getByLabel('Workspace', { exact: true }).check();
    // The picker offers the workspaces the person may see (GET /v1/scopes), with their organization.
    const workspace = page.getByRole('combobox', { name: 'Workspace' });
    expect(await workspace.locator('option').allTextContents()).toContain(`${ns.name}/ws · ${state.org}`);
    await workspace.selectOption(`${ns.name}/ws`);
    await page.getByRole('button', { name: 'Open settings' }).click();
    await page.getByLabel('Auditor', { exact: true }).selectOption('toxicity');
    await setting(page, 'threshold').waitFor();
    expect(page.url()).toContain(`#/settings/workspace/${ns.name}/ws`);
    expect(await badge(page, 'threshold')).toBe('INHERITED (from: org) · from the organization');
    expect(await badge(page, 'multilingual')).toBe('DEFAULT · from the auditor’s default');
    const threshold = page.getByLabel('Threshold', { exact: true });
    expect(await threshold.getAttribute('type')).toBe('range');
    expect(await threshold.inputValue()).toBe('0.6');
    expect(await page.getByRole('switch', { name: 'Block on detection' }).isChecked()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Replacement message' }).inputValue()).toBe(
      'Content filtered for safety',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'settings');
    await page.close();
  });

  it('overrides (a slider, a toggle) and resets, and the API holds each change', async () => {
    const page = await signedIn(fx.keys.workspace_admin, `#/settings/workspace/${ns.name}/ws`);
    await page.getByLabel('Auditor', { exact: true }).selectOption('toxicity');
    await expect.poll(() => badge(page, 'threshold')).toBe('INHERITED (from: org) · from the organization');
    await page.getByLabel('Threshold', { exact: true }).fill('0.45');
    await page.getByRole('button', { name: 'Override Threshold', exact: true }).click();
    await expect
      .poll(() => badge(page, 'threshold'))
      .toBe('OVERRIDDEN (org default: 0.6) · from the workspace');
    expect(await stored(WS(), 'toxicity', 'threshold')).toMatchObject({ value: 0.45, source: 'workspace' });
    await page.getByRole('switch', { name: 'Block on detection' }).uncheck();
    await page.getByRole('button', { name: 'Override Block on detection' }).click();
    await expect.poll(() => badge(page, 'block_on_detection')).toBe('DIRECT · from the workspace');
    expect(await stored(WS(), 'toxicity', 'blockOnDetection')).toMatchObject({ value: false });
    await page.getByRole('button', { name: 'Reset Threshold', exact: true }).click();
    await expect.poll(() => badge(page, 'threshold')).toBe('INHERITED (from: org) · from the organization');
    expect(await page.getByLabel('Threshold', { exact: true }).inputValue()).toBe('0.6');
    expect(await stored(WS(), 'toxicity', 'threshold')).toMatchObject({ value: 0.6, source: 'org' });
    await page.close();
  });

  it('edits a list with the tag input, and shows a refused number beside its field, keeping it', async () => {
    const page = await signedIn(fx.keys.workspace_admin, `#/settings/workspace/${ns.name}/ws`);
    await page.getByLabel('Auditor', { exact: true }).selectOption('injection');
    const tags = page.getByLabel('Ban substrings', { exact: true });
    await tags.fill('reveal the system prompt');
    await tags.press('Enter');
    await page
      .getByRole('button', { name: 'Remove ignore the above instructions from Ban substrings' })
      .click();
    await page.getByRole('button', { name: 'Override Ban substrings' }).click();
    await expect.poll(() => badge(page, 'ban_substrings')).toBe('DIRECT · from the workspace');
    const list = (await stored(WS(), 'injection', 'banSubstrings'))?.value as string[];
    expect(list).toContain('reveal the system prompt');
    expect(list).not.toContain('ignore the above instructions');

    await page.getByLabel('Auditor', { exact: true }).selectOption('model-context');
    const window = page.getByRole('spinbutton', { name: /^Default context window/ });
    await window.fill('5000000');
    await page.getByRole('button', { name: 'Override Default context window' }).click();
    const error = setting(page, 'default_context_window').getByRole('alert');
    await expect.poll(() => error.textContent()).toBe('Must be <= 2000000; got 5000000.');
    expect(await window.inputValue()).toBe('5000000');
    expect(await window.getAttribute('aria-invalid')).toBe('true');
    expect(await window.getAttribute('aria-describedby')).toContain('-error');
    expect(await stored(WS(), 'model-context', 'defaultContextWindow')).toBeUndefined();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'settings-error');
    await window.fill('64000');
    await page.getByRole('button', { name: 'Override Default context window' }).click();
    await expect.poll(() => error.count()).toBe(0);
    expect(await stored(WS(), 'model-context', 'defaultContextWindow')).toMatchObject({ value: 64000 });
    await page.close();
  });
});

describe('settings of an agent', () => {
  it('shows an org lock disabled, and after an ended session keeps what was typed', async () => {
    const minted = await fx.call('POST', '/v1/api-keys', {
      key: fx.keys.owner,
      body: { description: 'ui settings' },
    });
    const page = await signedIn(String(minted.body.key), `#/agents/${state.agent}`, state.agent);
    await page.getByRole('link', { name: 'Auditor settings' }).click();
    await page.getByLabel('Auditor', { exact: true }).selectOption('injection');
    await setting(page, 'threshold').waitFor();
    expect(await badge(page, 'threshold')).toBe('LOCKED (Set by Org Admin) · from the organization');
    expect(await page.getByLabel('Threshold', { exact: true }).isDisabled()).toBe(true);
    await page.getByRole('spinbutton', { name: /^Max token limit/ }).fill('2048');
    const revoked = await fx.call('DELETE', `/v1/api-keys/${String(minted.body.id)}`, { key: fx.keys.owner });
    expect(revoked.status).toBe(204);
    await page.getByRole('button', { name: 'Override Max token limit' }).click();
    await page.getByRole('heading', { name: 'Sign in to Agent Platform' }).waitFor();
    await page.getByLabel('API key').fill(fx.keys.owner);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const limit = page.getByRole('spinbutton', { name: /^Max token limit/ });
    await limit.waitFor();
    expect(await limit.inputValue()).toBe('2048');
    await page.getByRole('button', { name: 'Override Max token limit' }).click();
    await expect.poll(() => badge(page, 'max_token_limit')).toBe('DIRECT · from this agent');
    const agent = { scope: 'agent', agent_id: state.agent };
    expect(await stored(agent, 'injection', 'maxTokenLimit')).toMatchObject({ value: 2048, source: 'agent' });
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
