// The management UI in chromium against the facade of the e2e cluster, where
// the sample agents run as pods on the real node: each flow clicked through
// as a person would and checked against what the cluster says — the live
// agent list, a governed call's evidence in the passport, a held DELETE
// approved by its Owner and then reaching its tool, the share dialog by
// keyboard (a Viewer sees the agent read-only; removing the last Owner
// suspends it, adding one back restores it), a workspace setting that flips
// a real call's decision, and an agent made with the wizard running on the
// node with its required tool. axe on every page, screenshots at 1280/375 px.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION } from '../../contract/kube.ts';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { launch, screenshots } from '../ui/browser.ts';
import { agentId, askAgent, condition, listAgents, readAgent, readPod, waitAgentReady } from './agents.ts';
import type { AgentRef } from './agents.ts';
import { api, apiKey, eventually, kubectl, kubectlOk, userKey } from './support.ts';
import { fetchScript, focused, inAgent, noSeriousViolations, seenByTool, signedIn } from './ui-live.ts';
import { startTool, tabTo, uiUrl } from './ui-live.ts';

const RELEASE_BOT: AgentRef = { namespace: 'default', name: 'release-bot' };
const SUMMARIZER: AgentRef = { namespace: 'default', name: 'summarizer' };
const TRIAGER: AgentRef = { namespace: 'default', name: 'triager' };
const WIZARD: AgentRef = { namespace: 'default', name: 'ui-wizard' };
const TOOL = 'ui-e2e-tool';
/** The facade reads the apiserver on a loaded 2-core machine: a page can take seconds to show a change. */
const LIVE = { timeout: 30_000, interval: 200 } as const;
const VIEWER = 'vera@example.com';
const PINEAPPLE = 'Summarize the pineapple protocol in one line.';
const s = {
  browser: undefined as unknown as Browser,
  admin: '',
  adminSubject: '',
  alice: '',
  toolIp: '',
  evidenceId: '',
};

const samples = (): string => kubectlOk(['apply', '-f', join(REPO_ROOT, 'config', 'samples')]);

beforeAll(async () => {
  samples();
  const [, , toolIp] = await Promise.all([
    waitAgentReady(RELEASE_BOT, 300_000),
    waitAgentReady(SUMMARIZER, 300_000),
    startTool(TOOL),
    waitAgentReady(TRIAGER, 300_000),
  ]);
  s.toolIp = toolIp;
  s.admin = await apiKey();
  s.adminSubject = (await api<{ subject: string }>('/v1/whoami')).body.subject;
  s.alice = await userKey('alice@example.com');
  // One governed call from inside release-bot's pod: its evidence is what the passport shows.
  const { body } = await askAgent((await readPod(RELEASE_BOT))!, 'What is 2+2?');
  expect(body.decision).toBe('allow');
  s.evidenceId = body.evidence_id!;
  await eventually(
    async () => ((await readAgent(RELEASE_BOT)).status as { trustTier?: string } | undefined)?.trustTier,
    'the trust tier of release-bot',
  );
  s.browser = await launch();
}, 600_000);

afterAll(async () => {
  await s.browser?.close();
  kubectl(['-n', 'default', 'delete', 'pod', TOOL, '--ignore-not-found', '--wait=false']);
  kubectl([
    '-n',
    WIZARD.namespace,
    'delete',
    'platformagent',
    WIZARD.name,
    '--ignore-not-found',
    '--wait=false',
  ]);
  // The owners and workspace settings as the samples have them again.
  samples();
});

/**
 * The agent's pod once it is ready and its auditor settings do (or do not) ban
 * the pineapple phrase: a settings change replaces the pod.
 */
const readyPodOf = (a: AgentRef, banned: boolean) =>
  eventually(
    async () => {
      const pod = await readPod(a);
      return pod && podBans(pod) === banned && podReady(pod) ? pod : undefined;
    },
    `the ${a.name} pod ready with ${banned ? '' : 'no '}pineapple ban`,
    300_000,
  );
type Pod = NonNullable<Awaited<ReturnType<typeof readPod>>>;
const podBans = (pod: Pod): boolean =>
  (pod.metadata?.annotations?.[ANNOTATION.auditorSettings] ?? '').includes('pineapple');
const podReady = (pod: Pod): boolean =>
  !pod.metadata?.deletionTimestamp &&
  pod.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';

/** The research workspace's own ban list, as the API stores it. */
async function workspaceBan(): Promise<string[]> {
  const r = await api<{ items: { auditor_id: string; setting: string; value: unknown; source: string }[] }>(
    '/v1/auditors/settings?scope=workspace&namespace=default&workspace=research',
  );
  const item = r.body.items.find((i) => i.auditor_id === 'injection' && i.setting === 'banSubstrings');
  return item?.source === 'workspace' ? (item.value as string[]) : [];
}

const rowOf = (page: Page, name: string) =>
  page.getByTestId('agents-table').locator('tbody tr').filter({ hasText: name });

describe('the UI against live agents', () => {
  it('signs in and lists the live agents with their status, Owners and trust tier as the cluster says', async () => {
    const page = await s.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(uiUrl());
    await noSeriousViolations(page);
    await page.getByLabel('API key').fill(s.admin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    await expect.poll(() => page.locator('.who').textContent(), LIVE).toContain(s.adminSubject);
    const live = (await listAgents()).filter((a) => !a.metadata.deletionTimestamp);
    for (const ref of [RELEASE_BOT, SUMMARIZER, TRIAGER]) {
      const agent = live.find((a) => a.metadata.name === ref.name)!;
      const ready = condition(agent, 'Ready')?.status === 'True' ? 'ready' : 'not ready';
      const row = rowOf(page, agentId(ref).split('.')[1]!);
      await row.waitFor();
      expect(await row.locator('td').nth(0).textContent()).toBe(`${agent.status?.phase} · ${ready}`);
      const owners = (agent.spec.owners ?? []).filter((o) => o.role === 'Owner').map((o) => o.subject);
      expect(await row.locator('td').nth(1).textContent()).toBe(owners.join(', '));
    }
    expect(await rowOf(page, 'release-bot').locator('td').nth(0).textContent()).toBe('running · ready');
    expect(await rowOf(page, 'release-bot').locator('td').nth(2).textContent()).toBe(
      ((await readAgent(RELEASE_BOT)).status as { trustTier?: string }).trustTier,
    );
    await noSeriousViolations(page);
    await screenshots(page, 'live-agents');
    await page.close();
  });

  it("shows a governed call's evidence, the accesses and the attestation per auditor in the passport", async () => {
    // The Verifier records the call in the passport once its Evidence is in (the timeline has it first).
    await eventually(async () => {
      const r = await api<{ accesses?: { source: string }[] }>(`/v1/agents/${agentId(RELEASE_BOT)}/passport`);
      return r.body.accesses?.some((a) => a.source === 'model_call') ? true : undefined;
    }, "the call in release-bot's passport accesses");
    const page = await signedIn(s.browser, s.admin, `#/agents/${agentId(RELEASE_BOT)}`, agentId(RELEASE_BOT));
    const entry = page.getByTestId('timeline').locator('li').filter({ hasText: s.evidenceId });
    await entry.waitFor();
    expect(await entry.locator('.decision').textContent()).toBe('allow');
    const accesses = page.getByTestId('accesses').locator('tbody tr');
    expect(await accesses.filter({ hasText: 'model call' }).count()).toBeGreaterThan(0);
    const passport = await api<{ trust_tiers: { auditor_id: string; trust_tier: string }[] }>(
      `/v1/agents/${agentId(RELEASE_BOT)}/passport`,
    );
    const tiers = page.getByTestId('trust-tiers').locator('tbody tr');
    expect(await tiers.count()).toBe(passport.body.trust_tiers.length);
    for (const t of passport.body.trust_tiers)
      expect(await tiers.filter({ hasText: t.auditor_id }).first().locator('td').nth(1).textContent()).toBe(
        t.trust_tier,
      );
    expect(passport.body.trust_tiers.map((t) => t.auditor_id)).toEqual(
      expect.arrayContaining(['injection', 'toxicity']),
    );
    expect(await page.getByTestId('owners').textContent()).toContain('carol@example.com Owner');
    await noSeriousViolations(page);
    await screenshots(page, 'live-agent');
    await page.close();
  });

  it("holds a pod's DELETE until its Owner approves it on the Approvals page, then the call reaches the tool", async () => {
    const page = await signedIn(s.browser, s.alice, '#/approvals', 'Approvals');
    const badge = page.getByTestId('approvals-badge');
    const before = Number((await badge.count()) ? await badge.textContent() : 0);
    const target = `http://${s.toolIp}:8443/items/ui-e2e`;
    const call = inAgent(SUMMARIZER, fetchScript(target, { method: 'DELETE' }));
    // The badge refreshes itself (every 15 s): no reload.
    await expect.poll(() => badge.textContent(), { timeout: 90_000, interval: 500 }).toBe(String(before + 1));
    await page.getByRole('tab', { name: 'Delegations' }).click();
    await page.getByRole('tab', { name: 'Pending' }).click();
    const card = page.getByTestId('approval-card').filter({ hasText: `${s.toolIp}:8443/items/ui-e2e` });
    await card.waitFor();
    // The card names the held call once: its method and URL (ui/src/model.ts approvalTitle).
    expect(await card.getByRole('heading').textContent()).toMatch(/^DELETE http:\/\/.*\/items\/ui-e2e$/);
    expect(seenByTool(TOOL).some((c) => c.method === 'DELETE')).toBe(false);
    await noSeriousViolations(page);
    await screenshots(page, 'live-approvals');
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => card.getByRole('status').textContent(), LIVE)
      .toMatch(/^Approved by alice@example.com/);
    expect(await card.getByRole('button').count()).toBe(0);
    expect(await call).toMatch(/^200 .*"method":"DELETE"/);
    expect(seenByTool(TOOL).filter((c) => c.method === 'DELETE')).toEqual([
      { method: 'DELETE', url: '/items/ui-e2e' },
    ]);
    await expect
      .poll(async () => Number((await badge.count()) ? await badge.textContent() : 0), LIVE)
      .toBe(before);
    await page.close();
  });

  it('shares with a new Viewer by keyboard, who sees the agent read-only; the last Owner removed suspends it, and adding one restores it', async () => {
    const page = await signedIn(s.browser, s.admin, `#/agents/${agentId(RELEASE_BOT)}`, agentId(RELEASE_BOT));
    const share = page.getByRole('button', { name: 'Share…' });
    await share.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Share ${agentId(RELEASE_BOT)}` });
    const rows = dialog.locator('.share-row');
    await expect.poll(() => rows.count(), LIVE).toBe(2);
    await tabTo(page, 'share-subject');
    await page.keyboard.type(VIEWER);
    await page.keyboard.press('Tab'); // the role list, Viewer already chosen
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Add');
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count(), LIVE).toBe(3);
    expect(await dialog.getByLabel(VIEWER, { exact: true }).inputValue()).toBe('Viewer');
    await noSeriousViolations(page);
    await screenshots(page, 'live-share-dialog');
    await eventually(
      async () => ((await readAgent(RELEASE_BOT)).spec.owners ?? []).find((o) => o.subject === VIEWER),
      'the Viewer in the agent spec',
    );

    const viewer = await signedIn(s.browser, await userKey(VIEWER), '#/agents', 'Agents');
    await expect.poll(() => viewer.getByTestId('agents-table').locator('tbody tr').count(), LIVE).toBe(1);
    await viewer.getByRole('link', { name: 'release-bot' }).click();
    await viewer.getByRole('heading', { name: agentId(RELEASE_BOT), level: 1 }).waitFor();
    await expect
      .poll(() => viewer.getByTestId('access-note').textContent(), LIVE)
      .toMatch(/^You are a Viewer/);
    expect(await viewer.getByRole('button', { name: 'Share…' }).count()).toBe(0);
    await noSeriousViolations(viewer);
    await viewer.close();

    await tabTo(page, 'Remove carol@example.com');
    await page.keyboard.press('Enter');
    expect(await dialog.getByTestId('last-owner-warning').textContent()).toMatch(
      /without an Owner.*suspended/,
    );
    await expect.poll(async () => (await focused(page)).name, LIVE).toBe('Remove and suspend');
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count(), LIVE).toBe(2);
    await eventually(async () => {
      const a = await readAgent(RELEASE_BOT);
      return a.status?.phase === 'suspended' && condition(a, 'OwnersMissing')?.status === 'True'
        ? a
        : undefined;
    }, 'release-bot suspended');
    await eventually(
      async () => ((await readPod(RELEASE_BOT)) ? undefined : true),
      'the release-bot pod gone',
    );

    await tabTo(page, 'share-subject');
    await page.keyboard.type('carol@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Home'); // Owner, first in the role list
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count(), LIVE).toBe(3);
    await eventually(
      async () => ((await readAgent(RELEASE_BOT)).status?.phase !== 'suspended' ? true : undefined),
      'release-bot no longer suspended',
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('note').count(), LIVE).toBe(0);
    await page.close();
  });

  it("overrides a workspace setting that flips a real call's decision, and Reset flips it back", async () => {
    const before = await askAgent((await readyPodOf(TRIAGER, false))!, PINEAPPLE);
    expect(before.body.decision).toBe('allow');
    const page = await signedIn(
      s.browser,
      s.admin,
      '#/settings/workspace/default/research',
      'Auditor settings',
    );
    await page.getByLabel('Auditor', { exact: true }).selectOption('injection');
    const badge = page
      .locator('[data-testid="setting"][data-key="ban_substrings"]')
      .getByTestId('setting-badge');
    await expect.poll(() => badge.textContent(), LIVE).toBe('DIRECT · from the workspace');
    const tags = page.getByLabel('Ban substrings', { exact: true });
    await tags.fill('pineapple protocol');
    await tags.press('Enter');
    await page.getByRole('button', { name: 'Save Ban substrings' }).click();
    await expect.poll(workspaceBan, LIVE).toContain('pineapple protocol');
    expect(await page.locator('[data-key="ban_substrings"] [role="alert"]').count()).toBe(0);
    await noSeriousViolations(page);
    await screenshots(page, 'live-settings');
    // The agent's pod is replaced with the new settings; the same call is now denied.
    const denied = await askAgent((await readyPodOf(TRIAGER, true))!, PINEAPPLE);
    expect(denied.body.decision).toBe('deny');

    await page.getByRole('button', { name: 'Reset Ban substrings' }).click();
    await expect.poll(() => badge.textContent(), LIVE).toBe('DEFAULT · from the auditor’s default');
    expect(await workspaceBan()).toEqual([]);
    const after = await askAgent((await readyPodOf(TRIAGER, false))!, PINEAPPLE);
    expect(after.body.decision).toBe('allow');
    await page.close();
  });

  it('shows the catalog as a workspace agent sees it: the required tool said, the blocked one hidden', async () => {
    const page = await signedIn(s.browser, s.admin, '#/catalog', 'App catalog');
    const card = (id: string) => page.locator(`[data-testid="app-card"][data-app="${id}"]`);
    await card('shell-mcp').waitFor();
    await page.getByLabel('Install on agent').selectOption(agentId(SUMMARIZER));
    await expect.poll(() => card('shell-mcp').count(), LIVE).toBe(0);
    expect(await card('github-mcp').textContent()).toContain('Required by organization acme');
    await noSeriousViolations(page);
    await page.close();
  });

  it('creates an agent with the wizard, the required tool pre-installed, and its pod runs on the node', async () => {
    const page = await signedIn(s.browser, s.admin, '#/agents', 'Agents');
    await page.getByRole('link', { name: 'New agent' }).click();
    await page.getByRole('heading', { name: 'New agent' }).waitFor();
    await page.getByLabel('Namespace').fill(WIZARD.namespace);
    await page.getByLabel('Name', { exact: true }).fill(WIZARD.name);
    await page.getByLabel('Workspace (optional)').fill('research');
    await page.getByLabel('Model (optional)').fill('gpt-4o-mini');
    await noSeriousViolations(page);
    await page.getByRole('button', { name: 'Create and choose tools' }).click();
    await page.getByRole('heading', { name: `Tools for ${agentId(WIZARD)}` }).waitFor();
    const tool = (id: string) => page.locator(`[data-testid="wizard-tool"][data-app="${id}"]`);
    await tool('github-mcp').waitFor();
    expect(await tool('shell-mcp').count()).toBe(0);
    expect(await tool('github-mcp').getByRole('checkbox').isChecked()).toBe(true);
    expect(await tool('github-mcp').getByRole('checkbox').isDisabled()).toBe(true);
    expect(await tool('github-mcp').textContent()).toContain('required by organization acme');
    await noSeriousViolations(page);
    await screenshots(page, 'live-wizard');
    await page.getByRole('button', { name: 'Install and finish' }).click();
    const done = page.getByTestId('wizard-done');
    await expect.poll(() => done.getByRole('status').textContent(), LIVE).toBe('Installed: github-mcp.');

    const pod = await waitAgentReady(WIZARD, 300_000);
    // Injected: the sidecars run as native sidecars (init containers that keep running).
    const names = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['agent', 'platform-gateway', 'auditor-injection']));
    expect(
      kubectlOk(['-n', 'default', 'get', 'pod', 'agent-ui-wizard', '-o', 'jsonpath={.status.phase}']),
    ).toBe('Running');
    const installed = await api<{ items: { app_id: string }[] }>(
      `/v1/app-catalog/agents/${agentId(WIZARD)}/installed`,
    );
    expect(installed.body.items.map((i) => i.app_id)).toEqual(['github-mcp']);
    await done.getByRole('link', { name: 'Open the agent' }).click();
    await page.getByRole('heading', { name: agentId(WIZARD), level: 1 }).waitFor();
    await expect.poll(() => page.locator('.facts').textContent(), LIVE).toContain('Statusrunning');
    await noSeriousViolations(page);
    await page.close();
  });
});
