// The definition editor in chromium against the facade on the integration
// control plane: a pasted file with comments and an unknown section, a form
// edit that changes only its own line, the form following the YAML, broken
// YAML located and the form keeping its values, the user-context markdown
// both ways, an invalid file's errors at their line and in the form, and a
// valid file applied until the agent shows in the agent list.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBJECTS, useApi } from '../integration/api-harness.ts';
import { useNamespace } from '../integration/harness.ts';
import { launch, screenshots, seriousViolations } from './browser.ts';

const ns = useNamespace('ui-definitions');
const fx = useApi(ns);
const state = { browser: undefined as unknown as Browser };

const FILE = `# The release bot, kept in git.
apiVersion: platform.io/v1alpha1
kind: PlatformAgent
metadata:
  name: release-bot   # one per team
spec:
  owners:
    - subject: ${SUBJECTS.owner}
      role: Owner
  model:
    id: gpt-4o-mini   # the cheap one
  auditorSettings:
    injection:
      threshold: {value: 0.8}
abilities:
  soul:
    identity: {name: Release bot, role: release manager}

# Ours, not the platform's: the editor keeps it.
x-team-notes:
  oncall: alice
  rota: [mon, tue]
`;

beforeAll(async () => {
  state.browser = await launch();
}, 60_000);

afterAll(async () => {
  await state.browser?.close();
});

async function signedIn(key: string, hash: string, heading: string): Promise<Page> {
  const page = await state.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${fx.api.url}/ui/${hash}`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

const yaml = (page: Page) => page.getByLabel('Definition file (YAML): paste or type here');
const changed = (before: string, after: string): string[] => {
  const a = before.split('\n');
  return after.split('\n').filter((line, i) => line !== a[i]);
};

describe('the definition editor', () => {
  it('edits in the form change only that line; the YAML drives the form; broken YAML loses nothing', async () => {
    const page = await signedIn(fx.keys.workspace_admin, '#/definitions', 'Definitions');
    await yaml(page).fill(FILE);
    const model = page.getByLabel('Model (spec.model.id)');
    expect(await model.inputValue()).toBe('gpt-4o-mini');
    expect(await page.getByLabel('Free-form section x-team-notes').inputValue()).toBe(
      'x-team-notes:\n  oncall: alice\n  rota: [mon, tue]\n',
    );
    await model.fill('gpt-4o');
    const edited = await yaml(page).inputValue();
    expect(changed(FILE, edited)).toEqual(['    id: gpt-4o   # the cheap one']);
    expect(edited.split('\n').length).toBe(FILE.split('\n').length);
    expect(edited).toContain('# The release bot, kept in git.\n');
    expect(edited).toContain('x-team-notes:\n  oncall: alice\n  rota: [mon, tue]\n');

    // A setting and the soul, then the free-form block, each edited where it is.
    await page.getByRole('textbox', { name: 'injection: threshold' }).fill('0.9');
    await page.getByLabel('Identity: role').fill('releaser');
    await page
      .getByLabel('Free-form section x-team-notes')
      .fill('x-team-notes:\n  oncall: bob\n  rota: [mon, tue]\n');
    const after = await yaml(page).inputValue();
    expect(changed(edited, after)).toEqual([
      '      threshold: {value: 0.9}',
      '    identity: {name: Release bot, role: releaser}',
      '  oncall: bob',
    ]);
    expect(after).toContain('x-team-notes:\n  oncall: bob\n');
    expect(after).toContain("# Ours, not the platform's: the editor keeps it.\nx-team-notes:");

    // The YAML side: the form follows.
    await yaml(page).fill(after.replace('name: release-bot', 'name: release-bot-2'));
    expect(await page.getByLabel('Name (metadata.name)').inputValue()).toBe('release-bot-2');

    // Broken YAML: located, the form keeps its values and waits.
    const good = await yaml(page).inputValue();
    await yaml(page).fill(good.replace('  model:\n', '  model: [\n'));
    await expect.poll(() => page.getByTestId('form-problem').textContent()).toMatch(/line \d+, column \d+/);
    expect(await page.getByLabel('Name (metadata.name)').inputValue()).toBe('release-bot-2');
    expect(await page.getByLabel('Name (metadata.name)').isDisabled()).toBe(true);
    expect(await page.getByTestId('yaml-problem').textContent()).toMatch(/^Line \d+, column \d+/);
    expect(await seriousViolations(page)).toEqual([]);
    await yaml(page).fill(good);
    expect(await page.getByLabel('Name (metadata.name)').isEnabled()).toBe(true);
    expect(await page.getByTestId('form-problem').count()).toBe(0);
    await page.close();
  });

  it('shows the errors of an invalid file beside its line and in the form, and applies a valid one', async () => {
    const page = await signedIn(fx.keys.workspace_admin, '#/definitions', 'Definitions');
    await page.getByLabel('Namespace (when the file names none)').fill(ns.name);
    await yaml(page).fill(FILE.replace('name: release-bot', 'name: Release_Bot'));
    await page.getByRole('button', { name: 'Validate' }).click();
    const errors = page.getByTestId('yaml-errors');
    await errors.waitFor();
    expect(await errors.textContent()).toContain('Line 5, column 9: metadata.name: invalid name');
    const name = page.getByLabel('Name (metadata.name)');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#f-metadata-name-err').textContent()).toContain(
      'Line 5, column 9: invalid name',
    );
    expect(await page.getByRole('alert').filter({ hasText: 'problem(s) found' }).count()).toBe(1);
    await errors.getByRole('button', { name: 'Line 5, column 9' }).click();
    const selected = await yaml(page).evaluate((el) => {
      const area = el as unknown as { value: string; selectionStart: number; selectionEnd: number };
      return area.value.slice(area.selectionStart, area.selectionEnd);
    });
    expect(selected).toBe('  name: Release_Bot   # one per team');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'definitions-error');

    await name.fill('release-bot');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => page.getByTestId('definition-outcome').textContent())
      .toBe(`Applied: PlatformAgent ${ns.name}/release-bot created.`);
    await screenshots(page, 'definitions');
    await page.getByRole('link', { name: `Open agent ${ns.name}.release-bot` }).waitFor();
    await page.getByRole('link', { name: 'Agents', exact: true }).click();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    await page.locator(`a[href="#/agents/${ns.name}.release-bot"]`).waitFor();
    expect(await page.getByRole('link', { name: 'release-bot', exact: true }).count()).toBe(1);
    await page.close();
  });

  it('edits the user-context markdown from the form and the form from the markdown', async () => {
    const page = await signedIn(fx.keys.viewer, '#/definitions/user-context', 'Definitions');
    const md = page.getByLabel('User context (markdown): paste or type here');
    const text = `# About me\n\nWritten by hand.\n\n## Preferences\n\n- language: English\n- tone: concise\n\n## Context\n\nI lead the platform team.\n\n## Notes\n\n- prefers short PRs\n\n## Links\n\n[wiki](https://wiki.example)\n`;
    await md.fill(text);
    await page.getByLabel('Preference 2: value (tone)').fill('warm');
    expect(await md.inputValue()).toBe(text.replace('- tone: concise', '- tone: warm'));
    await page.getByLabel('New note').fill('ships on Thursdays');
    await page.getByRole('button', { name: 'Add note' }).click();
    expect(await md.inputValue()).toContain(
      '- prefers short PRs\n- ships on Thursdays\n\n## Links\n\n[wiki](https://wiki.example)\n',
    );
    expect(await page.getByLabel('Section Links').inputValue()).toBe(
      '## Links\n\n[wiki](https://wiki.example)\n',
    );
    await md.fill((await md.inputValue()).replace('I lead the platform team.', 'I run the release train.'));
    expect(await page.getByLabel('Context', { exact: true }).inputValue()).toBe('I run the release train.');
    expect(await page.getByLabel('Note 2').inputValue()).toBe('ships on Thursdays');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'user-context');
    await page.close();
  });
});
