// The management UI in chromium against the real facade (the integration
// control plane, the in-process Verifier API, one key per persona): each
// step-1 flow clicked through as a person would, axe on every page, the share
// dialog by keyboard alone, screenshots at desktop and 375 px.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentGatewayKey, SUBJECTS, useApi } from '../integration/api-harness.ts';
import { useNamespace } from '../integration/harness.ts';
import { signedEvidence } from '../integration/verifier-fixtures.ts';
import { launch, screenshots, seriousViolations } from './browser.ts';

const ns = useNamespace('ui');
const fx = useApi(ns);
const state = { browser: undefined as unknown as Browser, agent: '', other: '', gateway: '' };

beforeAll(async () => {
  state.agent = await fx.createAgent('release-bot');
  state.other = await fx.createAgent('triage-bot');
  state.gateway = await agentGatewayKey(fx, state.agent, true);
  const g = await fx.call('POST', '/v1/api-keys', {
    key: fx.keys.org_admin,
    body: { subject: 'gw@ui', role: 'gateway' },
  });
  const ev = await signedEvidence(`ev-${ns.name}-1`, state.agent, { model_id: 'gpt-test' });
  const r = await fx.call('POST', '/v1/evidence', { key: String(g.body.key), body: ev });
  if (r.status !== 201) throw new Error(`evidence: ${r.status} ${JSON.stringify(r.body)}`);
  await fx.until(
    `/v1/agents/${state.agent}`,
    (a) => (a.body.status as { trustTier?: string }).trustTier !== undefined,
  );
  state.browser = await launch();
}, 120_000);

afterAll(async () => {
  await state.browser?.close();
});

async function signedIn(key: string): Promise<Page> {
  const page = await state.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${fx.api.url}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
  return page;
}

async function noSeriousViolations(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

describe('login', () => {
  it('refuses a wrong key in words, keeps what was typed, and signs in with a right one', async () => {
    const page = await state.browser.newPage();
    await page.goto(`${fx.api.url}/`);
    expect(page.url()).toBe(`${fx.api.url}/ui/`);
    await page.getByLabel('API key').fill('pk_not_a_real_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/That key was not accepted/);
    expect(await page.getByLabel('API key').inputValue()).toBe('pk_not_a_real_key');
    await noSeriousViolations(page);
    await screenshots(page, 'login');
    await page.getByLabel('API key').fill(fx.keys.owner);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('.who').textContent()).toContain(SUBJECTS.owner);
    expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual(['platform.session']);
    await page.close();
  });
});

describe('agents', () => {
  it('lists agents with status, Owners and trust tier, and the search box filters them', async () => {
    const page = await signedIn(fx.keys.owner);
    const rows = page.getByTestId('agents-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const bot = rows.filter({ hasText: 'release-bot' });
    expect(await bot.textContent()).toContain(SUBJECTS.owner);
    expect(await bot.locator('td').nth(2).textContent()).toMatch(/verified|attested|authenticated/);
    await page.getByLabel('Search agents').fill('triage');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('triage-bot');
    await page.getByLabel('Search agents').fill('');
    await noSeriousViolations(page);
    await screenshots(page, 'agents');
    await page.close();
  });

  it('shows the passport: Owners, trust tier per auditor and the evidence timeline', async () => {
    const page = await signedIn(fx.keys.owner);
    await page.getByRole('link', { name: 'release-bot' }).click();
    await page.getByRole('heading', { name: state.agent, level: 1 }).waitFor();
    expect(await page.getByTestId('owners').textContent()).toContain(`${SUBJECTS.owner} Owner`);
    const tiers = page.getByTestId('trust-tiers');
    await tiers.waitFor();
    expect(await tiers.locator('tbody tr').filter({ hasText: 'injection' }).count()).toBe(1);
    const injection = tiers.locator('tbody tr').filter({ hasText: 'injection' });
    expect(await injection.locator('td').nth(1).textContent()).toMatch(
      /^(tee_attested|mtls_verified|key_authenticated|unverified)$/,
    );
    expect(await page.getByTestId('timeline').textContent()).toContain(`ev-${ns.name}-1`);
    await noSeriousViolations(page);
    await screenshots(page, 'agent');
    await page.close();
  });
});

describe('a Viewer', () => {
  it('sees the passport read-only: no Share button, and a line saying why', async () => {
    const page = await signedIn(fx.keys.viewer);
    await page.getByRole('link', { name: 'release-bot' }).click();
    await page.getByRole('heading', { name: state.agent, level: 1 }).waitFor();
    await expect
      .poll(() => page.getByTestId('access-note').textContent())
      .toBe('You are a Viewer on this agent: you can see it but not change it.');
    expect(await page.getByRole('button', { name: 'Share…' }).count()).toBe(0);
    expect(await page.getByTestId('owners').textContent()).toContain(`${SUBJECTS.viewer} Viewer`);
    await noSeriousViolations(page);
    await page.close();
  });
});

/** The element that has focus: its accessible name or text, and whether it is inside the dialog. */
const focused = (page: Page): Promise<{ inDialog: boolean; name: string }> =>
  page.evaluate(`(() => {
    const el = document.activeElement;
    return {
      inDialog: !!el?.closest('dialog'),
      name: el?.getAttribute('aria-label') ?? (el?.id || el?.textContent?.trim() || ''),
    };
  })()`);

async function tabTo(page: Page, name: string, max = 20): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focused(page)).name === name) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${name}`);
}

describe('the share dialog, by keyboard alone', () => {
  it('opens, keeps focus inside, adds a person, warns before the last Owner goes, and closes on Esc', async () => {
    const page = await signedIn(fx.keys.org_admin);
    await page.goto(`${fx.api.url}/ui/#/agents/${state.other}`);
    await page.getByRole('button', { name: 'Share…' }).waitFor();
    await page.getByRole('button', { name: 'Share…' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Share ${state.other}` });
    await dialog.waitFor();
    await expect.poll(() => dialog.locator('.share-row').count()).toBe(3);
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      expect((await focused(page)).inDialog).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect((await focused(page)).inDialog).toBe(true);
    await noSeriousViolations(page);
    await screenshots(page, 'share-dialog');

    await tabTo(page, 'share-subject');
    await page.keyboard.type('nina@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowUp'); // Viewer → Editor in the role list
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Add');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.locator('.share-row').count()).toBe(4);
    expect(await dialog.getByLabel('nina@example.com', { exact: true }).inputValue()).toBe('Editor');

    await tabTo(page, `Remove ${SUBJECTS.owner}`);
    await page.keyboard.press('Enter');
    const warning = dialog.getByTestId('last-owner-warning');
    expect(await warning.textContent()).toMatch(/without an Owner.*suspended/);
    await expect.poll(async () => (await focused(page)).name).toBe('Remove and suspend');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // Keep the Owner
    await expect.poll(() => warning.count()).toBe(0);
    expect(
      (await fx.call('GET', `/v1/agents/${state.other}/shares`, { key: fx.keys.org_admin })).body.owners,
    ).toBe(1);

    await tabTo(page, `Remove ${SUBJECTS.owner}`);
    await page.keyboard.press('Enter');
    await warning.waitFor();
    await expect.poll(async () => (await focused(page)).name).toBe('Remove and suspend');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.locator('.share-row').count()).toBe(3);
    const shares = await fx.call('GET', `/v1/agents/${state.other}/shares`, { key: fx.keys.org_admin });
    expect(shares.body).toMatchObject({ owners: 0, suspended_for_owners: true });

    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect((await focused(page)).name).toBe('Share…');
    await expect.poll(() => page.getByRole('note').textContent()).toMatch(/no Owner and is suspended/);
    await page.close();
  });

  it('shows a refused change in words next to the form and keeps what was typed', async () => {
    const page = await signedIn(fx.keys.editor);
    await page.getByRole('link', { name: 'release-bot' }).click();
    await page.getByRole('button', { name: 'Share…' }).click();
    await page.getByLabel('Person (email or user id)').fill('oscar@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('Owner');
    await page.getByRole('button', { name: 'Add' }).click();
    const error = page.locator('#share-error');
    await expect.poll(() => error.textContent()).toMatch(/not allowed.*Owner/);
    expect(await page.getByLabel('Person (email or user id)').inputValue()).toBe('oscar@example.com');
    expect(await page.getByLabel('Person (email or user id)').getAttribute('aria-describedby')).toBe(
      'share-error',
    );
    await page.close();
  });
});

describe('an ended session', () => {
  it('returns to login with a message, and after signing in again nothing typed is lost', async () => {
    const minted = await fx.call('POST', '/v1/api-keys', {
      key: fx.keys.owner,
      body: { description: 'ui test' },
    });
    const page = await signedIn(String(minted.body.key));
    await page.getByRole('link', { name: 'release-bot' }).click();
    await page.getByRole('button', { name: 'Share…' }).click();
    await page.getByLabel('Person (email or user id)').fill('typed-before-expiry@example.com');
    const revoked = await fx.call('DELETE', `/v1/api-keys/${String(minted.body.id)}`, { key: fx.keys.owner });
    expect(revoked.status).toBe(204);
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('heading', { name: 'Sign in to Agent Platform' }).waitFor();
    expect(await page.getByRole('status').textContent()).toMatch(/session has ended/);
    await page.getByLabel('API key').fill(fx.keys.owner);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('dialog').waitFor();
    expect(await page.getByLabel('Person (email or user id)').inputValue()).toBe(
      'typed-before-expiry@example.com',
    );
    await page.close();
  });
});

describe('the facade beside the UI', () => {
  it('serves the bundle with its types, cache headers and CSP, and leaves the API routes as they were', async () => {
    const index = await fetch(`${fx.api.url}/ui/`);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const script = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(await index.text())?.[1];
    const asset = await fetch(`${fx.api.url}${script}`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${fx.api.url}/openapi.json`)).status).toBe(200);
    expect((await fx.call('GET', '/v1/agents', {})).status).toBe(401);
    const whoami = await fx.call('GET', '/v1/whoami', { key: fx.keys.workspace_admin });
    expect(whoami.body).toEqual({
      subject: SUBJECTS.workspace_admin,
      method: 'api_key',
      org_admin: false,
      workspace_admin_of: [ns.name],
    });
  });
});
