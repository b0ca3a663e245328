// Helpers of the UI's end-to-end file: the browser signed in against the
// facade of the e2e cluster, keyboard focus, a call made with node inside an
// agent pod, and a small echo server run as its own pod (a tool the agent
// reaches, which lists what it saw).
import { spawn } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { findBinary } from '../../hack/control-plane/paths.ts';
import { verifierUrl } from '../../hack/system/roles.ts';
import { seriousViolations } from '../ui/browser.ts';
import { podName, type AgentRef } from './agents.ts';
import { eventually, kubeconfigPath, kubectl, kubectlOk, topology } from './support.ts';

export const uiUrl = (hash = ''): string => `${verifierUrl(topology())}/ui/${hash}`;

/** A new page at `hash`, signed in with `key`, once the page's level-1 heading `heading` shows. */
export async function signedIn(browser: Browser, key: string, hash: string, heading: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(uiUrl(hash));
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

export async function noSeriousViolations(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** The element that has focus: its accessible name or text, and whether it is inside a dialog. */
export const focused = (page: Page): Promise<{ inDialog: boolean; name: string }> =>
  page.evaluate(`(() => {
    const el = document.activeElement;
    return {
      inDialog: !!el?.closest('dialog'),
      name: el?.getAttribute('aria-label') ?? (el?.id || el?.textContent?.trim() || ''),
    };
  })()`);

/** Presses Tab until the control named `name` has focus. */
export async function tabTo(page: Page, name: string, max = 25): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focused(page)).name === name) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${name}`);
}

/** Runs `script` with node inside the agent container; resolves with its output (it may wait for an approval). */
export function inAgent(agent: AgentRef, script: string): Promise<string> {
  const bin = findBinary('kubectl') as string;
  const args = ['--kubeconfig', kubeconfigPath(), '-n', agent.namespace, 'exec', podName(agent)];
  return new Promise((resolve) => {
    const child = spawn(bin, [...args, '-c', 'agent', '--', 'node', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', () => resolve(out.trim()));
  });
}

/** A script for inAgent: one fetch, printing the status and the body. */
export const fetchScript = (url: string, init: object): string =>
  `fetch(${JSON.stringify(url)}, ${JSON.stringify(init)}).then(async (r) => console.log(r.status, await r.text()), (e) => console.log('error', e.cause?.code ?? e.message))`;

// The tool: answers every request with its method and path; `/_seen` lists what it received.
const TOOL_SCRIPT = `
const seen = [];
require('node:http').createServer((req, res) => {
  if (req.url === '/_seen') return res.end(JSON.stringify(seen));
  seen.push({ method: req.method, url: req.url });
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ method: req.method, url: req.url }));
}).listen(8443);
`;

/** Starts the echo tool as pod `name` in `default`; resolves with its IP once it serves. */
export async function startTool(name: string): Promise<string> {
  kubectl(['-n', 'default', 'delete', 'pod', name, '--ignore-not-found', '--wait=true']);
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      containers: [
        {
          name: 'tool',
          image: 'localhost/agent-platform/agent-runtime:dev',
          imagePullPolicy: 'Never',
          command: ['node', '-e', TOOL_SCRIPT],
          ports: [{ containerPort: 8443 }],
        },
      ],
    },
  };
  kubectlOk(['apply', '-f', '-'], JSON.stringify(pod));
  const field = (path: string): string =>
    kubectl(['-n', 'default', 'get', 'pod', name, '-o', `jsonpath={${path}}`]).stdout.trim();
  return eventually(() => {
    const ip = field('.status.podIP');
    return ip && field('.status.containerStatuses[0].ready') === 'true' ? ip : undefined;
  }, `the tool pod ${name} running`);
}

/** What the tool pod received. */
export const seenByTool = (name: string): { method: string; url: string }[] =>
  JSON.parse(
    kubectlOk([
      ...['-n', 'default', 'exec', name, '--', 'node', '-e'],
      "fetch('http://127.0.0.1:8443/_seen').then(r=>r.text()).then(console.log)",
    ]),
  ) as { method: string; url: string }[];
