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
      object: {},
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

// What a client other than the apiserver can send: each is a 400 naming the field, never a
// handler tripping over it (issue 13, finding 8).
describe('AdmissionReview objects of the wrong shape', () => {
  const withRequest = (over: Record<string, unknown>): string =>
    review({
      request: {
        uid: 'u1',
        kind: { group: '', version: 'v1', kind: 'Pod' },
        resource: { group: '', version: 'v1', resource: 'pods' },
        operation: 'CREATE',
        object: {},
        ...over,
      },
    });
  const withPod = (pod: unknown): string => withRequest({ object: pod });
  const deep = (levels: number): unknown => {
    let v: unknown = 'leaf';
    for (let i = 0; i < levels; i++) v = { v };
    return v;
  };
  it.each([
    ['no request.kind', withRequest({ kind: undefined }), /request.kind: expected an object/],
    [
      'a resource without strings',
      withRequest({ resource: { group: 1 } }),
      /request.resource.group: expected a string, got 1/,
    ],
    [
      'an unknown operation',
      withRequest({ operation: 'PATCH' }),
      /request.operation: expected one of CREATE/,
    ],
    ['a numeric namespace', withRequest({ namespace: 7 }), /request.namespace: expected a string, got 7/],
    [
      'a CREATE without an object',
      withRequest({ object: undefined }),
      /request.object: expected the object of the CREATE, got undefined/,
    ],
    [
      'an UPDATE whose object is null',
      withRequest({ operation: 'UPDATE', object: null }),
      /request.object: expected the object of the UPDATE, got null/,
    ],
    ['a string dryRun', withRequest({ dryRun: 'yes' }), /request.dryRun: expected a boolean/],
    [
      'a DELETE object that is a string',
      withRequest({ operation: 'DELETE', object: 'pod' }),
      /request.object: expected an object, got "pod"/,
    ],
    [
      'an oldObject that is an array',
      withRequest({ oldObject: [] }),
      /request.oldObject: expected an object, got an array/,
    ],
    ['metadata that is a number', withPod({ metadata: 3 }), /request.object.metadata: expected an object/],
    [
      'a numeric annotation value',
      withPod({ metadata: { annotations: { 'platform.computing/audit-mode': 5 } } }),
      /request.object.metadata.annotations\["platform.computing\/audit-mode"\]: expected a string, got 5/,
    ],
    [
      'an object annotation value',
      withPod({ metadata: { annotations: { a: { b: 1 } } } }),
      /annotations\["a"\]: expected a string, got object/,
    ],
    [
      'a label that is not a string',
      withPod({ metadata: { labels: { 'platform.io/secured': true } } }),
      /labels\["platform.io\/secured"\]: expected a string, got true/,
    ],
    [
      'labels that are a list',
      withPod({ metadata: { labels: ['a'] } }),
      /metadata.labels: expected an object of strings/,
    ],
    ['spec that is a string', withPod({ spec: 'x' }), /request.object.spec: expected an object/],
    [
      'containers that are not an array',
      withPod({ spec: { containers: {} } }),
      /spec.containers: expected an array/,
    ],
    [
      'a container that is a number',
      withPod({ spec: { containers: [1] } }),
      /spec.containers\[0\]: expected an object, got 1/,
    ],
    [
      'a container without a name',
      withPod({ spec: { containers: [{}] } }),
      /spec.containers\[0\].name: expected a string/,
    ],
    [
      'a port that is a string',
      withPod({ spec: { containers: [{ name: 'a', ports: [{ containerPort: '80' }] }] } }),
      /containers\[0\].ports\[0\].containerPort: expected an integer, got "80"/,
    ],
    [
      'an env entry without a name',
      withPod({ spec: { ephemeralContainers: [{ name: 'd', env: [{ value: 'x' }] }] } }),
      /ephemeralContainers\[0\].env\[0\].name: expected a string/,
    ],
    [
      'a string hostNetwork',
      withPod({ spec: { hostNetwork: 'true' } }),
      /spec.hostNetwork: expected a boolean/,
    ],
    [
      'an oldObject annotation that is not a string',
      withRequest({ operation: 'UPDATE', oldObject: { metadata: { annotations: { a: 1 } } } }),
      /request.oldObject.metadata.annotations\["a"\]/,
    ],
    [
      'a policy whose labels are numbers',
      withRequest({
        resource: { group: 'platform.io', version: 'v1alpha1', resource: 'auditorpolicies' },
        object: { metadata: { labels: { a: 1 } } },
      }),
      /request.object.metadata.labels\["a"\]/,
    ],
    ['nesting deeper than any object', withPod({ spec: { x: deep(200) } }), /nested deeper than 100 levels/],
  ])('refuses %s with a message naming the field', (_what, body, message) => {
    expect(() => parseReview(body)).toThrow(BadRequestError);
    expect(() => parseReview(body)).toThrow(message);
  });

  it('accepts what the apiserver sends: null maps and lists, absent fields, a full pod', () => {
    const pod = {
      metadata: { name: 'p', labels: null, annotations: { a: 'b' } },
      spec: {
        initContainers: null,
        containers: [{ name: 'a', image: 'i', ports: [{ containerPort: 80 }], env: [{ name: 'X' }] }],
        hostNetwork: false,
      },
    };
    expect(parseReview(withPod(pod)).object).toEqual(pod);
    expect(parseReview(withRequest({ oldObject: null, dryRun: false })).uid).toBe('u1');
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
