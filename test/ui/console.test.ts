// The console page in chromium against the facade on the integration control
// plane: the agent's events (posted by the test as its credential proxy
// would) arrive in the log, live; the severity, auditor and subagent filters;
// Pause counts what arrives and Resume shows it; Follow turns off when the
// person scrolls up; the subagent tree drills down; the SSE connection cut by
// the test (through a TCP relay of its own between chromium and the API)
// resumes with every event once; a revoked key brings the login back; the
// shell opens for the Owner (its key in a WebSocket subprotocol) and is not
// there for an Editor or a Viewer. No kubelet here: the agent's pod is a
// stored pod marked Running and the exec behind the shell a small line shell
// in this process (as in test/integration/console-shell.test.ts).
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecIo, ShellExec } from '../../api/shell/exec.ts';
import { k8s } from '../../base/kube.ts';
import { LABEL } from '../../contract/kube.ts';
import { accessRecord, agentGatewayKey, SUBJECTS, useApi } from '../integration/api-harness.ts';
import { eventually, kubeConfig, useNamespace } from '../integration/harness.ts';
import { mergePatch } from '../integration/platform-client.ts';
import { launch, screenshots, seriousViolations } from './browser.ts';

/** Answers `echo` like /bin/sh; `exit N` ends it. */
function lineShell(io: ExecIo): (data: string) => void {
  let buffer = '';
  return (data) => {
    buffer += data;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const [cmd, ...args] = buffer.slice(0, nl).trim().split(/\s+/);
      buffer = buffer.slice(nl + 1);
      if (cmd === 'echo') io.stdout(`${args.join(' ')}\n`);
      else if (cmd === 'exit') io.ended(Number(args[0] ?? 0));
      else if (cmd) io.stderr(`sh: ${cmd}: not found\n`);
    }
  };
}
const exec: ShellExec = (_target, _tty, io) => {
  const write = lineShell(io);
  return Promise.resolve({ write, resize: () => undefined, close: () => undefined });
};

const ns = useNamespace('ui-console');
const fx = useApi(ns, () => ({}), { shellExec: exec });
const state = { browser: undefined as unknown as Browser, agent: '', gateway: '', n: 0 };

/** A TCP relay between chromium and the API that the test can cut, and hold down. */
const relay = { server: undefined as unknown as Server, sockets: new Set<Socket>(), down: false, url: '' };

async function startRelay(target: URL): Promise<void> {
  relay.server = createServer((client) => {
    if (relay.down) return void client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      relay.sockets.add(s);
      s.on('close', () => relay.sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => relay.server.listen(0, '127.0.0.1', r));
  relay.url = `http://127.0.0.1:${(relay.server.address() as AddressInfo).port}`;
}

function cut(): void {
  for (const s of relay.sockets) s.destroy();
}

/** Posts records as the agent's credential proxy; answers their paths. */
async function post(count: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  const records = Array.from({ length: count }, () => accessRecord(++state.n, extra));
  const r = await fx.call('POST', `/v1/agents/${state.agent}/accesses`, {
    key: state.gateway,
    body: { records },
  });
  if (r.status !== 202) throw new Error(`accesses: ${r.status} ${JSON.stringify(r.body)}`);
  return records.map((x) => String(x.path));
}

async function runningPod(agent: string): Promise<void> {
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  const name = `agent-${agent}`;
  await core.createNamespacedPod({
    namespace: ns.name,
    body: {
      metadata: { name, labels: { [LABEL.agent]: agent } },
      spec: { containers: [{ name: 'agent', image: 'example.invalid/agent' }] },
    },
  });
  await core.patchNamespacedPodStatus(
    { namespace: ns.name, name, body: { status: { phase: 'Running' } } },
    mergePatch,
  );
}

beforeAll(async () => {
  state.agent = await fx.createAgent('watched', undefined, {
    abilities: {
      subagents: [
        { name: 'researcher', description: 'finds sources' },
        { name: 'writer', description: 'drafts the answer' },
      ],
    },
  });
  await runningPod('watched');
  state.gateway = await agentGatewayKey(fx, state.agent, true);
  await post(1);
  await post(1, {
    method: 'DELETE',
    action: 'delete',
    outcome: 'denied',
    status: 403,
    subagent: 'researcher',
  });
  await post(1, { subagent: 'writer' });
  await startRelay(new URL(fx.api.url));
  state.browser = await launch();
}, 120_000);

afterAll(async () => {
  await state.browser?.close();
  cut();
  relay.server?.close();
});

async function consolePage(key: string): Promise<Page> {
  const page = await state.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${relay.url}/ui/#/agents/${state.agent}/console`);
  await page.getByLabel('API key').fill(key);
  // The shell is shown or not once the passport (its shares) is in.
  const passport = page.waitForResponse((r) => r.url().endsWith(`/v1/agents/${state.agent}/passport`));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: `Console of ${state.agent}`, level: 1 }).waitFor();
  expect((await passport).status()).toBe(200);
  await expect.poll(() => page.getByTestId('connection').textContent()).toBe('Live.');
  return page;
}

const rows = (page: Page) => page.getByTestId('console-event');
const shownPaths = (page: Page): Promise<string[]> =>
  rows(page).evaluateAll((els) => els.map((e) => /\/items\/\d+/.exec(e.textContent ?? '')?.[0] ?? '?'));

describe('the console page', () => {
  it('shows buffered and live events and filters them by severity, auditor and subagent', async () => {
    const page = await consolePage(fx.keys.viewer);
    await expect.poll(() => shownPaths(page)).toEqual(['/items/1', '/items/2', '/items/3']);
    const [live] = await post(1);
    await expect.poll(() => shownPaths(page)).toContain(live);
    expect(await rows(page).filter({ hasText: '/items/2' }).textContent()).toMatch(
      /warning.*researcher.*denied/,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'console');

    await page.getByLabel('Severity').selectOption('warning');
    await expect.poll(() => shownPaths(page)).toEqual(['/items/2']);
    await page.getByLabel('Severity').selectOption('');
    await page.getByLabel('Subagent', { exact: true }).selectOption('writer');
    await expect.poll(() => shownPaths(page)).toEqual(['/items/3']);
    await page.getByLabel('Subagent', { exact: true }).selectOption('');
    await page.getByLabel('Auditor').fill('Not An Auditor');
    await page.getByRole('button', { name: 'Apply' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/lower-case letters/);
    expect(await page.getByLabel('Auditor').inputValue()).toBe('Not An Auditor');
    await page.getByLabel('Auditor').fill('injection');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByText('No events yet.').count()).toBe(1);
    expect(await rows(page).count()).toBe(0);
    await page.close();
  });

  it('holds new events while paused, says how many, and stops following when scrolled up', async () => {
    const page = await consolePage(fx.keys.viewer);
    await expect.poll(() => rows(page).count()).toBeGreaterThanOrEqual(4);
    const before = await shownPaths(page);
    await page.getByRole('button', { name: 'Pause' }).click();
    const held = await post(2);
    await expect.poll(() => page.getByTestId('new-count').textContent()).toBe('2 new');
    expect(await shownPaths(page)).toEqual(before);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => shownPaths(page)).toEqual([...before, ...held]);

    const follow = page.getByRole('button', { name: 'Follow' });
    expect(await follow.getAttribute('aria-pressed')).toBe('true');
    const more = await post(40);
    await expect.poll(() => shownPaths(page)).toContain(more.at(-1));
    const box = page.getByRole('region', { name: 'Console events' });
    // Following: the newest line is in view.
    await expect
      .poll(() => box.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight))
      .toBeLessThan(9);
    await box.hover();
    await page.mouse.wheel(0, -600);
    await expect.poll(() => follow.getAttribute('aria-pressed')).toBe('false');
    const top = await box.evaluate((el) => el.scrollTop);
    await post(3);
    await expect.poll(() => rows(page).count()).toBe(before.length + held.length + 43);
    expect(await box.evaluate((el) => el.scrollTop)).toBe(top);
    await page.close();
  });

  it('drills down into a subagent from the tree: its events and its details', async () => {
    const page = await consolePage(fx.keys.viewer);
    const tree = page.getByTestId('subagent-tree');
    await tree.getByRole('button', { name: /researcher/ }).click();
    await expect.poll(() => shownPaths(page)).toEqual(['/items/2']);
    const details = page.getByTestId('node-details');
    expect(await details.getByRole('heading').textContent()).toBe('researcher');
    expect(await details.textContent()).toMatch(
      /finds sources.*Status(active|idle).*Recent usage0 model calls, 1 tool calls/,
    );
    expect(await page.getByLabel('Subagent', { exact: true }).inputValue()).toBe('researcher');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'console-subagent');
    await tree.getByRole('button', { name: /^watched/ }).click();
    await expect.poll(() => rows(page).count()).toBeGreaterThan(1);
    expect(await details.getByRole('heading').textContent()).toBe('watched');
    await page.close();
  });

  it('says it is reconnecting when the stream is cut, then resumes with every event once', async () => {
    const page = await consolePage(fx.keys.viewer);
    await page.getByLabel('Severity').selectOption('warning');
    await expect.poll(() => shownPaths(page)).toEqual(['/items/2']);
    const denied = { method: 'DELETE', action: 'delete', outcome: 'denied', status: 403 };
    const [first] = await post(1, denied);
    await expect.poll(() => shownPaths(page)).toEqual(['/items/2', first]);
    relay.down = true;
    cut();
    await expect
      .poll(() => page.getByTestId('connection').textContent())
      .toBe('Connection lost. Reconnecting…');
    const missed = await post(2, denied);
    relay.down = false;
    await expect.poll(() => page.getByTestId('connection').textContent(), { timeout: 30_000 }).toBe('Live.');
    const [after] = await post(1, denied);
    await expect
      .poll(() => shownPaths(page), { timeout: 30_000 })
      .toEqual(['/items/2', first, ...missed, after]);
    await page.close();
  });

  it('brings the login back when the key stops working mid-stream', async () => {
    const minted = await fx.call('POST', '/v1/api-keys', {
      key: fx.keys.org_admin,
      body: { subject: SUBJECTS.viewer },
    });
    const page = await consolePage(String(minted.body.key));
    const revoked = await fx.call('DELETE', `/v1/api-keys/${String(minted.body.id)}`, {
      key: fx.keys.org_admin,
    });
    expect(revoked.status).toBe(204);
    await eventually(async () => {
      const r = await fx.call('GET', '/v1/whoami', { key: String(minted.body.key) });
      return r.status === 401 ? true : undefined;
    }, 'the revoked key refused');
    cut();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).first().textContent(), { timeout: 60_000 })
      .toMatch(/Sign in/);
    expect(
      await page
        .getByText(/Your session has ended/)
        .first()
        .isVisible(),
    ).toBe(true);
    await page.close();
  });

  it('opens the shell for an Owner, with history on the arrow keys, and hides it from others', async () => {
    const page = await consolePage(fx.keys.owner);
    const shell = page.getByTestId('shell');
    await shell.getByRole('button', { name: 'Open shell' }).click();
    const input = shell.getByLabel('Command');
    await expect.poll(() => input.isEnabled()).toBe(true);
    await input.fill('echo hello from the browser');
    await input.press('Enter');
    await expect
      .poll(() => shell.getByTestId('shell-output').textContent())
      .toContain('hello from the browser\n');
    await input.fill('nope');
    await input.press('Enter');
    await expect.poll(() => shell.getByTestId('shell-output').textContent()).toContain('sh: nope: not found');
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe('nope');
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe('echo hello from the browser');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'console-shell');
    await input.fill('exit 3');
    await input.press('Enter');
    await expect.poll(() => shell.getByRole('status').textContent()).toBe('The shell exited with code 3.');
    await page.close();

    for (const key of [fx.keys.editor, fx.keys.viewer]) {
      const other = await consolePage(key);
      await expect.poll(() => other.getByTestId('subagent-tree').count()).toBe(1);
      expect(await other.getByTestId('shell').count()).toBe(0);
      expect(await other.getByRole('button', { name: 'Open shell' }).count()).toBe(0);
      await other.close();
    }
  });
});
