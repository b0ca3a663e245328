// `npm run bench -- ui`: the management UI's first render of the agent list
// with 1,000 agents in chromium (from navigation to the last row in the
// table), and the bundle's size raw and gzipped. The UI's own bundle is
// built first and served by the facade's UI endpoint; /v1 answers with 1,000
// generated agents from memory, so the figure is the page's, not a cluster's.
// Prints figures; asserts nothing about speed.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import { build } from 'vite';
import { defaultUiDir, loadUiBundle } from '../../api/ui/bundle.ts';
import { uiEndpoint } from '../../api/ui/serve.ts';
import { launch } from '../ui/browser.ts';

const AGENTS = 1000;
const RUNS = 5;

function agents(): unknown[] {
  return Array.from({ length: AGENTS }, (_, i) => ({
    agent_id: `team-${i % 10}.agent-${i}`,
    namespace: `team-${i % 10}`,
    name: `agent-${i}`,
    phase: i % 7 === 0 ? 'suspended' : 'running',
    spec: {
      owners: [
        { subject: `owner-${i}@example.com`, role: 'Owner' },
        { subject: 'vera@example.com', role: 'Viewer' },
      ],
    },
    status: { trustTier: i % 3 === 0 ? 'tee_attested' : 'mtls_verified' },
  }));
}

function fakeApi(): Koa.Middleware {
  const body = JSON.stringify({ items: agents() });
  return (ctx) => {
    ctx.type = 'application/json';
    if (ctx.path === '/v1/agents') ctx.body = body;
    else if (ctx.path === '/v1/notifications/count') ctx.body = { count: 0, approvals: 0, consents: 0 };
    else ctx.status = 404;
  };
}

function bundleSizes(): { raw: number; gzip: number; files: number } {
  const bundle = loadUiBundle(defaultUiDir(fileURLToPath(new URL('../../api/ui/', import.meta.url))));
  if (!bundle) throw new Error('no bundle in ui/dist');
  let raw = 0;
  let gzip = 0;
  for (const f of bundle.files.values()) {
    raw += f.body.length;
    gzip += gzipSync(f.body, { level: 9 }).length;
  }
  return { raw, gzip, files: bundle.files.size };
}

async function main(): Promise<void> {
  await build({
    configFile: fileURLToPath(new URL('../../ui/vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
  const app = new Koa();
  app.use(uiEndpoint(loadUiBundle(defaultUiDir(fileURLToPath(new URL('../../api/ui/', import.meta.url))))));
  app.use(fakeApi());
  const server = createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ui/#/agents`;
  const browser = await launch();
  const session = JSON.stringify({
    key: 'bench',
    who: { subject: 'vera@example.com', method: 'api_key', org_admin: false, workspace_admin_of: [] },
  });
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(`sessionStorage.setItem('platform.session', ${JSON.stringify(session)})`);
    await page.goto(url);
    await page.waitForFunction(
      `document.querySelectorAll('[data-testid=agents-table] tbody tr').length === ${AGENTS}`,
      undefined,
      { polling: 'raf' },
    );
    times.push(Number(await page.evaluate('performance.now()')));
    await page.close();
  }
  await browser.close();
  server.close();
  const sorted = [...times].sort((a, b) => a - b);
  const sizes = bundleSizes();
  console.log(`first render of ${AGENTS} agents (navigation → last row), ${RUNS} runs:`);
  console.log(
    `  median ${sorted[Math.floor(RUNS / 2)]!.toFixed(0)} ms, min ${sorted[0]!.toFixed(0)} ms, max ${sorted[RUNS - 1]!.toFixed(0)} ms`,
  );
  console.log(
    `bundle: ${sizes.files} files, ${(sizes.raw / 1024).toFixed(1)} KiB raw, ${(sizes.gzip / 1024).toFixed(1)} KiB gzip`,
  );
}

await main();
