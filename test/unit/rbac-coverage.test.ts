import { describe, expect, it } from 'vitest';
import type { K8sObject } from './kustomize-tree.ts';
import {
  accessesOf,
  coverage,
  forbiddenOf,
  formatCoverage,
  grantsOf,
  parseAuditLog,
  serviceAccountUser,
  type AuditEvent,
} from './rbac-coverage.ts';

const USER = serviceAccountUser('platform-system', 'platform-webhook');

const objects = [
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'hook' },
    rules: [
      { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'watch'] },
      {
        apiGroups: ['admissionregistration.k8s.io'],
        resources: ['mutatingwebhookconfigurations'],
        resourceNames: ['mine'],
        verbs: ['update'],
      },
    ],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'hook' },
    roleRef: { kind: 'ClusterRole', name: 'hook' },
    subjects: [{ kind: 'ServiceAccount', name: 'platform-webhook', namespace: 'platform-system' }],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'leases', namespace: 'platform-system' },
    rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get'] }],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'leases', namespace: 'platform-system' },
    roleRef: { kind: 'Role', name: 'leases' },
    subjects: [{ kind: 'ServiceAccount', name: 'platform-webhook', namespace: 'platform-system' }],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'other' },
    roleRef: { kind: 'ClusterRole', name: 'hook' },
    subjects: [{ kind: 'ServiceAccount', name: 'someone-else', namespace: 'platform-system' }],
  },
] as K8sObject[];

function event(id: string, over: Partial<AuditEvent>): AuditEvent {
  return {
    auditID: id,
    stage: 'ResponseComplete',
    verb: 'get',
    requestURI: `/uri/${id}`,
    impersonatedUser: { username: USER },
    responseStatus: { code: 200 },
    ...over,
  };
}

describe('rbac coverage', () => {
  it('expands the rules bound to one ServiceAccount, cluster-wide or in the Role namespace', () => {
    const grants = grantsOf(objects, 'platform-system', 'platform-webhook');
    expect(grants.map((g) => `${g.from} ${g.resource} ${g.verb} ${g.namespace ?? '*'}`)).toEqual([
      'ClusterRole/hook namespaces get *',
      'ClusterRole/hook namespaces watch *',
      'ClusterRole/hook mutatingwebhookconfigurations update *',
      'Role/platform-system/leases leases get platform-system',
    ]);
    expect(grants[2]?.resourceNames).toEqual(['mine']);
  });

  it('fails clearly on a binding to a missing role', () => {
    const broken = objects.filter((o) => o.kind !== 'Role');
    expect(() => grantsOf(broken, 'platform-system', 'platform-webhook')).toThrow(
      'RoleBinding leases names a missing Role leases',
    );
  });

  it('keeps the last stage of each request and reads only the impersonated user', () => {
    const lines = [
      event('a', { stage: 'ResponseStarted', verb: 'watch', objectRef: { resource: 'namespaces' } }),
      event('a', { stage: 'RequestReceived', verb: 'watch', objectRef: { resource: 'namespaces' } }),
      event('b', { objectRef: { resource: 'pods', subresource: 'exec', namespace: 'x' } }),
      event('c', { impersonatedUser: { username: 'someone' }, objectRef: { resource: 'pods' } }),
      event('d', { requestURI: '/api', objectRef: undefined }),
    ];
    const events = parseAuditLog(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(events.find((e) => e.auditID === 'a')?.stage).toBe('ResponseStarted');
    const accesses = accessesOf(events, USER);
    expect(accesses.map((a) => `${a.verb} ${a.resource} ${a.namespace ?? ''}`)).toEqual([
      'watch namespaces ',
      'get pods/exec x',
    ]);
  });

  it('counts the uses of each grant and lists requests no grant covers', () => {
    const grants = grantsOf(objects, 'platform-system', 'platform-webhook');
    const events = [
      event('1', { verb: 'watch', objectRef: { resource: 'namespaces' } }),
      event('2', {
        verb: 'update',
        objectRef: {
          resource: 'mutatingwebhookconfigurations',
          apiGroup: 'admissionregistration.k8s.io',
          name: 'theirs',
        },
      }),
      event('3', {
        objectRef: { resource: 'leases', apiGroup: 'coordination.k8s.io', namespace: 'default' },
      }),
      event('4', {
        objectRef: { resource: 'leases', apiGroup: 'coordination.k8s.io', namespace: 'platform-system' },
      }),
    ];
    const c = coverage(grants, accessesOf(events, USER));
    expect(c.grants.map((g) => g.uses)).toEqual([0, 1, 0, 1]);
    expect(c.ungranted.map((a) => a.uri)).toEqual(['/uri/2', '/uri/3']);
    const table = formatCoverage('webhook', c);
    expect(table).toContain('webhook: 2/4 grants used');
    expect(table).toContain(' UNUSED  ClusterRole/hook core namespaces get');
    expect(table).toContain(
      'UNGRANTED update admissionregistration.k8s.io mutatingwebhookconfigurations /uri/2',
    );
  });

  it('finds refused requests by status or by the authorization decision', () => {
    const events = [
      event('1', { responseStatus: { code: 403 } }),
      event('2', {
        annotations: { 'authorization.k8s.io/decision': 'forbid' },
        responseStatus: { code: 500 },
      }),
      event('3', { annotations: { 'authorization.k8s.io/decision': 'allow' } }),
    ];
    expect(forbiddenOf(events, USER).map((e) => e.auditID)).toEqual(['1', '2']);
  });
});
