import { describe, expect, it } from 'vitest';
import { API_VERSION } from '../../contract/kube.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import {
  healthCondition,
  healthFromProbe,
  healthUrl,
  inWatchScope,
  MODEL_PROBE,
  probeDueInMs,
  probeTimeoutMs,
  registrationReady,
} from './health.ts';

const NOW = new Date('2026-01-01T00:01:00Z');

function reg(
  spec: Partial<AuditorRegistration['spec']>,
  status?: AuditorRegistration['status'],
): AuditorRegistration {
  return {
    apiVersion: API_VERSION,
    kind: 'AuditorRegistration',
    metadata: { name: 'ext', generation: 2 },
    spec: {
      auditorId: 'ext',
      category: 'security',
      phase: 'input_guarding',
      deploymentMode: 'external',
      endpoint: 'https://ext.example.com/base/',
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

const checked = (checkedAt: string, generation = 2): AuditorRegistration['status'] => ({
  observedGeneration: generation,
  health: { status: 'healthy', checkedAt, detail: 'ok' },
});

describe('registry health checks', () => {
  it('probes the contract’s GET /health under the endpoint', () => {
    expect(healthUrl(reg({}))).toBe('https://ext.example.com/base/health');
    expect(healthUrl(reg({ endpoint: 'http://10.0.0.1:8080?x=1' }))).toBe('http://10.0.0.1:8080/health');
    expect(healthUrl(reg({ endpoint: undefined, deploymentMode: 'sidecar', image: 'a' }))).toBeUndefined();
    expect(healthUrl(reg({ endpoint: 'ftp://ext.example.com' }))).toBeUndefined();
    expect(healthUrl(reg({ endpoint: 'not a url' }))).toBeUndefined();
  });

  it('reads an answer: healthy or ok with 200 is healthy; anything else says why not', () => {
    const healthy = healthFromProbe(
      { kind: 'answer', status: 200, body: { status: 'healthy', ready: true } },
      NOW,
    );
    expect(healthy).toEqual({
      status: 'healthy',
      checkedAt: NOW.toISOString(),
      detail: 'GET /health answered healthy',
    });
    expect(healthFromProbe({ kind: 'answer', status: 200, body: { status: 'ok' } }, NOW).status).toBe(
      'healthy',
    );
    const cases: [Parameters<typeof healthFromProbe>[0], string][] = [
      [{ kind: 'answer', status: 503, body: undefined }, 'GET /health answered HTTP 503'],
      [
        { kind: 'answer', status: 200, body: { status: 'degraded' } },
        'GET /health answered status "degraded"',
      ],
      [{ kind: 'answer', status: 200, body: 'text' }, 'GET /health answered status null'],
      [
        { kind: 'answer', status: 200, body: { status: 'healthy', ready: false } },
        'GET /health answered ready: false',
      ],
      [{ kind: 'failed', error: 'ECONNREFUSED\n\u0007' }, 'GET /health failed: ECONNREFUSED  '],
    ];
    for (const [result, detail] of cases) {
      expect(healthFromProbe(result, NOW)).toEqual({
        status: 'unhealthy',
        checkedAt: NOW.toISOString(),
        detail,
      });
    }
  });

  it('turns the health into the Healthy condition', () => {
    const h = healthFromProbe({ kind: 'failed', error: 'timeout' }, NOW);
    expect(healthCondition(h)).toEqual({
      type: 'Healthy',
      status: 'False',
      reason: 'ProbeFailed',
      message: 'GET /health failed: timeout',
    });
    expect(healthCondition({ ...h, status: 'healthy' })).toMatchObject({
      status: 'True',
      reason: 'ProbeSucceeded',
    });
  });

  it('probes when never probed or the spec changed, else when the interval has passed', () => {
    expect(probeDueInMs(reg({}), NOW)).toBe(0);
    expect(probeDueInMs(reg({}, checked('2026-01-01T00:00:50Z')), NOW)).toBe(20_000);
    expect(probeDueInMs(reg({ healthCheckIntervalSeconds: 5 }, checked('2026-01-01T00:00:50Z')), NOW)).toBe(
      0,
    );
    expect(probeDueInMs(reg({}, checked('2026-01-01T00:00:50Z', 1)), NOW)).toBe(0);
    expect(probeDueInMs(reg({}, checked('2026-01-01T00:02:00Z')), NOW)).toBe(0);
  });

  it('waits for an answer at most the interval and at most 10 s', () => {
    expect(probeTimeoutMs(reg({ healthCheckIntervalSeconds: 2 }))).toBe(2000);
    expect(probeTimeoutMs(reg({}))).toBe(10_000);
  });

  it('probes, in an operator limited to one namespace, only that workspace’s registrations', () => {
    expect(inWatchScope([], undefined)).toBe(true);
    expect(inWatchScope([], 'team')).toBe(false);
    expect(inWatchScope(['other', 'team'], 'team')).toBe(true);
    expect(inWatchScope(['other'], 'team')).toBe(false);
  });

  it('probes a model’s OpenAI-compatible GET /models: a list is healthy', () => {
    expect(healthUrl(reg({ endpoint: 'http://m.example/v1/' }), MODEL_PROBE.path)).toBe(
      'http://m.example/v1/models',
    );
    const list = { kind: 'answer' as const, status: 200, body: { object: 'list', data: [] } };
    expect(healthFromProbe(list, NOW, MODEL_PROBE)).toEqual({
      status: 'healthy',
      checkedAt: NOW.toISOString(),
      detail: 'GET /models answered healthy',
    });
    const cases: [Parameters<typeof healthFromProbe>[0], string][] = [
      [{ kind: 'answer', status: 401, body: {} }, 'GET /models answered HTTP 401'],
      [
        { kind: 'answer', status: 200, body: { status: 'ok' } },
        'GET /models answered no model list (data[])',
      ],
      [{ kind: 'failed', error: 'ECONNREFUSED' }, 'GET /models failed: ECONNREFUSED'],
    ];
    for (const [result, detail] of cases)
      expect(healthFromProbe(result, NOW, MODEL_PROBE).detail).toBe(detail);
  });
});

describe('registrationReady', () => {
  it('follows the probe for an endpoint, and is Unknown before the first one', () => {
    const r = reg({});
    const healthy = healthFromProbe({ kind: 'answer', status: 200, body: { status: 'healthy' } }, NOW);
    expect(registrationReady(r, healthy, '/health')).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'ProbeSucceeded',
      message: 'GET /health answered healthy',
    });
    const down = healthFromProbe({ kind: 'failed', error: 'connect ECONNREFUSED' }, NOW);
    expect(registrationReady(r, down, '/health')).toMatchObject({
      status: 'False',
      reason: 'ProbeFailed',
      message: 'GET /health failed: connect ECONNREFUSED',
    });
    expect(registrationReady(r, undefined, '/health')).toMatchObject({
      status: 'Unknown',
      reason: 'NotProbed',
    });
  });

  it('is Ready for a sidecar (no endpoint) and not Ready for an endpoint that is no http(s) URL', () => {
    const sidecar = reg({
      deploymentMode: 'sidecar',
      endpoint: undefined,
      image: 'x@sha256:' + 'a'.repeat(64),
    });
    expect(registrationReady(sidecar, undefined, '/health')).toMatchObject({
      status: 'True',
      reason: 'Sidecar',
    });
    expect(registrationReady(reg({ endpoint: 'ftp://ext.example.com' }), undefined, '/health')).toMatchObject(
      {
        status: 'False',
        reason: 'InvalidEndpoint',
      },
    );
  });
});
