// Every built-in auditor, started as its own process exactly as a pod would
// start it, passes the conformance suite, registers with a loopback gateway
// and stops cleanly on SIGTERM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_AUDITORS } from '../../auditors/registry.ts';
import { formatFailures, runConformance } from '../../auditors/conformance/suite.ts';
import {
  freePort,
  spawnAuditor,
  startReceiver,
  type AuditorChild,
  type Receiver,
} from './fixtures/loopback.ts';

describe.each(Object.keys(BUILTIN_AUDITORS))('built-in auditor %s as its own process', (name) => {
  let gateway: Receiver;
  let auditor: AuditorChild;

  beforeAll(async () => {
    gateway = await startReceiver();
    auditor = spawnAuditor(
      name,
      { PLATFORM_GATEWAY_URL: gateway.url, TEE_PROVIDER: 'MOCK' },
      await freePort(),
    );
  });

  afterAll(async () => {
    await auditor?.stop();
    await gateway?.close();
  });

  it('passes the conformance suite', async () => {
    const report = await runConformance(auditor.url, { readyTimeoutMs: 45_000 });
    expect(report.checks.length).toBeGreaterThan(20);
    expect(report.auditorId).toBe(name);
    expect(formatFailures(report) || 'all checks passed').toBe('all checks passed');
    expect(report.passed).toBe(true);
  });

  it('registered itself with the gateway', async () => {
    const reg = await gateway.waitFor((r) => r.path === '/v1/auditors/register');
    expect(reg.body).toMatchObject({ auditor_id: name, health_check_interval: 30 });
    const body = reg.body as { endpoint: string; vocabulary_url: string };
    expect(body.vocabulary_url).toBe(`${body.endpoint}/vocabulary`);
  });

  it('exits 0 on SIGTERM', async () => {
    expect(await auditor.stop()).toBe(0);
    expect(auditor.output()).toContain('"msg":"stopped"');
  });
});
