// The definition editor and the credentials page in chromium against the
// facade of the e2e cluster, with the sample agents live on the real node: a
// pasted PlatformAgent (a comment, an unknown section) named and given an
// Owner in the form, validated and applied, whose pod is admitted with its
// gateway and auditor sidecars and runs on the node; and an API key connected
// on the research workspace's credentials page that the credential proxy puts
// into a live agent's call to a tool pod — the agent container never holds it,
// no page answer carries it — until it is revoked on the page, after which
// the proxy refuses the still-routed call and nothing reaches the tool. axe
// on every page, screenshots at 1280/375 px.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { launch, screenshots } from '../ui/browser.ts';
import { agentId, listAgents, waitAgentReady, type AgentRef } from './agents.ts';
import { api, apiKey, eventually, kubectl, kubectlOk } from './support.ts';
import { fetchScript, inAgent, noSeriousViolations, uiUrl } from './ui-live.ts';

const SUMMARIZER: AgentRef = { namespace: 'default', name: 'summarizer' };
const DEFINED: AgentRef = { namespace: 'default', name: 'ui-tiers-def' };
const TOOL = 'ui-tiers-tool';
const SERVICE = 'ui-tiers-tool';
const CANARY = `ui-tiers-canary-${Date.now().toString(36)}`;
const LIVE = { timeout: 30_000, interval: 200 } as const;
const sha256 = (t: string): string => createHash('sha256').update(t).digest('hex');
const s = { browser: undefined as unknown as Browser, admin: '', toolIp: '', rules: [] as unknown[] };
/** Every answer any page of this file received, for the canary scan. */
const answers: string[] = [];

const FILE = `# Made in the editor by the e2e run.
apiVersion: platform.io/v1alpha1
kind: PlatformAgent
metadata:
  name: my-agent
spec:
  model:
    id: gpt-4o-mini   # the cheap one
  auditorChain:
    preRequest:
      - auditorId: injection
    postResponse:
      - auditorId: toxicity

# Ours, not the platform's: the editor keeps it.
x-team-notes:
  oncall: alice
`;

// The tool: answers with what it saw (the Authorization only as a hash); `/_seen` lists every request.
const TOOL_SCRIPT = `
const { createHash } = require('node:crypto'); const seen = [];
require('node:http').createServer((req, res) => {
  if (req.url === '/_seen') return res.end(JSON.stringify(seen));
  const auth = req.headers.authorization ?? '';
  seen.push({ method: req.method, url: req.url, auth });
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ url: req.url, auth_sha256: createHash('sha256').update(auth).digest('hex') }));
}).listen(8443);
`;

async function startTool(): Promise<string> {
  kubectl(['-n', 'default', 'delete', 'pod', TOOL, '--ignore-not-found', '--wait=true']);
  const container = {
    name: 'tool',
    image: 'localhost/agent-platform/agent-runtime:dev',
    imagePullPolicy: 'Never',
    command: ['node', '-e', TOOL_SCRIPT],
    ports: [{ containerPort: 8443 }],
  };
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: TOOL, namespace: 'default', labels: { app: TOOL } },
    spec: { containers: [container] },
  };
  kubectlOk(['apply', '-f', '-'], JSON.stringify(pod));
  const field = (path: string): string =>
    kubectl(['-n', 'default', 'get', 'pod', TOOL, '-o', `jsonpath={${path}}`]).stdout.trim();
  return eventually(() => {
    const ip = field('.status.podIP');
    return ip && field('.status.containerStatuses[0].ready') === 'true' ? ip : undefined;
  }, 'the tool pod running');
}

const seenByTool = (): { url: string; auth: string }[] =>
  JSON.parse(
    kubectlOk([
      ...['-n', 'default', 'exec', TOOL, '--', 'node', '-e'],
      "fetch('http://127.0.0.1:8443/_seen').then(r=>r.text()).then(console.log)",
    ]),
  ) as { url: string; auth: string }[];

const workspaceRules = (rules: unknown[]): string =>
  kubectlOk([
    ...['-n', 'default', 'patch', 'platformworkspace', 'research', '--type', 'merge', '-p'],
    JSON.stringify({ spec: { environment: { credentialRouting: rules } } }),
  ]);

const samples = (): string => kubectlOk(['apply', '-f', join(REPO_ROOT, 'config', 'samples')]);

beforeAll(async () => {
  samples();
  const ws = JSON.parse(
    kubectlOk(['-n', 'default', 'get', 'platformworkspace', 'research', '-o', 'json']),
  ) as {
    spec: { environment?: { credentialRouting?: unknown[] } };
  };
  s.rules = ws.spec.environment?.credentialRouting ?? [];
  const [, toolIp] = await Promise.all([waitAgentReady(SUMMARIZER, 300_000), startTool()]);
  s.toolIp = toolIp;
  s.admin = await apiKey();
  s.browser = await launch();
}, 600_000);

afterAll(async () => {
  await s.browser?.close();
  workspaceRules(s.rules);
  const left = await api<{ items: { id: string; service: string }[] }>(
    '/v1/scoped-credentials?scope=workspace&scope_id=default.research',
  );
  for (const c of left.body.items?.filter((i) => i.service === SERVICE) ?? [])
    await api(`/v1/scoped-credentials/${c.id}`, { method: 'DELETE' });
  kubectl(['-n', 'default', 'delete', 'pod', TOOL, '--ignore-not-found', '--wait=false']);
  kubectl(['-n', 'default', 'delete', 'platformagent', DEFINED.name, '--ignore-not-found', '--wait=false']);
});

async function signedIn(hash: string, heading: string): Promise<Page> {
  const page = await s.browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('response', (r) => {
    void r
      .text()
      .then((body) => answers.push(JSON.stringify({ url: r.url(), headers: r.headers(), body })))
      .catch(() => undefined);
  });
  await page.goto(uiUrl(hash));
  await page.getByLabel('API key').fill(s.admin);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

const yaml = (page: Page) => page.getByLabel('Definition file (YAML): paste or type here');

describe('the definition editor against the real node', () => {
  it('applies a pasted agent named and owned through the form; its pod runs with its sidecars', async () => {
    const page = await signedIn('#/definitions', 'Definitions');
    await page.getByLabel('Namespace (when the file names none)').fill(DEFINED.namespace);
    await yaml(page).fill(FILE);
    await page.getByLabel('Name (metadata.name)').fill(DEFINED.name);
    await page.getByLabel('New in owners: Subject').fill('carol@example.com');
    await page.getByLabel('New in owners: Role').fill('Owner');
    await page.getByRole('button', { name: 'Add to owners' }).click();
    expect(await page.getByLabel('Owners 1: Subject').inputValue()).toBe('carol@example.com');
    const text = await yaml(page).inputValue();
    expect(text).toContain(`  name: ${DEFINED.name}\n`);
    expect(text).toContain('    id: gpt-4o-mini   # the cheap one\n');
    expect(text).toContain(
      "# Ours, not the platform's: the editor keeps it.\nx-team-notes:\n  oncall: alice\n",
    );
    expect(text).toMatch(/owners:\n\s+- subject: carol@example.com\n\s+role: Owner/);

    await page.getByRole('button', { name: 'Validate' }).click();
    await expect
      .poll(() => page.getByTestId('definition-outcome').textContent(), LIVE)
      .toBe(`Valid: PlatformAgent ${DEFINED.namespace}/${DEFINED.name}.`);
    expect(await page.getByTestId('yaml-errors').count()).toBe(0);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => page.getByTestId('definition-outcome').textContent(), LIVE)
      .toBe(`Applied: PlatformAgent ${DEFINED.namespace}/${DEFINED.name} created.`);
    await noSeriousViolations(page);
    await screenshots(page, 'live-definitions');

    const pod = await waitAgentReady(DEFINED, 300_000);
    const names = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining(['agent', 'platform-gateway', 'auditor-injection', 'auditor-toxicity']),
    );
    expect(pod.status?.phase).toBe('Running');
    expect(pod.spec?.nodeName).toEqual(expect.any(String));
    const agent = (await listAgents()).find((a) => a.metadata.name === DEFINED.name);
    expect(agent?.spec.owners).toEqual([{ subject: 'carol@example.com', role: 'Owner' }]);

    await page.getByRole('link', { name: `Open agent ${agentId(DEFINED)}` }).waitFor();
    await page.getByRole('link', { name: 'Agents', exact: true }).click();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    const row = page.getByTestId('agents-table').locator('tbody tr').filter({ hasText: DEFINED.name });
    await expect.poll(() => row.locator('td').nth(0).textContent(), LIVE).toBe('running · ready');
    expect(await row.locator('td').nth(1).textContent()).toBe('carol@example.com');
    await page.close();
  }, 400_000);
});

const credential = (page: Page) => page.locator(`[data-testid="credential"][data-service="${SERVICE}"]`);

/** One call from the summarizer's agent container to the tool; resolves with its output. */
const call = (path: string): Promise<string> =>
  inAgent(SUMMARIZER, fetchScript(`http://${s.toolIp}:8443${path}`, {}));

// Every file the agent container can read (not /proc, /sys, /dev), searched for the canary; and its env.
const SEARCH_SCRIPT = `
const fs = require('node:fs'); const p = require('node:path'); const c = ${JSON.stringify(CANARY)}; const hits = [];
const walk = (d) => { let es; try { es = fs.readdirSync(d, { withFileTypes: true }); } catch { return; }
  for (const e of es) { const f = p.join(d, e.name);
    if (['/proc', '/sys', '/dev'].includes(f)) continue;
    if (e.isDirectory()) walk(f);
    else if (e.isFile()) { try { if (fs.statSync(f).size < 4e6 && fs.readFileSync(f).includes(c)) hits.push(f); } catch {} } } };
walk('/');
if (Object.values(process.env).some((v) => v?.includes(c))) hits.push('env');
console.log(JSON.stringify(hits));
`;

describe('a credential connected on the page, used by a live agent', () => {
  it("reaches the tool in the agent's call, never the agent, and stops once revoked on the page", async () => {
    const page = await signedIn('#/credentials/workspace/default/research', 'Credentials and tools');
    await page.getByLabel('Service', { exact: true }).fill(SERVICE);
    await page.getByLabel('Destinations (optional)').fill(s.toolIp);
    const key = page.getByLabel('API key', { exact: true });
    expect(await key.getAttribute('type')).toBe('password');
    await key.fill(CANARY);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent(), LIVE)
      .toBe(`${SERVICE} is connected.`);
    await credential(page).waitFor();
    expect(await key.inputValue()).toBe('');
    // Pending until the credential controller finds its Secret: the API writes the Secret after the
    // credential, and the controller looks again a minute later. The page shows it as it is when opened.
    await expect
      .poll(
        async () => {
          await page.reload();
          return credential(page).getByTestId('auth-status').textContent();
        },
        { timeout: 150_000, interval: 5_000 },
      )
      .toBe('Connected');
    expect(await page.content()).not.toContain(CANARY);
    await noSeriousViolations(page);
    await screenshots(page, 'live-credentials');

    // The live agent's effective credentials list it.
    const effective = await api<{ items: { service: string; credential: { id: string } }[] }>(
      `/v1/scoped-credentials/effective?agent_id=${agentId(SUMMARIZER)}`,
    );
    const mine = effective.body.items.find((i) => i.service === SERVICE);
    expect(mine).toBeDefined();
    // The workspace routes the tool's address to it (as egress.test.ts does).
    const credentialRef = mine!.credential.id.split('.').slice(1).join('.');
    workspaceRules([...s.rules, { destination: s.toolIp, credentialRef, injectionMethod: 'sidecar' }]);

    // The proxy reads the rule within its refresh (30 s).
    const said = await eventually(
      async () => {
        const out = await call('/with-key');
        return out.includes(sha256(`Bearer ${CANARY}`)) ? out : undefined;
      },
      'the call carrying the connected key',
      180_000,
    );
    expect(said).toMatch(/^200 /);
    expect(said).not.toContain(CANARY);
    expect(seenByTool().some((c) => c.url === '/with-key' && c.auth === `Bearer ${CANARY}`)).toBe(true);
    expect(await inAgent(SUMMARIZER, SEARCH_SCRIPT)).toBe('[]');

    await credential(page)
      .getByRole('button', { name: `Revoke ${SERVICE}` })
      .click();
    await page.getByRole('button', { name: `Yes, revoke ${SERVICE}` }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent(), LIVE)
      .toBe(`The ${SERVICE} credential was revoked.`);
    await expect.poll(() => credential(page).count(), LIVE).toBe(0);
    const after = await api<{ items: { service: string }[] }>(
      `/v1/scoped-credentials/effective?agent_id=${agentId(SUMMARIZER)}`,
    );
    expect(after.body.items.map((i) => i.service)).not.toContain(SERVICE);
    // The proxy reads the material again within its minute: the Verifier no longer gives it, so the
    // still-routed call is refused at the proxy and nothing carrying the key reaches the tool.
    const refused = await eventually(
      async () => {
        const out = await call('/after-revoke');
        return out.startsWith('403 ') ? out : undefined;
      },
      'the call refused without the revoked key',
      180_000,
    );
    expect(refused).toMatch(/^403 .*"code":"(credential_not_available|egress_denied)"/);
    const reached = seenByTool().length;
    expect(await call('/after-revoke')).toMatch(/^403 .*"code":"(credential_not_available|egress_denied)"/);
    expect(seenByTool().length).toBe(reached);
    await page.close();
    expect(answers.length).toBeGreaterThan(5);
    for (const a of answers) expect(a).not.toContain(CANARY);
  }, 500_000);
});
