import { describe, expect, it } from 'vitest';
import type { AuditorPolicy } from '../../crds/generated/types.ts';
import { BadRequestError, type AdmissionRequest } from '../admission/review.ts';
import { quietLogger } from '../testing/fixtures.ts';
import { handleValidatePolicy } from './policy.ts';

const policy = (ns: string, name: string, spec: AuditorPolicy['spec']): AuditorPolicy => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'AuditorPolicy',
  metadata: { namespace: ns, name },
  spec,
});
const org = policy('acme-home', 'org-policy', {
  scope: 'org',
  scopeId: 'acme',
  detection: { injection_detected: { threshold: { value: 0.8, enforcement: 'ceiling' } } },
});
const ws = (value: number) =>
  policy('ws1', 'workspace-policy', {
    scope: 'workspace',
    scopeId: 'ws1',
    detection: { injection_detected: { threshold: { value } } },
  });
const review = (object: unknown, operation: 'CREATE' | 'UPDATE' = 'CREATE', oldObject?: unknown) =>
  ({
    uid: 'u1',
    kind: { group: 'platform.io', version: 'v1alpha1', kind: 'AuditorPolicy' },
    resource: { group: 'platform.io', version: 'v1alpha1', resource: 'auditorpolicies' },
    operation,
    namespace: 'ws1',
    object,
    ...(oldObject ? { oldObject } : {}),
  }) as AdmissionRequest;
const deps = (list: () => Promise<AuditorPolicy[]>) => ({ policies: list, log: quietLogger() });

describe('/validate-policy', () => {
  it('refuses a workspace override that breaks an org ceiling, with the REST 422 message', async () => {
    const r = await handleValidatePolicy(
      review(ws(0.95)),
      deps(() => Promise.resolve([org])),
    );
    expect(r).toEqual({
      uid: 'u1',
      allowed: false,
      status: {
        code: 422,
        reason: 'Invalid',
        message:
          "detection.injection_detected.threshold: enforcement mode 'ceiling' set by policy 'acme-home.org-policy' requires a value <= 0.8; got 0.95",
      },
    });
  });

  it('allows a compliant override, org policies and unchanged detection on update', async () => {
    const list = () => Promise.resolve([org]);
    expect((await handleValidatePolicy(review(ws(0.5)), deps(list))).allowed).toBe(true);
    expect((await handleValidatePolicy(review(org), deps(list))).allowed).toBe(true);
    const unchanged = review(ws(0.95), 'UPDATE', ws(0.95));
    expect((await handleValidatePolicy(unchanged, deps(list))).allowed).toBe(true);
  });

  it('fails closed when the org policies cannot be read', async () => {
    const r = await handleValidatePolicy(
      review(ws(0.5)),
      deps(() => Promise.reject(new Error('down'))),
    );
    expect(r.allowed).toBe(false);
    expect(r.status?.code).toBe(500);
  });

  it.each([
    ['a setting that is null', { detection: { injection_detected: { threshold: null } } }, /detection/],
    ['detection that is a number', { detection: 5 }, /request.object.spec.detection: must be object/],
    ['an unknown scope', { scope: 'galaxy' }, /request.object.spec.scope: .*\(expected one of/],
  ])(
    'refuses a policy the apiserver would not send (%s) as a malformed review',
    async (_what, over, message) => {
      const bad = { ...ws(0.5), spec: { ...ws(0.5).spec, ...over } };
      const run = () =>
        handleValidatePolicy(
          review(bad),
          deps(() => Promise.resolve([org])),
        );
      await expect(run()).rejects.toThrow(BadRequestError);
      await expect(run()).rejects.toThrow(message);
    },
  );
});
