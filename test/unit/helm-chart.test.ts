// charts/agent-platform is generated from config/ (hack/chart); these hold it
// to config/ object for object: `helm template` with each values file equals
// `kubectl kustomize` of the matching kustomization, and helm itself accepts
// the chart and refuses values of the wrong shape.
import { describe, expect, it } from 'vitest';
import { objectKey } from '../../hack/chart/source.ts';
import { kustomizeBuild, parseObjects } from './kustomize-build.ts';
import type { K8sObject } from './kustomize-tree.ts';
import { CHART, helm, helmTemplate } from './helm-chart.ts';

interface PodSpecShape {
  spec?: { template?: { spec?: { containers?: { env?: { name: string }[] }[] } } };
}

/**
 * The one normalisation: each container's env sorted by name. A kustomize
 * strategic-merge patch moves the entries it names to the front of the list;
 * the chart keeps the base's order. No value refers to another ($(VAR)), so
 * the order means nothing here.
 */
function normalised(o: K8sObject): K8sObject {
  const copy = structuredClone(o);
  for (const c of (copy as PodSpecShape).spec?.template?.spec?.containers ?? [])
    c.env?.sort((a, b) => a.name.localeCompare(b.name));
  return copy;
}

/** Objects by kind/namespace/name; a key twice is an error (the comparison would hide it). */
function byKey(objects: K8sObject[]): Map<string, K8sObject> {
  const out = new Map<string, K8sObject>();
  for (const o of objects) {
    const key = objectKey(o as Parameters<typeof objectKey>[0]);
    if (out.has(key)) throw new Error(`${key} twice`);
    out.set(key, normalised(o));
  }
  return out;
}

/** The install test's local echo model (test/fixtures/install/local-model.yaml): applied beside the chart, not by it. */
const localModel = (o: K8sObject): boolean =>
  o.metadata.name === 'local-model' || o.metadata.namespace === 'local-model';

const CASES = [
  { name: 'defaults', values: [], kustomization: 'default' },
  { name: 'values-dev.yaml', values: ['values-dev.yaml'], kustomization: 'overlays/dev' },
  {
    name: 'values-production.yaml',
    values: ['values-production.yaml'],
    kustomization: 'overlays/production',
  },
  // The install test's two variants install the same platform (test/install/variants.ts).
  {
    name: 'values-dev.yaml with test/fixtures/install/values.yaml',
    values: ['values-dev.yaml', '../../test/fixtures/install/values.yaml'],
    kustomization: '../test/fixtures/install',
    besides: localModel,
  },
] as const;

describe.each(CASES)('helm template with $name', (c) => {
  const { values, kustomization } = c;
  const besides = 'besides' in c ? c.besides : () => false;
  // createNamespace: kustomize creates the Namespace; `helm install --create-namespace` otherwise does.
  const chart = byKey(parseObjects(helmTemplate([...values], ['createNamespace=true'])));
  const config = byKey(parseObjects(kustomizeBuild(kustomization)).filter((o) => !besides(o)));

  it(`has the objects of config/${kustomization}, no more, no fewer`, () => {
    expect([...chart.keys()].sort()).toEqual([...config.keys()].sort());
  });

  it(`renders each object as config/${kustomization} does`, () => {
    for (const [key, object] of config) expect(chart.get(key), key).toEqual(object);
  });
});

describe('the chart', () => {
  it('passes helm lint with each values file', () => {
    for (const f of [[], ['-f', `${CHART}/values-dev.yaml`], ['-f', `${CHART}/values-production.yaml`]]) {
      const run = helm(['lint', CHART, '--strict', ...f]);
      expect(run.stdout + run.stderr, f.join(' ')).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(run.status).toBe(0);
    }
  });

  it('installs into the release namespace and leaves the Namespace to helm by default', () => {
    expect(parseObjects(helmTemplate([])).some((o) => o.kind === 'Namespace')).toBe(false);
    const other = parseObjects(helm(['template', 'p', CHART, '--namespace', 'agents-ops']).stdout);
    const namespaced = other.filter((o) => o.metadata.namespace !== undefined);
    expect(namespaced.length).toBeGreaterThan(5);
    expect(namespaced.every((o) => o.metadata.namespace === 'agents-ops')).toBe(true);
    expect(JSON.stringify(other)).not.toContain('platform-system');
  });

  it('sets what the values say: image, runtime class, replicas, evidence Secret', () => {
    const text = helmTemplate(
      [],
      [
        'image.repository=registry.example/p',
        'image.tag=1.2.3',
        'agentRuntimeClass=',
        'verifier.replicas=3',
        'evidenceDatabase.secretName=db',
      ],
    );
    expect(text).toContain('image: "registry.example/p:1.2.3"');
    expect(text).toContain('value: "registry.example/p:1.2.3"'); // PLATFORM_IMAGE of injected containers
    expect(text).toMatch(/name: PLATFORM_AGENT_RUNTIME_CLASS\n\s+value: ""/);
    expect(text).toMatch(/name: platform-verifier\n[\s\S]*?replicas: 3/);
    expect(text).toMatch(/name: DATABASE_URL\n\s+valueFrom:\n\s+secretKeyRef:\n\s+name: "db"\n\s+key: "url"/);
  });

  it.each([
    ['webhookFailurePolicy=Sometimes', /webhookFailurePolicy/],
    ['strictNotarisation=false', /strictNotarisation/],
    ['agentRuntimeClass=Kata_TDX', /agentRuntimeClass/],
    ['image.pullPolicy=Sometimes', /pullPolicy/],
    ['model.url=local-model:11434', /model/],
    ['sidecarResources.requests.gpu=1', /gpu/],
  ])('refuses --set %s with a message naming the value', (set, message) => {
    const run = helm(['template', 'platform', CHART, '--set', set]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/values don't meet the specifications of the schema/);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });
});
