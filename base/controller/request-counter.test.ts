import { describe, expect, it } from 'vitest';
import { resourceOf } from './request-counter.ts';

describe('resourceOf', () => {
  it.each([
    ['https://h:6443/api/v1/namespaces/team/pods', 'pods'],
    ['https://h:6443/api/v1/namespaces/team/pods/agent-a/status?x=1', 'pods'],
    ['https://h:6443/api/v1/namespaces/team', 'namespaces'],
    ['https://h:6443/apis/platform.io/v1alpha1/namespaces/t/platformagents/a/status', 'platformagents'],
    ['https://h:6443/apis/platform.io/v1alpha1/organizations', 'organizations'],
    ['https://h:6443/api/v1/pods?labelSelector=x', 'pods'],
  ])('%s addresses %s', (url, resource) => expect(resourceOf(url)).toBe(resource));
});
