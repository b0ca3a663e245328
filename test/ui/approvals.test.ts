// The approvals page in chromium against the facade: the badge counts what
// waits; an approval request is approved by its Owner and turns read-only;
// consent cards are allowed as asked, customized (a 422 shown next to the
// duration) and denied; the Delegations tab lists the grant and revokes it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentGatewayKey, SUBJECTS, useApi } from '../integration/api-harness.ts';
import { useNamespace } from '../integration/harness.ts';
import { launch, screenshots, seriousViolations } from './browser.ts';

const ns = useNamespace('ui-approvals');
const fx = useApi(ns);
const state = { browser: undefined as unknown as Browser, agent: '', gateway: '' };

const consent = async (service: string, scopes: string[]): Promise<string> => {
  const r = await fx.call('POST', `/v1/agents/${state.agent}/delegations/pending`, {
    key: state.gateway,
    body: { user: SUBJECTS.owner, service, scopes, ttl: '2h', reason: 'summarise the channel' },
  });
  if (r.status !== 201) throw new Error(`consent: ${r.status} ${JSON.stringify(r.body)}`);
  return String(r.body.id);
};

beforeAll(async () => {
  state.agent = await fx.createAgent('mailer');
  state.gateway = await agentGatewayKey(fx, state.agent, true);
  const action = await fx.call('POST', `/v1/agents/${state.agent}/actions`, {
    key: state.gateway,
    body: { action: 'delete', target: 'https://api.example.com/items/7', description: 'remove an old item' },
  });
  if (action.status !== 202) throw new Error(`action: ${action.status} ${JSON.stringify(action.body)}`);
  for (const [service, scopes] of [
    ['slack', ['chat:read', 'chat:write']],
    ['github', ['repo']],
    ['drive', ['files:read']],
  ] as const)
    await consent(service, [...scopes]);
  await fx.until('/v1/notifications/count', (r) => r.body.count === 4, 'owner');
  state.browser = await launch();
}, 120_000);

afterAll(async () => {
  await state.browser?.close();
});

async function approvalsPage(): Promise<Page> {
  const page = await state.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${fx.api.url}/ui/#/approvals`);
  await page.getByLabel('API key').fill(fx.keys.owner);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
  return page;
}

const card = (page: Page, testId: string, text: string) => page.getByTestId(testId).filter({ hasText: text });

describe('approvals', () => {
  it('shows the pending count on the badge, and the Owner approves a high-risk action', async () => {
    const page = await approvalsPage();
    await expect.poll(() => page.getByTestId('approvals-badge').textContent()).toBe('4');
    await card(page, 'consent-card', 'slack').waitFor();
    expect(await page.getByTestId('consent-card').count()).toBe(3);
    const request = card(page, 'approval-card', 'delete');
    expect(await request.textContent()).toContain('api.example.com/items/7');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'approvals');
    await request.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => request.getByRole('status').textContent())
      .toMatch(/^Approved by olivia@example.com/);
    expect(await request.getByRole('button').count()).toBe(0);
    await expect.poll(() => page.getByTestId('approvals-badge').textContent()).toBe('3');
    const stored = await fx.call('GET', '/v1/approvals?status=all', { key: fx.keys.owner });
    expect(stored.body.items?.[0]).toMatchObject({ phase: 'approved', decided_by: SUBJECTS.owner });
    await page.close();
  });

  it('allows, customizes (a refused duration in words beside it) and denies consents', async () => {
    const page = await approvalsPage();
    const slack = card(page, 'consent-card', 'slack');
    await slack.getByRole('button', { name: 'Customize' }).click();
    await slack.getByLabel('chat:write').uncheck();
    await slack.getByLabel('For how long').fill('3h');
    await slack.getByRole('button', { name: 'Allow with these terms' }).click();
    const duration = slack.getByLabel('For how long');
    await expect.poll(() => slack.getByRole('alert').textContent()).toMatch(/longer than the 2h requested/);
    expect(await duration.getAttribute('aria-invalid')).toBe('true');
    expect(await duration.inputValue()).toBe('3h');
    await duration.fill('30m');
    await slack.getByRole('button', { name: 'Allow with these terms' }).click();
    await expect.poll(() => slack.getByRole('status').textContent()).toMatch(/^Allowed chat:read until/);
    expect(await slack.getByRole('button').count()).toBe(0);

    const github = card(page, 'consent-card', 'github');
    await github.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => github.getByRole('status').textContent()).toMatch(/^Allowed repo until/);
    const drive = card(page, 'consent-card', 'drive');
    await drive.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => drive.getByRole('status').textContent()).toBe('Denied.');
    await expect.poll(() => page.getByTestId('approvals-badge').count()).toBe(0);
    await page.close();
  });

  it('lists active delegations with their expiry and revokes one', async () => {
    const page = await approvalsPage();
    await page.getByRole('tab', { name: 'Delegations' }).click();
    const rows = page.getByTestId('grants').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const slack = rows.filter({ hasText: 'slack' });
    expect(await slack.textContent()).toMatch(/chat:read.*in (29|30) min/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'delegations');
    await slack.getByRole('button', { name: /Revoke slack/ }).click();
    await expect.poll(() => slack.getByRole('status').textContent()).toBe('Revoked');
    const grants = await fx.call('GET', `/v1/agents/${state.agent}/delegations`, { key: fx.keys.owner });
    expect(grants.body.items?.map((g) => g.service)).toEqual(['github']);
    await page.close();
  });
});
