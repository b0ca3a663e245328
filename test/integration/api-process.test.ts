// `platform run api` as a real process: it creates the bootstrap key, serves
// over HTTP, logs each request as one JSON line, keeps its audit log in a file
// by default, and stops cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readBootstrapKey } from './api-harness.ts';
import { eventually, useNamespace } from './harness.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ns = useNamespace('api-process');
const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('platform run api', () => {
  it('serves with a bootstrap admin key and shuts down gracefully on SIGTERM', async () => {
    // No PLATFORM_API_AUDIT_LOG: the audit log goes to its default file under XDG_STATE_HOME.
    const state = mkdtempSync(join(tmpdir(), 'api-state-'));
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'platform.js'), 'run', 'api'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        KUBECONFIG: inject('kubeconfigPath'),
        PLATFORM_API_PORT: '0',
        PLATFORM_API_METRICS_PORT: '0',
        PLATFORM_API_HOST: '127.0.0.1',
        PLATFORM_API_NAMESPACE: ns.name,
        PLATFORM_WATCH_NAMESPACE: ns.name,
        XDG_STATE_HOME: state,
      },
    });
    children.push(child);
    const logs: Record<string, unknown>[] = [];
    createInterface({ input: child.stdout! }).on('line', (l) => {
      try {
        logs.push(JSON.parse(l) as Record<string, unknown>);
      } catch {
        logs.push({ msg: l });
      }
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const port = await eventually(
      () => logs.find((l) => l.msg === 'api listening')?.port as number | undefined,
      'the api to listen',
      30_000,
    );
    const opsPort = logs.find((l) => String(l.msg).startsWith('ops endpoints listening'))?.port as number;
    const base = `http://127.0.0.1:${port}`;
    const ops = `http://127.0.0.1:${opsPort}`;
    await eventually(
      async () => ((await fetch(`${ops}/readyz`)).status === 200 ? true : undefined),
      'readiness on the ops port',
    );
    // The ops port serves the scrape; the public port does not.
    expect(await (await fetch(`${ops}/metrics`)).text()).toContain('platform_api_requests_total');
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    const key = await readBootstrapKey(ns.name);
    const res = await fetch(`${base}/v1/api-keys`, {
      headers: { authorization: `Bearer ${key}`, 'x-request-id': 'proc-1' },
    });
    expect(res.status).toBe(200);
    const line = await eventually(
      () => logs.find((l) => l.msg === 'request' && l.requestId === 'proc-1'),
      'the access log line',
    );
    expect(line).toMatchObject({
      method: 'GET',
      route: 'GET /v1/api-keys',
      status: 200,
      subject: 'bootstrap-admin',
    });
    expect(JSON.stringify(logs)).not.toContain(key);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(logs.some((l) => l.msg === 'stopped')).toBe(true);
    const audit = readFileSync(join(state, 'agent-platform', 'audit.jsonl'), 'utf8');
    const entries = audit
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { requestId: string });
    expect(entries.some((e) => e.requestId === 'proc-1')).toBe(true);
  });
});
