import { describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { apiErrorLine, describeInformerFailure } from './api-errors.ts';

const apiException = (code: number, body: string): Error =>
  new k8s.ApiException(code, 'Unknown API Status Code!', body, { 'audit-id': 'a1', 'cache-control': 'no' });

describe('describeInformerFailure', () => {
  it('names a missing CRD and how to install it, without the response headers', () => {
    const f = describeInformerFailure(
      'platformagents.platform.io',
      apiException(404, '404 page not found\n'),
    );
    expect(f.notServed).toBe(true);
    expect(f.message).toBe(
      'the CustomResourceDefinition platformagents.platform.io is not installed: install the CRDs first (kubectl apply -k config/crds, or an overlay, which includes them)',
    );
    expect(f.message).not.toContain('audit-id');
  });

  it("keeps the status code and the apiserver's message of a Status body", () => {
    const body = JSON.stringify({
      kind: 'Status',
      message: 'pods is forbidden: User "x" cannot list resource "pods"',
      code: 403,
    });
    const f = describeInformerFailure('pods', apiException(403, body));
    expect(f).toEqual({
      message: 'HTTP 403: pods is forbidden: User "x" cannot list resource "pods"',
      notServed: false,
    });
  });

  it('says a core resource is not served, and passes other errors through as one line', () => {
    expect(describeInformerFailure('pods', apiException(404, 'nope')).message).toBe(
      'the API server does not serve pods (404)',
    );
    expect(describeInformerFailure('pods', new Error('connect ECONNREFUSED 127.0.0.1:6443'))).toEqual({
      message: 'connect ECONNREFUSED 127.0.0.1:6443',
      notServed: false,
    });
    expect(describeInformerFailure('pods', 'boom').message).toBe('boom');
  });
});

describe('apiErrorLine', () => {
  it('is one line: the code and the Status message', () => {
    const body = JSON.stringify({ kind: 'Status', message: 'namespaces "platform-system" not found' });
    expect(apiErrorLine(apiException(404, body))).toBe('HTTP 404: namespaces "platform-system" not found');
    expect(apiErrorLine(apiException(500, ''))).toBe('HTTP 500');
  });
});
