// `platform login` and `logout` as subprocesses against the Verifier API
// (in process, on the test control plane): the minted key in a 0600 file,
// logout revoking it, a second login revoking the key it replaces, wrong
// credentials and an unreachable server as one line each; a command reading
// with the stored key (`platform auditor list`) works after login, and a
// revoked or expired key gives exit 3 and the hint to log in again on one
// line; PLATFORM_API_KEY overrides the file.
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../../hack/control-plane/control-plane.ts';
import { useApi } from './api-harness.ts';
import { linesOf, runCli, type CliResult } from '../fixtures/cli/run-cli.ts';
import { eventually, useNamespace } from './harness.ts';

/** The exit codes of operator/cli/errors.ts (docs/cli.md). */
const EXIT = { ok: 0, failed: 1, usage: 2, auth: 3, unreachable: 4 } as const;

interface CliConfig {
  server?: string;
  api_key?: string;
  key_id?: string;
}

const ns = useNamespace('cli-login');
const fx = useApi(ns);

const configFile = (): string => join(mkdtempSync(join(tmpdir(), 'cli-login-')), 'platform', 'config.yaml');
const login = (config: string, token: string, ...more: string[]): Promise<CliResult> =>
  runCli(['login', '--token', token, '--server', fx.api.url, ...more], { env: { PLATFORM_CONFIG: config } });
const logout = (config: string): Promise<CliResult> =>
  runCli(['logout'], { env: { PLATFORM_CONFIG: config } });

/** The status a direct call with `key` gets, once the API's key cache agrees with `want`. */
async function statusWith(key: string, want: number): Promise<number> {
  return eventually(async () => {
    const r = await fx.call('GET', '/v1/api-keys', { key });
    return r.status === want ? r.status : undefined;
  }, `GET /v1/api-keys → ${want}`);
}

function oneLine(r: CliResult, status: number, line: string, secrets: string[] = []): void {
  expect([r.status, r.stdout, linesOf(r.stderr)]).toEqual([status, '', [line]]);
  for (const s of secrets) expect(r.stderr).not.toContain(s);
}

async function loggedIn(config: string): Promise<Required<Pick<CliConfig, 'api_key' | 'key_id'>>> {
  const r = await login(config, fx.keys.org_admin);
  expect([r.status, r.stderr]).toEqual([0, '']);
  const saved = parse(readFileSync(config, 'utf8')) as CliConfig;
  return { api_key: saved.api_key!, key_id: saved.key_id! };
}

describe('platform login and logout', () => {
  it('mints a key of its own into a 0600 config file, and logout revokes it', async () => {
    const config = configFile();
    const r = await login(config, fx.keys.org_admin);
    expect([r.status, r.stderr]).toEqual([0, '']);
    const url = fx.api.url.replace(/[.]/g, '\\.');
    expect(r.stdout).toMatch(
      new RegExp(
        `^Logged in to ${url} as \\S+ \\(user key [0-9a-f]{16}, expires \\S+\\); saved in ${config}\\n$`,
      ),
    );
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(config)).mode & 0o777).toBe(0o700);
    const saved = parse(readFileSync(config, 'utf8')) as CliConfig;
    expect(saved).toMatchObject({ server: fx.api.url, key_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(saved.api_key).toEqual(expect.any(String));
    expect(saved.api_key).not.toBe(fx.keys.org_admin);
    expect(readFileSync(config, 'utf8')).not.toContain(fx.keys.org_admin);
    for (const secret of [saved.api_key!, fx.keys.org_admin]) expect(r.stdout).not.toContain(secret);
    expect(await statusWith(saved.api_key!, 200)).toBe(200);

    const out = await logout(config);
    expect([out.status, out.stdout, out.stderr]).toEqual([0, `Logged out; removed ${config}\n`, '']);
    expect(existsSync(config)).toBe(false);
    expect(await statusWith(saved.api_key!, 401)).toBe(401);
    // The credential that logged in is not touched.
    expect(await statusWith(fx.keys.org_admin, 200)).toBe(200);
  });

  it('prints the login as JSON without the key, and a second login revokes the key it replaces', async () => {
    const config = configFile();
    const first = await loggedIn(config);
    const again = await login(config, fx.keys.org_admin, '-o', 'json');
    expect([again.status, again.stderr]).toEqual([0, '']);
    const summary = JSON.parse(again.stdout) as Record<string, unknown>;
    expect(Object.keys(summary).sort()).toEqual([
      'config',
      'expires_at',
      'key_id',
      'role',
      'server',
      'subject',
    ]);
    const second = parse(readFileSync(config, 'utf8')) as CliConfig;
    expect(summary.key_id).toBe(second.key_id);
    expect(second.key_id).not.toBe(first.key_id);
    expect(await statusWith(first.api_key, 401)).toBe(401);
    expect(await statusWith(second.api_key!, 200)).toBe(200);
    expect((await logout(config)).status).toBe(0);
  });

  it('refuses wrong credentials with exit 3 on one line, writing nothing', async () => {
    const config = configFile();
    const wrong = 'pk_not-a-real-key-0000000000000000';
    oneLine(
      await login(config, wrong),
      EXIT.auth,
      `platform: the Verifier at ${fx.api.url} did not accept that credential; check the token and try again`,
      [wrong],
    );
    expect(existsSync(config)).toBe(false);
  });

  it('says so in one line when the server cannot be reached (exit 4) or no credential is given (exit 2)', async () => {
    const config = configFile();
    const port = await freePort();
    const r = await runCli(['login', '--token', 'x', '--server', `http://127.0.0.1:${port}`], {
      env: { PLATFORM_CONFIG: config },
    });
    oneLine(
      r,
      EXIT.unreachable,
      `platform: cannot reach the Verifier at http://127.0.0.1:${port}: ECONNREFUSED; check --server or PLATFORM_SERVER, and that \`platform run api\` is running`,
    );
    const none = await runCli(['login', '--server', fx.api.url], { env: { PLATFORM_CONFIG: config } });
    oneLine(
      none,
      EXIT.usage,
      'platform: no credential given; pass --token <api key, OIDC ID token or service-account token> or --token-stdin',
    );
  });

  it('logs out of a revoked key, and of a config file that is not YAML', async () => {
    const config = configFile();
    const { api_key, key_id } = await loggedIn(config);
    await fx.call('DELETE', `/v1/api-keys/${key_id}`, { key: fx.keys.org_admin });
    expect(await statusWith(api_key, 401)).toBe(401);
    const out = await logout(config);
    expect([out.status, out.stderr]).toEqual([0, '']);
    expect(existsSync(config)).toBe(false);

    mkdirSync(dirname(config), { recursive: true });
    writeFileSync(config, 'api_key: [\n', { mode: 0o600 });
    const broken = await logout(config);
    expect(broken.status).toBe(0);
    expect(linesOf(broken.stderr)).toEqual([
      `warning: ${config} is not valid YAML; fix it or run \`platform logout\` to remove it; removing it without revoking a key`,
    ]);
    expect(existsSync(config)).toBe(false);
  });

  it('reads with the stored key after login; a revoked or expired key is exit 3 with the hint to log in again', async () => {
    const config = configFile();
    const list = (env: Record<string, string> = {}): Promise<CliResult> =>
      runCli(['auditor', 'list', '-o', 'json'], { env: { PLATFORM_CONFIG: config, ...env } });
    const { api_key, key_id } = await loggedIn(config);
    const ok = await list();
    expect([ok.status, ok.stderr]).toEqual([0, '']);
    expect(JSON.stringify(JSON.parse(ok.stdout))).toContain('injection');

    await fx.call('DELETE', `/v1/api-keys/${key_id}`, { key: fx.keys.org_admin });
    expect(await statusWith(api_key, 401)).toBe(401);
    const refused = await list();
    expect(refused.status).toBe(EXIT.auth);
    expect(linesOf(refused.stderr)).toHaveLength(1);
    expect(refused.stderr).toMatch(/^platform: unauthorized \(401\): .+; run `platform login` again\n$/);
    expect(refused.stderr).not.toContain(api_key);

    // PLATFORM_API_KEY overrides the file's (revoked) key; a refused one says which key to fix.
    expect((await list({ PLATFORM_API_KEY: fx.keys.org_admin })).status).toBe(0);
    const bad = await list({ PLATFORM_API_KEY: 'pk_not-a-real-key-0000000000000000' });
    expect(bad.status).toBe(EXIT.auth);
    expect(bad.stderr).toMatch(
      /PLATFORM_API_KEY was refused: set a valid key or unset it and run `platform login`\n$/,
    );

    const minted = await fx.call('POST', '/v1/api-keys', {
      key: fx.keys.org_admin,
      body: { expires_at: new Date(Date.now() + 2_000).toISOString() },
    });
    expect(minted.status).toBe(201);
    await new Promise((r) => setTimeout(r, 2_500));
    const expired = await list({ PLATFORM_API_KEY: String(minted.body.key) });
    expect(expired.status).toBe(EXIT.auth);
    expect(linesOf(expired.stderr)).toHaveLength(1);
    expect(expired.stderr).toMatch(/^platform: unauthorized \(401\): .*expired/);
  });
});
