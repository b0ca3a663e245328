// The SDK's guarantees over real HTTP on loopback, with the deliberately
// broken test auditor: contract violations become INTERNAL_ERROR, deadlines
// AUDITOR_TIMEOUT, excess load AUDITOR_OVERLOAD; readiness follows loading;
// self-registration retries until a receiver answers; a missing required
// variable stops start-up with a clear line.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../base/log.ts';
import { startAuditor, type RunningAuditor } from '../../auditors/sdk/serve.ts';
import type { AuditorDefinition } from '../../auditors/sdk/types.ts';
import { postJson, send } from '../../auditors/conformance/http.ts';
import { runConformance } from '../../auditors/conformance/suite.ts';
import { exited, freePort, REPO_ROOT, startReceiver, type Receiver } from './fixtures/loopback.ts';
import { createTestAuditor } from './fixtures/test-auditors.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function quietLog(lines: string[] = []) {
  const destination = new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) });
  return createLogger('test', { destination, level: 'debug' });
}

async function start(
  def: AuditorDefinition,
  env: Record<string, string> = {},
  gateway?: Receiver,
  lines?: string[],
): Promise<RunningAuditor> {
  const g = gateway ?? (await startReceiver());
  if (!gateway) cleanups.push(() => g.close());
  const running = await startAuditor(def, {
    log: quietLog(lines),
    env: {
      PLATFORM_GATEWAY_URL: g.url,
      TEE_PROVIDER: 'MOCK',
      PORT: '0',
      PLATFORM_AUDITOR_HOST: '127.0.0.1',
      ...env,
    },
    registerInitialDelayMs: 50,
  });
  cleanups.push(() => running.close());
  await running.loaded;
  return running;
}

const ask = (input: string) => ({ data: { input }, phase: 'request' });

describe('auditor SDK over HTTP', () => {
  it('turns an undeclared claim and a wrong-typed value into INTERNAL_ERROR, and keeps serving', async () => {
    const lines: string[] = [];
    const a = await start(createTestAuditor(), {}, undefined, lines);
    for (const input of ['undeclared', 'wrong-type', 'decide']) {
      const res = await postJson(`${a.url}/claims`, ask(input));
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        status: 'error',
        claims: [],
        error: { code: 'INTERNAL_ERROR', retryable: true },
      });
    }
    expect(lines.join('')).toContain('made_up_claim');
    expect((await postJson(`${a.url}/claims`, ask('fine'))).json).toMatchObject({ status: 'success' });
  });

  it('fails the conformance suite when every answer breaks the vocabulary', async () => {
    const a = await start(createTestAuditor({ alwaysBroken: true }));
    const report = await runConformance(a.url, { oversizedBytes: 2 * 1024 * 1024 });
    expect(report.passed).toBe(false);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual([
      'claims.request',
      'claims.response',
      'claims.provenance_settings',
      'batch',
    ]);
  });

  it('passes the conformance suite when the test auditor behaves', async () => {
    const report = await runConformance((await start(createTestAuditor())).url, {
      oversizedBytes: 2 * 1024 * 1024,
    });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('answers AUDITOR_TIMEOUT with timeout_ms and partial claims after HTTP_TIMEOUT', async () => {
    const a = await start(createTestAuditor(), { HTTP_TIMEOUT: '0.2' });
    const res = await postJson(`${a.url}/claims`, ask('slow'));
    expect(res.json).toMatchObject({
      status: 'error',
      claims: [],
      error: {
        code: 'AUDITOR_TIMEOUT',
        retryable: true,
        details: { timeout_ms: 200, partial_claims: [{ name: 'test_score' }] },
      },
    });
  });

  it('answers AUDITOR_OVERLOAD past the concurrency limit', async () => {
    const a = await start(createTestAuditor(), { HTTP_TIMEOUT: '1', PLATFORM_AUDITOR_MAX_CONCURRENT: '1' });
    const slow = postJson(`${a.url}/claims`, ask('slow'));
    await new Promise((r) => setTimeout(r, 100));
    const res = await postJson(`${a.url}/claims`, ask('fine'));
    expect(res.json).toMatchObject({
      status: 'error',
      error: { code: 'AUDITOR_OVERLOAD', retryable: true, details: { max_concurrent: 1 } },
    });
    expect((await slow).json).toMatchObject({ error: { code: 'AUDITOR_TIMEOUT' } });
  });

  it('reports ready false, /readyz 503 and a retryable error until loading finishes', async () => {
    const g = await startReceiver();
    cleanups.push(() => g.close());
    const running = await startAuditor(createTestAuditor({ loadDelayMs: 600 }), {
      log: quietLog(),
      env: {
        PLATFORM_GATEWAY_URL: g.url,
        TEE_PROVIDER: 'MOCK',
        PORT: '0',
        PLATFORM_AUDITOR_HOST: '127.0.0.1',
      },
    });
    cleanups.push(() => running.close());
    expect((await send(`${running.url}/health`)).json).toMatchObject({ status: 'healthy', ready: false });
    expect((await send(`${running.url}/readyz`)).status).toBe(503);
    expect((await send(`${running.url}/healthz`)).status).toBe(200);
    expect((await postJson(`${running.url}/claims`, ask('x'))).json).toMatchObject({
      error: { code: 'INTERNAL_ERROR', retryable: true },
    });
    await running.loaded;
    expect((await send(`${running.url}/health`)).json).toMatchObject({ ready: true });
    expect((await send(`${running.url}/readyz`)).status).toBe(200);
  });

  it('counts claims per name and request latency in /metrics', async () => {
    const a = await start(createTestAuditor());
    await postJson(`${a.url}/claims`, ask('fine'));
    const text = (await send(`${a.url}/metrics`)).text;
    expect(text).toMatch(/auditor_claims_total\{[^}]*claim="test_score"[^}]*\} 1/);
    expect(text).toContain('auditor_request_duration_seconds_bucket');
  });
});

describe('self-registration', () => {
  it('does not hold up start-up and retries until a receiver answers', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const running = await startAuditor(createTestAuditor(), {
      log: quietLog(lines),
      env: {
        PLATFORM_GATEWAY_URL: `http://127.0.0.1:${port}`,
        TEE_PROVIDER: 'MOCK',
        PORT: '0',
        PLATFORM_AUDITOR_HOST: '127.0.0.1',
        PLATFORM_API_KEY: 'pk-test-secret',
      },
      registerInitialDelayMs: 50,
    });
    cleanups.push(() => running.close());
    expect((await send(`${running.url}/health`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 400));
    const gateway = await startReceiver(port);
    cleanups.push(() => gateway.close());
    const result = await running.registration;
    expect(result).toMatchObject({ registered: true });
    expect(result?.attempts).toBeGreaterThan(1);
    const reg = gateway.received[0];
    expect(reg?.path).toBe('/v1/auditors/register');
    expect(reg?.headers.authorization).toBe('Bearer pk-test-secret');
    expect(reg?.body).toMatchObject({
      auditor_id: 'test-auditor',
      health_check_interval: 30,
      supported_phases: ['request', 'response'],
    });
    expect(lines.join('')).toContain('retrying');
    expect(lines.join('')).not.toContain('pk-test-secret');
  });
});

describe('start-up configuration', () => {
  it('stops with exit 2 and one line per missing required variable', async () => {
    const child = spawn(
      process.execPath,
      [join(REPO_ROOT, 'bin', 'platform.js'), 'run', 'auditor', 'model-context'],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', TEE_PROVIDER: 'MOCK' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    expect(await exited(child)).toBe(2);
    expect(err.split('\n').filter((l) => l.includes('PLATFORM_GATEWAY_URL is required'))).toHaveLength(1);
    expect(err).not.toContain('TEE_PROVIDER is required');
  });
});
