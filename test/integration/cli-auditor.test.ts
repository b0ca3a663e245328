// `platform auditor` as a user runs it, each command a subprocess: init a
// project on the SDK, `npm install` it (offline: a file: link to this
// checkout), and the conformance suite passes on it as made; a broken copy
// fails naming the check; dev serves it and reloads on change; register with
// the Verifier (real apiserver), list shows it, schema prints its settings,
// verify checks it in service and its Dockerfile or image configuration; bad
// input ends with one line and the documented exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';
import { CLOSED_URL } from '../process/fixtures/loopback.ts';
import { useApi } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';

const REPO = join(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'platform.js');
const ns = useNamespace('cli-aud');
const fx = useApi(ns);
const work = mkdtempSync(join(tmpdir(), 'cli-auditor-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end without blocking this process (the API answers from it). */
function run(cmd: string, args: string[], env: Record<string, string> = {}, cwd = work): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `platform …` against the test Verifier as its org administrator. */
const platform = (...args: string[]): Promise<Run> =>
  run(process.execPath, [BIN, ...args], {
    PLATFORM_SERVER: fx.api.url,
    PLATFORM_API_KEY: fx.keys.org_admin,
    PLATFORM_CONFIG: join(work, 'config.yaml'),
  });

const oneLine = (r: Run): string => r.stderr.trim();

async function initProject(name: string): Promise<string> {
  const dir = join(work, name);
  const init = await platform('auditor', 'init', name, '--dir', dir);
  expect(init.code, init.stderr).toBe(0);
  const npm = await run('npm', ['install', '--offline', '--no-audit', '--no-fund'], {}, dir);
  expect(npm.code, npm.stderr).toBe(0);
  return dir;
}

let auditorId = '';
let project = '';
let dev: ChildProcess | undefined;
let devUrl = '';
let devOut = '';
/** A loopback address nothing listens at. */
let closed = '';

beforeAll(async () => {
  auditorId = `kw-${ns.name}`.slice(0, 63).replace(/-+$/, '');
  closed = CLOSED_URL;
  project = await initProject(auditorId);
}, 120_000);

afterAll(async () => {
  if (dev && dev.exitCode === null) {
    dev.kill('SIGINT');
    await new Promise((r) => dev?.once('exit', r));
  }
  const custom = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  await custom
    .deleteClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'auditorregistrations',
      name: auditorId,
    })
    .catch(() => undefined);
});

describe('auditor init and test', () => {
  it('makes a project that passes the whole conformance suite as generated', async () => {
    const res = await platform('auditor', 'test', project);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    for (const id of [
      'health',
      'vocabulary',
      'claims.request',
      'claims.response',
      'batch',
      'no_decision_words',
    ])
      expect(res.stdout).toContain(`PASS  ${id}\n`);
    expect(res.stdout).toMatch(
      new RegExp(`PASSED ${auditorId} at http://127\\.0\\.0\\.1:\\d+: \\d+ checks: \\d+ passed, 0 failed`),
    );
  });

  it('fails on a broken auditor, naming the check, with exit 1', async () => {
    const broken = await initProject('broken-kw');
    const source = join(broken, 'src', 'auditor.ts');
    // The claim is declared boolean; a string value breaks the vocabulary contract.
    writeFileSync(source, readFileSync(source, 'utf8').replace('value: score >= threshold', "value: 'yes'"));
    const res = await platform('auditor', 'test', broken, '-o', 'json');
    expect(res.code).toBe(1);
    const report = JSON.parse(res.stdout) as {
      passed: boolean;
      checks: { id: string; ok: boolean; problems: string[] }[];
    };
    expect(report.passed).toBe(false);
    const failed = report.checks.filter((c) => !c.ok).map((c) => c.id);
    expect(failed).toContain('claims.request');
    expect(report.checks.find((c) => c.id === 'claims.request')?.problems.join()).toMatch(/INTERNAL_ERROR/);
    expect(failed).not.toContain('health');
  });

  it('refuses to write into a non-empty directory, and an invalid name', async () => {
    const res = await platform('auditor', 'init', 'again', '--dir', project);
    expect(res.code).toBe(2);
    expect(oneLine(res)).toMatch(/is not empty; nothing was written/);
    const bad = await platform('auditor', 'init', 'Bad_Name', '--dir', join(work, 'bad'));
    expect(bad.code).toBe(2);
    expect(oneLine(bad)).toMatch(/not a valid auditor id/);
  });

  it('names a missing or uninstalled project, and an auditor URL nothing answers at (exit 4)', async () => {
    const missing = await platform('auditor', 'test', join(work, 'nope'));
    expect(missing.code).toBe(2);
    expect(oneLine(missing)).toMatch(/is neither a URL nor a directory/);
    const fresh = join(work, 'not-installed');
    expect((await platform('auditor', 'init', 'not-installed', '--dir', fresh)).code).toBe(0);
    const uninstalled = await platform('auditor', 'test', fresh);
    expect(uninstalled.code).toBe(2);
    expect(oneLine(uninstalled)).toBe(
      `platform: ${fresh} has no node_modules; run \`npm install\` in ${fresh} first`,
    );
    const down = await platform('auditor', 'test', closed);
    expect(down.code).toBe(4);
    expect(oneLine(down)).toBe(
      `platform: cannot reach the auditor at ${closed}: ECONNREFUSED; check the URL and that the auditor is running`,
    );
  });
});

describe('auditor dev', () => {
  it(
    'serves the project at the URL it prints and reloads it when a file changes',
    { timeout: 120_000 },
    async () => {
      dev = spawn(process.execPath, [BIN, 'auditor', 'dev', project], {
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      dev.stdout?.on('data', (c: Buffer) => (devOut += c.toString()));
      dev.stderr?.on('data', (c: Buffer) => (devOut += c.toString()));
      devUrl = await eventually(
        async () => /^(http:\/\/127\.0\.0\.1:\d+)$/m.exec(devOut)?.[1],
        'the dev URL',
        60_000,
      );
      expect(devOut).toContain('(reloads on change)');
      const version = async (): Promise<string | undefined> =>
        ((await (await fetch(`${devUrl}/vocabulary`)).json()) as { version: string }).version;
      expect(await version()).toBe('0.1.0');
      const source = join(project, 'src', 'auditor.ts');
      const changed = readFileSync(source, 'utf8').replace("VERSION = '0.1.0'", "VERSION = '0.2.0'");
      // tsx's watcher is set up asynchronously after the child loaded its files, so
      // an edit made the instant the URL is printed can come before it: edit again
      // every few seconds (as a user saving twice would) until the reload shows.
      let lastWrite = 0;
      const reloaded = eventually(
        async () => {
          if ((await version().catch(() => undefined)) === '0.2.0') return true;
          if (Date.now() - lastWrite > 3000) {
            writeFileSync(source, changed);
            lastWrite = Date.now();
          }
          return undefined;
        },
        'reload',
        60_000,
      );
      await expect(
        reloaded.catch((err: Error) => `${err.message}; dev output: ${devOut.slice(-800)}`),
      ).resolves.toBe(true);
    },
  );
});

describe('register, list, schema and verify', () => {
  it('registers the running auditor; the Verifier fetched its vocabulary', async () => {
    const res = await platform(
      'auditor',
      'register',
      '--id',
      auditorId,
      '--name',
      'Keyword watch',
      '--endpoint',
      devUrl,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(`auditor ${auditorId} registered (vocabulary synced)\n`);
  });

  it('lists it with its name, mode, health and claims', async () => {
    const table = await eventually(async () => {
      const r = await platform('auditor', 'list');
      return r.stdout.includes(auditorId) ? r : undefined;
    }, 'the registration in the list');
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+MODE\s+HEALTH\s+TIER\s+CLAIMS$/);
    const row = table.stdout.split('\n').find((l) => l.startsWith(`${auditorId} `)) ?? '';
    const prefix = auditorId.replace(/-/g, '_');
    expect(row).toMatch(
      new RegExp(`Keyword watch\\s+external\\s+unknown\\s+unverified\\s+${prefix}_detected,`),
    );
    expect(table.stdout).toMatch(/^injection\s+/m);
    const json = JSON.parse((await platform('auditor', 'list', '-o', 'json')).stdout) as {
      items: { auditor_id: string; endpoint: string; claims: { name: string }[] }[];
    };
    const item = json.items.find((a) => a.auditor_id === auditorId);
    expect(item?.endpoint).toBe(devUrl);
    expect(item?.claims.map((c) => c.name)).toEqual([
      `${prefix}_detected`,
      `${prefix}_score`,
      `${prefix}.matches`,
    ]);
  });

  it('prints its settings schema as a table, and as YAML', async () => {
    const res = await platform('auditor', 'schema', auditorId);
    expect(res.code, res.stderr).toBe(0);
    const prefix = auditorId.replace(/-/g, '_');
    expect(res.stdout).toMatch(/^CLAIM\s+SETTING\s+TYPE\s+DEFAULT\s+BOUNDS$/m);
    expect(res.stdout).toMatch(new RegExp(`^${prefix}_detected\\s+threshold\\s+number\\s+0\\.5\\s+-$`, 'm'));
    expect(res.stdout).toMatch(
      new RegExp(`^${prefix}\\.matches\\s+keywords\\s+string\\[\\]\\s+\\[password, api key`, 'm'),
    );
    const yaml = await platform('auditor', 'schema', 'toxicity', '-o', 'yaml');
    expect(yaml.stdout).toMatch(/^auditor_id: toxicity$/m);
    const builtin = await platform('auditor', 'schema', 'toxicity');
    expect(builtin.stdout).toMatch(/^toxicity_score\s+threshold\s+number\s+0\.7\s+0–1 \(step 0\.05\)$/m);
  });

  it('verifies it in service: health, vocabulary, claims and its registration, and its Dockerfile', async () => {
    const res = await platform('auditor', 'verify', auditorId, '--dockerfile', join(project, 'Dockerfile'));
    expect(res.code, res.stdout + res.stderr).toBe(0);
    for (const id of [
      'health',
      'vocabulary',
      'claims.request',
      'registry.claims',
      'dockerfile.labels',
      'dockerfile.user',
    ])
      expect(res.stdout).toContain(`PASS  ${id}\n`);
    expect(res.stdout).not.toContain('invalid_input');
  });

  it('fails an image configuration that runs as root, naming the check', async () => {
    const config = join(work, 'image-config.json');
    writeFileSync(
      config,
      JSON.stringify({
        architecture: 'amd64',
        config: { User: 'root', Labels: { 'io.platform.auditor': 'true' } },
      }),
    );
    const res = await platform('auditor', 'verify', '--image-config', config);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^FAIL {2}image_config\.user: the image runs as root$/m);
    expect(res.stdout).toMatch(
      /^FAIL {2}image_config\.labels: label io\.platform\.schema_version is missing/m,
    );
  });
});

describe('bad input', () => {
  it('an unknown id: exit 1 with the 404 detail', async () => {
    const schema = await platform('auditor', 'schema', 'no-such-auditor');
    expect(schema.code).toBe(1);
    expect(oneLine(schema)).toBe(
      'platform: GET /v1/auditors/schema/no-such-auditor: 404: no auditor no-such-auditor: neither built in nor registered',
    );
    const verify = await platform('auditor', 'verify', 'no-such-auditor');
    expect(verify.code).toBe(1);
    expect(oneLine(verify)).toMatch(
      /no auditor no-such-auditor: neither built in nor registered; see `platform auditor list`/,
    );
  });

  it('an unreachable Verifier: exit 4', async () => {
    const res = await run(process.execPath, [BIN, 'auditor', 'list', '--server', closed], {
      PLATFORM_API_KEY: 'x',
      PLATFORM_CONFIG: join(work, 'config.yaml'),
    });
    expect(res.code).toBe(4);
    expect(oneLine(res)).toMatch(
      new RegExp(`^platform: cannot reach the Verifier at ${closed}: ECONNREFUSED`),
    );
  });

  it('missing or wrong flags: exit 2, nothing sent', async () => {
    const noId = await platform('auditor', 'register', '--endpoint', devUrl);
    expect(noId.code).toBe(2);
    expect(oneLine(noId)).toMatch(/required option '--id <auditor-id>' not specified/);
    const noWhere = await platform('auditor', 'register', '--id', 'x');
    expect(noWhere.code).toBe(2);
    expect(oneLine(noWhere)).toMatch(/give --endpoint <url> or --image <ref>/);
    const nothing = await platform('auditor', 'verify');
    expect(nothing.code).toBe(2);
  });

  it('a registration the Verifier refuses: exit 1 with its detail', async () => {
    const res = await platform(
      'auditor',
      'register',
      '--id',
      `gone-${ns.name}`,
      '--endpoint',
      'http://127.0.0.1:9',
    );
    expect(res.code).toBe(1);
    expect(oneLine(res)).toMatch(
      /POST \/v1\/auditors\/register: 422: vocabulary_url http:\/\/127\.0\.0\.1:9\/vocabulary could not be fetched/,
    );
  });

  it('dev stops on SIGINT', async () => {
    dev?.kill('SIGINT');
    const code = await new Promise<number | null>((r) =>
      dev?.exitCode !== null ? r(dev!.exitCode) : dev.once('exit', r),
    );
    expect([0, 130, null]).toContain(code);
    await eventually(
      async () =>
        (await fetch(`${devUrl}/health`).then(
          () => false,
          () => true,
        )) || undefined,
      'the auditor stopped',
    );
  });
});
