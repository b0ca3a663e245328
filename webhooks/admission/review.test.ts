import { describe, expect, it } from 'vitest';
import { BadRequestError, diffPatch, parseReview, reviewBody, sanitizeWarning } from './review.ts';

const review = (over: Record<string, unknown> = {}): string =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'u1',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      operation: 'CREATE',
    },
    ...over,
  });

describe('AdmissionReview parsing', () => {
  it.each([
    ['{not json', /^malformed JSON/],
    ['[]', /expected an AdmissionReview object/],
    [
      review({ apiVersion: 'admission.k8s.io/v1beta1' }),
      /expected apiVersion admission.k8s.io\/v1, got "admission.k8s.io\/v1beta1"/,
    ],
    [review({ kind: 'Pod' }), /expected kind AdmissionReview, got "Pod"/],
    [review({ request: null }), /has no request/],
    [review({ request: { uid: '' } }), /request.uid is missing/],
  ])('refuses %s with a clear message', (body, message) => {
    expect(() => parseReview(body)).toThrow(BadRequestError);
    expect(() => parseReview(body)).toThrow(message);
  });

  it('accepts a well-formed review', () => {
    expect(parseReview(review()).uid).toBe('u1');
  });
});

describe('responses', () => {
  it('strips control characters from warnings and truncates long ones', () => {
    expect(sanitizeWarning('a\u0007b\nc')).toBe('a b c');
    expect(sanitizeWarning('x'.repeat(500))).toHaveLength(240);
    const body = JSON.parse(reviewBody({ uid: 'u', allowed: true, warnings: ['bad\r\nheader'] })) as {
      response: { warnings: string[] };
    };
    expect(body.response.warnings).toEqual(['bad  header']);
  });

  it('escapes / and ~ in patch paths (RFC 6901) and ignores managedFields', () => {
    const before = { metadata: { managedFields: [{ manager: 'a' }], annotations: {} } };
    const after = { metadata: { managedFields: [{ manager: 'b' }], annotations: { 'a/b~c': 'v' } } };
    expect(diffPatch(before, after)).toEqual([
      { op: 'add', path: '/metadata/annotations/a~1b~0c', value: 'v' },
    ]);
  });
});
