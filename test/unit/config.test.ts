// config/ is what users `kubectl apply -k`: it must carry every CRD the schemas
// define, and the operator's RBAC must cover what the operator touches.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_KINDS } from '../../crds/index.ts';
import { crdName } from '../../crds/kit.ts';
import { readKustomization, repoRoot, type K8sObject } from './kustomize-tree.ts';
import { kustomizeBuild, OVERLAYS, parseObjects } from './kustomize-build.ts';

const objects = readKustomization(join(repoRoot, 'config', 'default'));
const byKind = (kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const rulesOf = (role: K8sObject | undefined): Rule[] => (role?.rules ?? []) as Rule[];
const allows = (rules: Rule[], group: string, resource: string, verb: string): boolean =>
  rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb));

describe('config/default', () => {
  it('installs every CRD defined in crds/kinds', () => {
    const names = byKind('CustomResourceDefinition').map((o) => o.metadata.name);
    expect(names.sort()).toEqual(ALL_KINDS.map(crdName).sort());
  });

  it('runs the operator with a ServiceAccount bound to its ClusterRole', () => {
    const deploy = byKind('Deployment').find((d) => d.metadata.name === 'platform-operator');
    expect(deploy).toBeDefined();
    const sa = (deploy as unknown as { spec: { template: { spec: { serviceAccountName: string } } } }).spec
      .template.spec.serviceAccountName;
    const binding = byKind('ClusterRoleBinding').find((b) =>
      (b.subjects as { name: string }[]).some((s) => s.name === sa),
    );
    expect(binding).toBeDefined();
  });

  it('grants the operator what its informers and status writers use, its Lease in its own namespace', () => {
    const role = byKind('ClusterRole').find((r) => r.metadata.name === 'platform-operator');
    const rules = rulesOf(role);
    // Every kind is cached (controllers/common/caches.ts) and reports Ready through its status writer.
    for (const def of ALL_KINDS) {
      expect(allows(rules, 'platform.io', def.plural, 'watch'), def.plural).toBe(true);
      expect(allows(rules, 'platform.io', `${def.plural}/status`, 'patch'), def.plural).toBe(true);
    }
    expect(allows(rules, 'events.k8s.io', 'events', 'create')).toBe(true);
    // What the review found granted and unused.
    expect(allows(rules, 'authentication.k8s.io', 'tokenreviews', 'create')).toBe(false);
    expect(allows(rules, 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'get')).toBe(false);
    expect(allows(rules, 'coordination.k8s.io', 'leases', 'update')).toBe(false);
    const leaseRole = byKind('Role').find(
      (r) =>
        r.metadata.namespace === 'platform-system' &&
        allows(rulesOf(r), 'coordination.k8s.io', 'leases', 'update'),
    );
    expect(leaseRole?.metadata.name).toBe('platform-operator-leader-election');
    const binding = byKind('RoleBinding').find(
      (b) => (b.roleRef as { name: string }).name === leaseRole?.metadata.name,
    );
    expect(binding?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'platform-operator', namespace: 'platform-system' },
    ]);
  });

  it.each(['platform-operator', 'platform-webhook', 'platform-verifier'])(
    '%s: no wildcard in any rule, and each verb a real one',
    (name) => {
      const role = byKind('ClusterRole').find((r) => r.metadata.name === name);
      expect(role, name).toBeDefined();
      for (const rule of rulesOf(role)) {
        for (const field of [rule.apiGroups, rule.resources, rule.verbs]) {
          expect(
            field.some((v) => v.includes('*')),
            JSON.stringify(rule),
          ).toBe(false);
        }
        for (const verb of rule.verbs) expect(VERBS).toContain(verb);
      }
    },
  );

  it('gives each role its own ServiceAccount, bound to a ClusterRole of its own name', () => {
    for (const name of ['platform-operator', 'platform-webhook', 'platform-verifier']) {
      expect(byKind('ServiceAccount').map((s) => s.metadata.name)).toContain(name);
      const binding = byKind('ClusterRoleBinding').find((b) => b.metadata.name === name);
      expect((binding?.roleRef as { name: string }).name).toBe(name);
      expect(binding?.subjects).toEqual([{ kind: 'ServiceAccount', name, namespace: 'platform-system' }]);
    }
  });

  it('runs the operator non-root with probes on its ops port', () => {
    const deploy = byKind('Deployment').find((d) => d.metadata.name === 'platform-operator') as unknown as {
      spec: {
        template: {
          spec: { securityContext: { runAsNonRoot: boolean }; containers: { readinessProbe: unknown }[] };
        };
      };
    };
    expect(deploy.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(deploy.spec.template.spec.containers[0]?.readinessProbe).toMatchObject({
      httpGet: { path: '/readyz' },
    });
  });
});

describe('config/default runs every cluster role', () => {
  it.each([
    ['platform-operator', 'operator'],
    ['platform-webhook', 'webhook'],
    ['platform-verifier', 'api'],
  ])('%s runs `platform run %s` non-root with probes', (name, role) => {
    const deploy = byKind('Deployment').find((d) => d.metadata.name === name) as unknown as
      | {
          spec: {
            template: {
              spec: {
                serviceAccountName: string;
                securityContext: { runAsNonRoot: boolean };
                containers: { args: string[]; readinessProbe: unknown; livenessProbe: unknown }[];
              };
            };
          };
        }
      | undefined;
    expect(deploy, name).toBeDefined();
    const pod = deploy!.spec.template.spec;
    expect(pod.containers[0]?.args).toEqual(['run', role]);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.containers[0]?.readinessProbe).toBeDefined();
    expect(byKind('ServiceAccount').some((sa) => sa.metadata.name === pod.serviceAccountName)).toBe(true);
  });

  it('points the webhook Service at the webhook pods', () => {
    const svc = byKind('Service').find((s) => s.metadata.name === 'platform-webhook') as unknown as {
      spec: { selector: Record<string, string> };
    };
    const deploy = byKind('Deployment').find((d) => d.metadata.name === 'platform-webhook') as unknown as {
      spec: { template: { metadata: { labels: Record<string, string> } } };
    };
    expect(deploy.spec.template.metadata.labels).toMatchObject(svc.spec.selector);
  });

  it.each(['platform-operator', 'platform-verifier'])(
    '%s presents the registry client certificate from an optional Secret (decision 136)',
    (name) => {
      const deploy = byKind('Deployment').find((d) => d.metadata.name === name) as unknown as {
        spec: { template: { spec: PodWithVolumes } };
      };
      const pod = deploy.spec.template.spec;
      const volume = pod.volumes?.find((v) => v.secret?.secretName === 'platform-registry-client');
      // Optional: the pods start without it.
      expect(volume?.secret).toMatchObject({ optional: true });
      const mount = pod.containers[0]?.volumeMounts?.find((m) => m.name === volume?.name);
      expect(mount).toMatchObject({ readOnly: true });
      const env = Object.fromEntries((pod.containers[0]?.env ?? []).map((e) => [e.name, e.value]));
      expect(env.PLATFORM_REGISTRY_CLIENT_CERT).toBe(`${mount?.mountPath}/tls.crt`);
      expect(env.PLATFORM_REGISTRY_CLIENT_KEY).toBe(`${mount?.mountPath}/tls.key`);
    },
  );
});

interface PodWithVolumes {
  volumes?: { name: string; secret?: { secretName: string; optional?: boolean } }[];
  containers: {
    env?: { name: string; value?: string }[];
    volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  }[];
}

interface Container {
  name: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
  readinessProbe?: unknown;
  livenessProbe?: unknown;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Deployment extends K8sObject {
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        serviceAccountName: string;
        securityContext: { runAsNonRoot?: boolean; seccompProfile?: { type: string } };
        topologySpreadConstraints?: {
          topologyKey: string;
          labelSelector: { matchLabels: Record<string, string> };
        }[];
        containers: Container[];
        volumes?: { name: string; emptyDir?: unknown }[];
      };
    };
  };
}
interface Hook {
  name: string;
  failurePolicy: string;
}

const ROLES = [
  ['platform-operator', 'operator'],
  ['platform-webhook', 'webhook'],
  ['platform-verifier', 'api'],
] as const;

describe.each(OVERLAYS)('config/%s', (overlay) => {
  const built = parseObjects(kustomizeBuild(overlay));
  const of = (kind: string): K8sObject[] => built.filter((o) => o.kind === kind);
  const deployment = (name: string): Deployment =>
    of('Deployment').find((d) => d.metadata.name === name) as Deployment;
  const env = (name: string, container = 0): Record<string, string | undefined> =>
    Object.fromEntries(
      (deployment(name).spec.template.spec.containers[container]?.env ?? []).map((e) => [e.name, e.value]),
    );
  const hooks = (): Hook[] =>
    [...of('MutatingWebhookConfiguration'), ...of('ValidatingWebhookConfiguration')].flatMap(
      (c) => c.webhooks as Hook[],
    );

  it('builds with kubectl kustomize and carries every CRD', () => {
    const names = of('CustomResourceDefinition').map((o) => o.metadata.name);
    expect(names.sort()).toEqual(ALL_KINDS.map(crdName).sort());
  });

  it.each(ROLES)('%s runs `platform run %s` as its own ServiceAccount, hardened', (name, role) => {
    const d = deployment(name);
    const pod = d.spec.template.spec;
    expect(pod.serviceAccountName).toBe(name);
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    const quantities = { cpu: expect.any(String), memory: expect.any(String) };
    expect(pod.containers[0]).toMatchObject({
      args: ['run', role],
      securityContext: {
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      },
      resources: { requests: quantities, limits: quantities },
      readinessProbe: { httpGet: expect.anything() },
      livenessProbe: { httpGet: expect.anything() },
    });
    expect(pod.topologySpreadConstraints).toContainEqual(
      expect.objectContaining({
        topologyKey: 'kubernetes.io/hostname',
        labelSelector: { matchLabels: d.spec.selector.matchLabels },
      }),
    );
  });

  it.each(ROLES)('%s has a PodDisruptionBudget selecting its pods', (name) => {
    const pdb = of('PodDisruptionBudget').find((p) => p.metadata.name === name) as
      | (K8sObject & { spec: { maxUnavailable: number; selector: { matchLabels: Record<string, string> } } })
      | undefined;
    // maxUnavailable, not minAvailable: a one-replica install (the dev Verifier) can still be drained.
    expect(pdb?.spec.maxUnavailable).toBe(1);
    expect(deployment(name).spec.template.metadata.labels).toMatchObject(
      pdb?.spec.selector.matchLabels ?? { x: 'y' },
    );
  });

  it('runs two operator replicas with leader election in its own namespace', () => {
    expect(deployment('platform-operator').spec.replicas).toBe(2);
    expect(env('platform-operator').PLATFORM_LEADER_ELECTION).toBe('true');
  });

  it('keeps the Verifier state dir on an emptyDir (the only role that writes files)', () => {
    const pod = deployment('platform-verifier').spec.template.spec;
    const data = pod.containers[0]?.volumeMounts?.find((m) => m.mountPath === '/var/lib/platform');
    expect(pod.volumes?.find((v) => v.name === data?.name)?.emptyDir).toBeDefined();
    expect(env('platform-verifier').PLATFORM_EVIDENCE_FILE).toMatch(/^\/var\/lib\/platform\//);
  });

  if (overlay === 'overlays/dev') {
    it('dev: no runtime class, non-strict notarization, failurePolicy Ignore', () => {
      expect(env('platform-operator').PLATFORM_AGENT_RUNTIME_CLASS).toBe('');
      expect(env('platform-webhook').PLATFORM_STRICT_NOTARIZATION).toBe('false');
      expect(hooks().map((h) => h.failurePolicy)).toEqual(['Ignore', 'Ignore', 'Ignore']);
      expect(of('NetworkPolicy')).toEqual([]);
    });
  } else {
    it('production: strict notarization, failurePolicy Fail, DATABASE_URL from a Secret', () => {
      expect(env('platform-webhook').PLATFORM_STRICT_NOTARIZATION).toBe('true');
      expect(hooks().map((h) => h.failurePolicy)).toEqual(['Fail', 'Fail', 'Fail']);
      const dbUrl = deployment('platform-verifier').spec.template.spec.containers[0]?.env?.find(
        (e) => e.name === 'DATABASE_URL',
      );
      expect(dbUrl?.valueFrom).toEqual({ secretKeyRef: { name: 'platform-evidence-db', key: 'url' } });
    });

    it('production: a NetworkPolicy per role behind a default deny of ingress', () => {
      const policies = of('NetworkPolicy') as (K8sObject & {
        spec: { podSelector: { matchLabels?: Record<string, string> }; policyTypes: string[] };
      })[];
      const deny = policies.find((p) => Object.keys(p.spec.podSelector).length === 0);
      expect(deny?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'] });
      for (const [name] of ROLES) {
        const labels = deployment(name).spec.template.metadata.labels;
        expect(
          policies.some(
            (p) =>
              p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === labels['app.kubernetes.io/name'],
          ),
          name,
        ).toBe(true);
      }
    });
  }
});
