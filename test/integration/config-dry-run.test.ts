// Each overlay of config/ as `kubectl apply -k` would send it, and the Helm
// chart as `helm template` renders it with each values file, server-side
// dry-run against the real apiserver: the CRDs first (as `kubectl apply -k
// config/crds` would, they are already installed here by the global setup),
// then everything else, so the apiserver's own validation (schemas, RBAC
// rules, webhook configurations, NetworkPolicies, PodDisruptionBudgets) sees
// every object. Nothing is persisted but the platform-system namespace, which
// the namespaced objects need to exist even in a dry run.
import { spawnSync } from 'node:child_process';
import { describe, expect, inject, it, beforeAll } from 'vitest';
import { stringify } from 'yaml';
import { findBinary } from '../../hack/control-plane/paths.ts';
import { createUnlessExists, k8s } from '../../base/kube.ts';
import { helmTemplate } from '../unit/helm-chart.ts';
import { kustomizeBuild, OVERLAYS, parseObjects } from '../unit/kustomize-build.ts';
import { kubeConfig } from './harness.ts';

function dryRunApply(objects: object[]): { status: number | null; stdout: string; stderr: string } {
  const kubectl = findBinary('kubectl');
  if (!kubectl) throw new Error('kubectl is not built (npm run control-plane:build)');
  const input = objects.map((o) => stringify(o)).join('---\n');
  return spawnSync(
    kubectl,
    [
      '--kubeconfig',
      inject('kubeconfigPath'),
      'apply',
      '--server-side',
      '--dry-run=server',
      // The global setup installed the CRDs under another field manager.
      '--force-conflicts',
      '--field-manager=config-dry-run',
      '-f',
      '-',
    ],
    { input, encoding: 'utf8' },
  );
}

beforeAll(async () => {
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  await createUnlessExists(core.createNamespace({ body: { metadata: { name: 'platform-system' } } }));
});

// The chart as `helm install -n platform-system` renders it, with each values file.
const SOURCES = [
  ...OVERLAYS.map((overlay) => ({ name: `config/${overlay}`, yaml: () => kustomizeBuild(overlay) })),
  ...[[], ['values-dev.yaml'], ['values-production.yaml']].map((values) => ({
    name: `helm template charts/agent-platform ${values.map((v) => `-f ${v}`).join(' ')}`.trim(),
    yaml: () => helmTemplate(values),
  })),
];

describe.each(SOURCES)('$name, server-side dry-run', ({ yaml }) => {
  const objects = parseObjects(yaml());
  const crds = objects.filter((o) => o.kind === 'CustomResourceDefinition');
  const rest = objects.filter((o) => o.kind !== 'CustomResourceDefinition');

  it('accepts the CRDs', () => {
    const run = dryRunApply(crds);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(crds.length);
  });

  it('accepts every other object: RBAC, Deployments, PDBs, webhook configurations, policies', () => {
    const run = dryRunApply(rest);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(rest.length);
    for (const line of lines)
      expect(line).toMatch(/(serverside-applied|created|configured|unchanged) \(server dry run\)$/);
  });
});
