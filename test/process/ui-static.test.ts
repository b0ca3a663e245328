// The UI middleware on a real HTTP server: types, cache headers, ETag
// revalidation, the security headers, redirects, 405/404, a bundle that is
// not built, and paths it must leave to the API.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShaper } from '../../api/http/errors.ts';
import { loadUiBundle, UI_CSP } from '../../api/ui/bundle.ts';
import { uiEndpoint } from '../../api/ui/serve.ts';
import { createLogger } from '../../base/log.ts';

const servers: Server[] = [];

async function serve(dir: string | undefined): Promise<string> {
  const app = new Koa();
  app.silent = true;
  app.use(errorShaper(createLogger('test', { level: 'silent' })));
  app.use(uiEndpoint(dir ? loadUiBundle(dir) : undefined));
  app.use((ctx) => {
    ctx.body = { passed: ctx.path };
  });
  const server = createServer(app.callback());
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const state = { url: '', unbuilt: '' };

/** The status of a GET sent with `path` exactly as written (fetch would resolve the dots first). */
function rawStatus(base: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ui-bundle-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(dir, 'assets', 'index-AbCd1234.js'), 'console.info(1)');
  writeFileSync(join(dir, 'assets', 'index-AbCd1234.js.map'), '{}');
  state.url = await serve(dir);
  state.unbuilt = await serve(undefined);
});

afterAll(() => {
  for (const s of servers) s.close();
});

describe('the UI endpoint', () => {
  it('serves index.html uncached with the security headers, and 304 on its ETag', async () => {
    const r = await fetch(`${state.url}/ui/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect(r.headers.get('content-security-policy')).toBe(UI_CSP);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(await r.text()).toContain('<title>t</title>');
    const again = await fetch(`${state.url}/ui/`, {
      headers: { 'if-none-match': r.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('serves hashed assets immutable and leaves out source maps', async () => {
    const r = await fetch(`${state.url}/ui/assets/index-AbCd1234.js`);
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${state.url}/ui/assets/index-AbCd1234.js.map`)).status).toBe(404);
    const missing = await fetch(`${state.url}/ui/assets/nope-12345678.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
  });

  it('redirects / and /ui to /ui/, refuses writes, and refuses to climb out', async () => {
    for (const path of ['/', '/ui']) {
      const r = await fetch(`${state.url}${path}`, { redirect: 'manual' });
      expect(r.status).toBe(302);
      expect(r.headers.get('location')).toBe('/ui/');
    }
    const post = await fetch(`${state.url}/ui/`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    for (const path of ['/ui/../package.json', '/ui/%2e%2e/package.json', '/ui/assets/../index.html'])
      expect(await rawStatus(state.url, path)).toBe(404);
  });

  it('passes every other path on untouched', async () => {
    for (const path of ['/v1/agents', '/healthz', '/uix', '/openapi.json']) {
      const r = await fetch(`${state.url}${path}`);
      expect(await r.json()).toEqual({ passed: path });
    }
  });

  it('says how to build the UI when the bundle is missing', async () => {
    const r = await fetch(`${state.unbuilt}/ui/`);
    expect(r.status).toBe(503);
    expect(await r.text()).toMatch(/npm run build:ui/);
  });
});
