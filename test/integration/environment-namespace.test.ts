// A model environment alone in a namespace nothing of the platform has
// labelled yet: the operator labels it for the admission webhook before it
// makes the Deployment (else the model pods start without their gateway and
// auditors, and the Service's port leads nowhere), and deletes a model pod
// made before the label so its ReplicaSet makes it again through the webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { Platform } from './platform-client.ts';

const ns = useNamespace('env-alone');
const p = new Platform(() => ns.name);
let operator: OperatorProcess;

beforeAll(async () => {
  // A model pod made before the label (an older version, or by hand): the webhook never saw it.
  await p.core.createNamespacedPod({
    namespace: ns.name,
    body: {
      metadata: { name: 'model-lonely-old', labels: { 'platform.io/environment': 'lonely' } },
      spec: { containers: [{ name: 'model', image: 'localhost/agent-platform/platform:dev' }] },
    },
  });
  operator = await startOperator({
    namespace: ns.name,
    identity: 'env-alone-operator',
    env: { PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`, PLATFORM_API_NAMESPACE: ns.name },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
});

afterAll(async () => {
  await operator?.stop();
});

describe('a model environment in an unlabelled namespace', () => {
  it('labels the namespace for the webhook, makes its Deployment, and remakes a pod the webhook never saw', async () => {
    const before = await p.core.readNamespace({ name: ns.name });
    expect(before.metadata?.labels?.['platform.computing/enabled']).toBeUndefined();
    await p.create('PlatformEnvironment', 'lonely', { deploymentType: 'model', model: { id: 'm' } });
    const deployment = await eventually(
      () =>
        p.apps.readNamespacedDeployment({ namespace: ns.name, name: 'model-lonely' }).catch(() => undefined),
      'the environment Deployment',
    );
    // Labelled by the time the Deployment exists: the controller writes the label first.
    const after = await p.core.readNamespace({ name: ns.name });
    expect(after.metadata?.labels?.['platform.computing/enabled']).toBe('true');
    expect(deployment.spec?.template.metadata?.labels).toMatchObject({
      'platform.io/environment': 'lonely',
      'platform.io/secured': 'true',
    });
    await eventually(
      () =>
        p.core
          .readNamespacedPod({ namespace: ns.name, name: 'model-lonely-old' })
          .then(() => undefined)
          .catch(() => true as const),
      'the bare model pod deleted',
    );
  });
});
