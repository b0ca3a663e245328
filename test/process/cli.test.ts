import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'platform.js');
const run = (...args: string[]): { status: number | null; stderr: string; stdout: string } => {
  const res = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, KUBECONFIG: '' },
  });
  return { status: res.status, stderr: res.stderr, stdout: res.stdout };
};

describe('platform CLI', () => {
  it('lists the roles in its help', () => {
    const res = run('run', '--help');
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/operator \| webhook \| api \| gateway \| auditor \| proxy/);
  });

  it('refuses an unknown role with one clear line and exit code 2', () => {
    const res = run('run', 'teapot');
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/unknown role 'teapot'; available roles: .*operator/);
  });

  it('refuses a malformed --set with exit code 2', () => {
    const res = run('run', 'operator', '--set', 'novalue');
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('--set "novalue": expected name=value');
  });
});
