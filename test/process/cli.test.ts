import { spawn, spawnSync } from 'node:child_process';
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

describe('graceful stop', () => {
  it('still exits 0 on SIGTERM when the reader of its logs has gone away (closed pipe)', async () => {
    const child = spawn(process.execPath, [BIN, 'run', 'proxy'], {
      env: { ...process.env, PORT: '0', PLATFORM_PROXY_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    // Every later log line now fails with EPIPE.
    child.stdout.destroy();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
