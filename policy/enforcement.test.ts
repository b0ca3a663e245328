import { describe, expect, it } from 'vitest';
import { validateAuditorPolicyChange } from './admission.ts';
import { enforcementViolations, violationDetail } from './enforcement.ts';
import { resolveDetection } from './resolve.ts';
import { policyChain } from './save.ts';
import type { PolicyRecord } from './types.ts';

const org: PolicyRecord = {
  id: 'acme.org',
  version: '1',
  spec: {
    scope: 'org',
    scopeId: 'acme',
    detection: {
      injection_detected: {
        threshold: { value: 0.8, enforcement: 'ceiling' },
        block_on_detection: { value: true, enforcement: 'exact' },
        ban_substrings: { value: ['ignore previous'], enforcement: 'superset' },
      },
      toxicity_detected: { threshold: { value: 0.3, enforcement: 'floor' }, model: { value: 'm1' } },
    },
  },
};
/** A workspace policy that loosens acme's ceiling on the injection threshold, and acme's policy as an object. */
const ws = {
  metadata: { name: 'p', namespace: 'ws1' },
  spec: {
    scope: 'workspace' as const,
    scopeId: 'ws1',
    detection: { injection_detected: { threshold: { value: 0.9 } } },
  },
};
const acme = { metadata: { name: 'org', namespace: 'acme' }, spec: org.spec };
const detail = (d: NonNullable<PolicyRecord['spec']['detection']>): string =>
  violationDetail(enforcementViolations(d, [org]));

describe('enforcement modes', () => {
  it('names field, mode, constraint and value for each mode', () => {
    expect(detail({ injection_detected: { threshold: { value: 0.9 } } })).toBe(
      "detection.injection_detected.threshold: enforcement mode 'ceiling' set by policy 'acme.org' requires a value <= 0.8; got 0.9",
    );
    expect(detail({ toxicity_detected: { threshold: { value: 0.2 } } })).toBe(
      "detection.toxicity_detected.threshold: enforcement mode 'floor' set by policy 'acme.org' requires a value >= 0.3; got 0.2",
    );
    expect(detail({ injection_detected: { block_on_detection: { value: false } } })).toBe(
      "detection.injection_detected.block_on_detection: enforcement mode 'exact' set by policy 'acme.org' requires exactly true; got false",
    );
    expect(detail({ injection_detected: { ban_substrings: { value: ['x'] } } })).toBe(
      'detection.injection_detected.ban_substrings: enforcement mode \'superset\' set by policy \'acme.org\' requires a list including ["ignore previous"] (missing ["ignore previous"]); got ["x"]',
    );
  });

  it('accepts values inside the constraint, at its boundary, and unlocked settings', () => {
    expect(
      detail({
        injection_detected: {
          threshold: { value: 0.8 },
          ban_substrings: { value: ['ignore previous', 'more'] },
        },
        toxicity_detected: { threshold: { value: 0.3 }, model: { value: 'm2' } },
      }),
    ).toBe('');
  });

  it('checks a mode against the type of its own value', () => {
    expect(
      violationDetail(enforcementViolations({ a: { b: { value: 'high', enforcement: 'floor' } } }, [])),
    ).toBe('detection.a.b: enforcement mode \'floor\' applies to numbers only; got "high"');
  });

  it('refuses the same change at admission with the same message, and lets unrelated edits pass', () => {
    const verdict = validateAuditorPolicyChange(undefined, ws, [acme]);
    expect(verdict).toEqual({
      allowed: false,
      message: detail({ injection_detected: { threshold: { value: 0.9 } } }),
    });
    expect(validateAuditorPolicyChange(ws, { ...ws, metadata: { ...ws.metadata } }, [acme])).toEqual({
      allowed: true,
    });
  });

  it("holds a workspace policy to its own organization's policies only", () => {
    expect(validateAuditorPolicyChange(undefined, ws, [acme], 'acme').allowed).toBe(false);
    expect(validateAuditorPolicyChange(undefined, ws, [acme], 'globex')).toEqual({ allowed: true });
    // A workspace whose organization cannot be told is held to every org policy (stricter, never looser).
    expect(validateAuditorPolicyChange(undefined, ws, [acme]).allowed).toBe(false);
    expect(
      policyChain({ id: 'ws1.p', version: '1', spec: ws.spec }, [org], 'globex').map((p) => p.id),
    ).toEqual(['ws1.p']);
  });

  it('resolves org then workspace, keeping locked org values', () => {
    const ws: PolicyRecord = {
      id: 'ws1.p',
      version: '1',
      spec: {
        scope: 'workspace',
        scopeId: 'ws1',
        detection: {
          injection_detected: { threshold: { value: 0.9 } },
          toxicity_detected: { model: { value: 'm2' } },
        },
      },
    };
    const r = resolveDetection([org, ws]);
    expect(r.injection_detected?.threshold).toBe(0.8);
    expect(r.toxicity_detected?.model).toBe('m2');
  });
});
