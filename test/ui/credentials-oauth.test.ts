// Connecting a credential by OAuth popup in chromium against the facade and a
// loopback authorization-code server of our own (the provider, the one
// boundary that cannot exist here): the popup signs in and the page says
// connected; a provider's refusal is said in words; a blocked popup is said
// in words with a link that opens it, and the page still learns the outcome;
// an OAuth credential is renewed by Reconnect (a new sign-in), not a pasted token.
// The access token (a canary) is in no answer the page received nor in the DOM.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { CALLBACK_PATH } from '../../api/scoped/oauth-providers.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { createTiers, useApi } from '../integration/api-harness.ts';
import { kubeConfig, useNamespace } from '../integration/harness.ts';
import { startCodeServer, type CodeServerFixture } from '../integration/oauth-servers.ts';
import { launch, screenshots, seriousViolations } from './browser.ts';

const ns = useNamespace('ui-oauth');
const dir = mkdtempSync(join(tmpdir(), 'ui-oauth-'));
const providersPath = join(dir, 'providers.yaml');
const fx = useApi(ns, () => ({
  PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
  PLATFORM_OAUTH_PROVIDERS_FILE: providersPath,
}));
const state = { browser: undefined as unknown as Browser, org: '' };
const CANARY = {
  access: 'canary-ui-oauth-access-5c2e91',
  refresh: 'canary-ui-oauth-refresh-0b7d3f',
  renewed: 'canary-ui-oauth-renewed-8a41c6',
  renewedRefresh: 'canary-ui-oauth-refresh-2-d93e07',
};
const answers: string[] = [];
let provider: CodeServerFixture;

beforeAll(async () => {
  state.org = `org-${ns.name}`;
  await createTiers({ org: state.org, homeNamespace: ns.name, namespace: ns.name });
  provider = await startCodeServer();
  provider.client.redirectUri = `${fx.api.url}${CALLBACK_PATH}`;
  provider.issue = { accessToken: CANARY.access, refreshToken: CANARY.refresh, expiresIn: 3600 };
  const secretFile = join(dir, 'docs-client-secret');
  writeFileSync(secretFile, `${provider.client.secret}\n`);
  writeFileSync(
    providersPath,
    [
      'providers:',
      '  - service: docs',
      '    display_name: Docs Cloud',
      `    authorization_endpoint: ${provider.origin}/authorize`,
      `    token_endpoint: ${provider.origin}/token`,
      `    client_id: ${provider.client.id}`,
      `    client_secret_file: ${secretFile}`,
      '    scopes: [docs.read]',
      `    redirect_uri: ${provider.client.redirectUri}`,
      '',
    ].join('\n'),
  );
  state.browser = await launch();
}, 120_000);

afterAll(async () => {
  await state.browser?.close();
  await provider?.close();
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

async function signedIn(blockPopups = false): Promise<Page> {
  const context = await state.browser.newContext({ viewport: { width: 1280, height: 800 } });
  // A popup blocker, as the browser would apply it: window.open gives no window.
  if (blockPopups) await context.addInitScript('window.open = () => null;');
  context.on('response', (r) => {
    void r
      .text()
      .then((body) => answers.push(JSON.stringify({ url: r.url(), headers: r.headers(), body })))
      .catch(() => undefined);
  });
  const page = await context.newPage();
  await page.goto(`${fx.api.url}/ui/#/credentials/workspace/${ns.name}/ws`);
  await page.getByLabel('API key').fill(fx.keys.workspace_admin);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Credentials and tools', level: 1 }).waitFor();
  await page.getByLabel('Sign in with the provider (OAuth)').check();
  await page.getByLabel('Service', { exact: true }).selectOption({ label: 'Docs Cloud' });
  return page;
}

const revokeAll = async () => {
  const r = await fx.call('GET', `/v1/scoped-credentials?scope=workspace&scope_id=${ns.name}.ws`, {
    key: fx.keys.workspace_admin,
  });
  for (const c of r.body.items ?? [])
    await fx.call('DELETE', `/v1/scoped-credentials/${String(c.id)}`, { key: fx.keys.workspace_admin });
};

describe('connect by OAuth popup', () => {
  it('signs in in the popup and shows the credential connected', async () => {
    const page = await signedIn();
    expect(await page.locator('input[type="password"]').count()).toBe(0);
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in and connect' }).click();
    await (await popup).waitForEvent('close');
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('docs is connected.');
    const card = page.locator('[data-testid="credential"][data-service="docs"]');
    await card.waitFor();
    expect(await card.textContent()).toContain('OAuth');
    expect(await page.content()).not.toContain(CANARY.access);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'credentials-oauth');
    await page.context().close();
    await revokeAll();
  });

  it('says in words when the provider refuses', async () => {
    provider.override.deny = 'access_denied';
    const page = await signedIn();
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in and connect' }).click();
    await (await popup).waitForEvent('close');
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toMatch(/^docs was not connected: /);
    expect(await page.locator('[data-testid="credential"]').count()).toBe(0);
    provider.override = {};
    await page.context().close();
  });

  it('says when the popup was blocked, offers a link, and learns the outcome', async () => {
    const page = await signedIn(true);
    await page.getByRole('button', { name: 'Sign in and connect' }).click();
    const status = page.getByTestId('oauth-status');
    await expect
      .poll(() => status.textContent())
      .toMatch(/^The browser blocked the sign-in window for docs\./);
    const popup = page.waitForEvent('popup');
    await status.getByRole('link', { name: 'Open the sign-in window' }).click();
    await popup;
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('docs is connected.');
    await page.locator('[data-testid="credential"][data-service="docs"]').waitFor();
    await page.context().close();
  });

  it('reconnects an OAuth credential by a new sign-in, not by a pasted token', async () => {
    provider.issue = { accessToken: CANARY.renewed, refreshToken: CANARY.renewedRefresh, expiresIn: 3600 };
    const page = await signedIn();
    const card = page.locator('[data-testid="credential"][data-service="docs"]');
    await card.waitFor();
    expect(await card.getByRole('button', { name: 'Rotate docs' }).count()).toBe(0);
    expect(await card.locator('dd').last().textContent()).toBe('never');
    const popup = page.waitForEvent('popup');
    await card.getByRole('button', { name: 'Reconnect docs' }).click();
    await (await popup).waitForEvent('close');
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('docs is reconnected.');
    // The same credential, stamped rotated now: the card shows a time instead of "never".
    await expect.poll(() => card.locator('dd').last().textContent()).not.toBe('never');
    expect(await page.locator('[data-testid="credential"]').count()).toBe(1);
    expect(provider.lastTokenRequest?.form.grant_type).toBe('authorization_code');
    expect(await page.content()).not.toContain(CANARY.renewed);
    await page.context().close();
  });

  it('never received the token in any answer', () => {
    expect(answers.length).toBeGreaterThan(10);
    for (const a of answers) for (const c of Object.values(CANARY)) expect(a).not.toContain(c);
  });
});
