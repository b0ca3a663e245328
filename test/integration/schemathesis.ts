// The hostile run in CI form: Schemathesis (pinned in hack/versions.env,
// installed by hack/prereqs.sh) reads the API's own OpenAPI document and runs
// every check it has against the running API over real HTTP, once with an
// Owner's key (the agent routes) and once with the org administrator's (the
// policy, audit, registration and key routes an Owner is refused): no 5xx, every status and body as documented, invalid input
// refused, valid input accepted, 405 with `Allow`, no auth ignored. Bounded
// (a few examples per operation, one worker, a fixed seed) so it finishes in
// a few minutes and fails the same way twice. Each persona's run is its own
// test file (api-schemathesis-owner/-admin), with its own namespace and API,
// so the two run side by side instead of one after the other.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { cacheRoot } from '../../hack/control-plane/paths.ts';
import { useApi } from './api-harness.ts';
import { useNamespace } from './harness.ts';

const CONFIG = join(dirname(fileURLToPath(import.meta.url)), 'schemathesis.toml');
const ST = join(cacheRoot(), 'schemathesis-venv', 'bin', 'st');
const workDir = mkdtempSync(join(tmpdir(), 'schemathesis-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Runs `st` without blocking the event loop: the API under test lives in this process. */
function runSchemathesis(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ST, args, {
      cwd: workDir,
      env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_HOOKS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

export function schemathesisAgainstTheApi(persona: 'owner' | 'org_admin'): void {
  const ns = useNamespace(`api-st-${persona === 'owner' ? 'owner' : 'admin'}`);
  const fx = useApi(ns);
  it(`finds no failure with every check enabled, as ${persona}`, async () => {
    expect(existsSync(ST), `${ST} missing: run bash hack/prereqs.sh`).toBe(true);
    const key = fx.keys[persona];
    if (persona === 'owner') await fx.createAgent('fuzz-target');
    const { code, output } = await runSchemathesis([
      '--config-file',
      CONFIG,
      'run',
      `${fx.api.url}/openapi.json`,
      '--checks',
      'all',
      '--header',
      `Authorization: Bearer ${key}`,
      '--max-examples',
      '8',
      '--seed',
      '20260613',
      '--workers',
      '1',
      '--request-timeout',
      '20',
      '--generation-database',
      'none',
      '--suppress-health-check',
      'all',
      '--no-color',
    ]);
    // The whole report (with each failure's curl reproduction) goes into a failing assertion's
    // message only: printed on success, its pytest-style summary line reads to a CI log parser
    // as the suite's own result ("N warnings in Ts", no tests).
    const report = output.split(key).join(`<${persona} key>`);
    expect(output, report).toMatch(/\d+ passed/);
    expect(output, report).not.toMatch(/\d+ (failed|errored)/);
    expect(code, report).toBe(0);
    const cases = /(\d+) generated/.exec(output)?.[1] ?? '?';
    console.log(`[schemathesis] as ${persona}: ${cases} generated cases, no failure`);
  }, 1_200_000);
}
