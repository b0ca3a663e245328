// config/ is what users `kubectl apply -k`: it must carry every CRD the schemas
// define, and the operator's RBAC must cover what the operator touches.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_KINDS } from '../../crds/index.ts';
import { crdName } from '../../crds/kit.ts';
import { readKustomization, repoRoot, type K8sObject } from './kustomize-tree.ts';

const objects = readKustomization(join(repoRoot, 'config', 'default'));
const byKind = (kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);

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

  it('grants the operator the platform.io resources, their status, leases and events', () => {
    const role = byKind('ClusterRole').find((r) => r.metadata.name === 'platform-operator');
    const rules = (role?.rules ?? []) as { apiGroups: string[]; resources: string[]; verbs: string[] }[];
    const allows = (group: string, resource: string, verb: string): boolean =>
      rules.some(
        (r) =>
          r.apiGroups.includes(group) &&
          (r.resources.includes(resource) ||
            r.resources.includes('*') ||
            r.resources.includes(`*/${resource.split('/')[1]}`)) &&
          r.verbs.includes(verb),
      );
    for (const def of ALL_KINDS) {
      expect(allows('platform.io', def.plural, 'watch'), def.plural).toBe(true);
      expect(allows('platform.io', `${def.plural}/status`, 'patch'), `${def.plural}/status`).toBe(true);
    }
    expect(allows('coordination.k8s.io', 'leases', 'update')).toBe(true);
    expect(allows('events.k8s.io', 'events', 'create')).toBe(true);
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
