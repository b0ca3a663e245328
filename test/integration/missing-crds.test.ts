// Issue 23's bad input: the roles installed on a cluster without the CRDs
// (config/manager or the chart's templates applied alone). The operator says
// which CustomResourceDefinitions are missing and how to install them, once
// per kind, keeps /readyz at 503 with the same words, and recovers by itself
// once the CRDs are there. Its own control plane: the shared one has the CRDs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlPlane, type ControlPlane } from '../../hack/control-plane/control-plane.ts';
import { loadKubeConfig } from '../../base/kube.ts';
import { installCrds } from '../../crds/install.ts';
import { eventually } from './harness.ts';
import { startRole, type OperatorProcess } from './operator-process.ts';

const MISSING = 'the CustomResourceDefinition platformagents.platform.io is not installed';

let plane: ControlPlane;
let operator: OperatorProcess;

beforeAll(async () => {
  plane = await startControlPlane({ controllerManager: false });
  operator = await startRole(
    'operator',
    'no-crds',
    {
      KUBECONFIG: plane.kubeconfigPath,
      PLATFORM_OPERATOR_METRICS_PORT: '0',
      PLATFORM_LEADER_ELECTION: 'false',
    },
    90_000,
  );
}, 180_000);

afterAll(async () => {
  await operator?.stop();
  await plane?.stop();
});

describe('the operator on a cluster without the CRDs', () => {
  it('is not ready, and its /readyz names each missing CRD and how to install it', async () => {
    const body = await eventually(async () => {
      const r = await operator.get('/readyz');
      return r.status === 503 && r.body.includes(MISSING) ? r.body : undefined;
    }, '/readyz to name the missing CRD');
    expect(body).toContain('install the CRDs first (kubectl apply -k config/crds');
    expect(body).toContain('the CustomResourceDefinition organizations.platform.io is not installed');
  });

  it('logs each missing CRD once, as an error, without the response headers', async () => {
    // Let the informers retry a few times (backoff 0.5 s, 1 s, 2 s …).
    await new Promise((r) => setTimeout(r, 4000));
    const errors = operator.logs.filter((l) => l.level === 'error' && l.msg?.includes('is not installed'));
    const perResource = new Map<string, number>();
    for (const l of errors)
      perResource.set(String(l.resource), (perResource.get(String(l.resource)) ?? 0) + 1);
    expect(perResource.get('platformagents.platform.io')).toBe(1);
    expect([...perResource.values()].every((n) => n === 1)).toBe(true);
    expect(perResource.size).toBeGreaterThanOrEqual(10);
    expect(JSON.stringify(operator.logs)).not.toContain('audit-id');
  });

  it('becomes ready once the CRDs are installed, without a restart', async () => {
    await installCrds(loadKubeConfig(plane.kubeconfigPath));
    await eventually(
      async () => ((await operator.get('/readyz')).status === 200 ? true : undefined),
      'the operator ready after the CRDs were installed',
      90_000,
    );
    expect(operator.child.exitCode).toBeNull();
  });
});
