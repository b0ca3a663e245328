import { describe, expect, it } from 'vitest';
import { createTestAuditor } from '../../test/process/fixtures/test-auditors.ts';
import { createEngine, type EngineOptions } from './engine.ts';
import { buildSettingsTable } from './settings.ts';

function engine(overrides: Partial<EngineOptions> = {}, env: NodeJS.ProcessEnv = {}) {
  const def = createTestAuditor();
  const errors: unknown[] = [];
  const e = createEngine({
    def,
    auditorId: def.id,
    timeoutMs: 200,
    maxConcurrent: 2,
    settings: buildSettingsTable(def, env).table,
    configuration: {},
    onInternalError: (err, problems) => errors.push(problems ?? err),
    now: () => new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  });
  return { e, errors };
}

const ask = (input: string, extra: Record<string, unknown> = {}) => ({
  data: { input },
  phase: 'request',
  ...extra,
});

describe('claims engine', () => {
  it('answers a valid request with stamped claims', async () => {
    const res = await engine().e.handle(ask('hello'));
    expect(res.status).toBe('success');
    expect(res.claims.map((c) => c.name)).toEqual(['test_score', 'test_detected', 'test_label']);
    expect(res.claims[1]?.provenance).toMatchObject({
      auditor_id: 'test-auditor',
      settings: { threshold: 0.5 },
    });
    expect(res.claims.every((c) => c.timestamp === '2026-01-01T00:00:00.000Z')).toBe(true);
  });

  it('resolves a setting from detection_overrides over the environment', async () => {
    const { e } = engine({}, { TEST_AUDITOR_THRESHOLD: '0.9' });
    const viaEnv = await e.handle(ask('x'.repeat(60)));
    expect(viaEnv.claims[1]).toMatchObject({ value: false, provenance: { settings: { threshold: 0.9 } } });
    const viaOverride = await e.handle(
      ask('x'.repeat(60), {
        platform_context: { detection_overrides: { test_detected: { threshold: 0.1 } } },
      }),
    );
    expect(viaOverride.claims[1]).toMatchObject({
      value: true,
      provenance: { settings: { threshold: 0.1 } },
    });
  });

  it('turns an undeclared claim into INTERNAL_ERROR and sends no claims', async () => {
    const { e, errors } = engine();
    const res = await e.handle(ask('undeclared'));
    expect(res).toMatchObject({
      status: 'error',
      claims: [],
      error: { code: 'INTERNAL_ERROR', retryable: true },
    });
    expect(JSON.stringify(res)).not.toContain('made_up_claim');
    expect(String(errors[0])).toContain('not declared');
  });

  it('turns a wrong-typed value into INTERNAL_ERROR', async () => {
    const res = await engine().e.handle(ask('wrong-type'));
    expect(res).toMatchObject({ status: 'error', claims: [], error: { code: 'INTERNAL_ERROR' } });
  });

  it('turns a decision word into INTERNAL_ERROR', async () => {
    const res = await engine().e.handle(ask('decide'));
    expect(res).toMatchObject({ status: 'error', error: { code: 'INTERNAL_ERROR' } });
    expect(JSON.stringify(res)).not.toContain('deny');
  });

  it('answers AUDITOR_TIMEOUT with timeout_ms and the claims emitted so far', async () => {
    const res = await engine({ timeoutMs: 50 }).e.handle(ask('slow'));
    expect(res).toMatchObject({
      status: 'error',
      claims: [],
      error: { code: 'AUDITOR_TIMEOUT', retryable: true },
    });
    const details = res.status === 'error' ? res.error.details : undefined;
    expect(details?.timeout_ms).toBe(50);
    expect(details?.partial_claims).toMatchObject([
      { name: 'test_score', value: 0.25, provenance: { auditor_id: 'test-auditor' } },
    ]);
  });

  it('hides the text of an unexpected exception', async () => {
    const { e, errors } = engine();
    const res = await e.handle(ask('throw'));
    expect(res).toMatchObject({ status: 'error', error: { code: 'INTERNAL_ERROR', retryable: true } });
    expect(JSON.stringify(res)).not.toContain('SECRET');
    expect(errors).toHaveLength(1);
  });

  it('passes an AuditorError code through with its retryable flag', async () => {
    const res = await engine().e.handle(ask('unsupported'));
    expect(res).toEqual({
      status: 'error',
      claims: [],
      error: {
        code: 'UNSUPPORTED_MODEL',
        message: 'model not supported',
        retryable: false,
        details: { model_id: 'x' },
      },
    });
  });

  it('answers INVALID_INPUT for a malformed request and for an override of the wrong type', async () => {
    const { e } = engine();
    expect(await e.handle({ phase: 'request' })).toMatchObject({
      error: { code: 'INVALID_INPUT', retryable: false },
    });
    const bad = await e.handle(
      ask('x', { platform_context: { detection_overrides: { test_detected: { threshold: 'hi' } } } }),
    );
    expect(bad).toMatchObject({
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('threshold') },
    });
  });

  it('hands out no more slots than the concurrency limit', () => {
    const { e } = engine({ maxConcurrent: 2 });
    const a = e.acquire();
    const b = e.acquire();
    expect(e.acquire()).toBeUndefined();
    a?.();
    a?.();
    expect(e.inflight()).toBe(1);
    expect(e.acquire()).toBeDefined();
    b?.();
  });
});
