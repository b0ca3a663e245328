// PlatformAgent reconciled into the cluster by a running operator process:
// ServiceAccount, encrypted OAuth client Secret, the pod with its labels,
// annotations and runtime class; the phase following the pod; suspension
// when the last Owner goes and on request; identity clashes; bad input kept
// to conditions; and a no-op resync that writes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { decrypt } from '../../base/crypto/envelope.ts';
import { keyringFromSecret } from '../../base/crypto/keyring-source.ts';
import { k8s } from '../../base/kube.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { Platform, WRITE_METRICS, condition } from './platform-client.ts';

const ns = useNamespace('agent-lifecycle');
const p = new Platform(() => ns.name);
const RUNTIME_CLASS = `tee-${ns.fileId}`;
let operator: OperatorProcess;

const alice = [{ subject: 'alice@example.com', role: 'Owner' }];
const model = { id: 'gpt-4o' };

async function totalWrites(): Promise<number> {
  let sum = 0;
  for (const [name, labels] of WRITE_METRICS) sum += await operator.metric(name, labels);
  return sum;
}

beforeAll(async () => {
  await kubeConfig()
    .makeApiClient(k8s.NodeV1Api)
    .createRuntimeClass({ body: { metadata: { name: RUNTIME_CLASS }, handler: 'kata-qemu-coco-dev' } });
  operator = await startOperator({
    namespace: ns.name,
    identity: 'agent-lifecycle-operator',
    env: {
      PLATFORM_CONTROLLER_RESYNC_INTERVAL: '1s',
      PLATFORM_TRUST_DOMAIN: 'test.example',
      PLATFORM_AGENT_RUNTIME_CLASS: RUNTIME_CLASS,
      PLATFORM_AGENT_IMAGE: 'example.test/agent-runtime:1',
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
      PLATFORM_API_NAMESPACE: ns.name,
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
});

/** The planner's pod: labelled secured, annotated with its chain, in the runtime class, as its ServiceAccount. */
async function expectSecuredPod(): Promise<void> {
  const pod = await eventually(() => p.pod('agent-planner'), 'the agent pod');
  expect(pod.metadata?.labels).toMatchObject({
    'platform.io/secured': 'true',
    'platform.io/agent': 'planner',
  });
  expect(pod.metadata?.annotations).toMatchObject({
    'platform.computing/auditor-chain': 'injection,toxicity,model-context,llm-judge',
    'platform.computing/audit-mode': 'observe',
  });
  expect(pod.spec?.runtimeClassName).toBe(RUNTIME_CLASS);
  expect(pod.spec?.serviceAccountName).toBe('agent-planner');
  expect(pod.spec?.containers[0]?.image).toBe('example.test/agent-runtime:1');
}

/** The planner's OAuth client Secret: the id in status, the secret encrypted under the keyring. */
async function expectEncryptedOAuthClient(clientId: unknown): Promise<void> {
  const secret = await p.core.readNamespacedSecret({
    namespace: ns.name,
    name: 'agent-planner-oauth-client',
  });
  const stored = Buffer.from(secret.data?.client_secret ?? '', 'base64').toString();
  expect(stored).toMatch(/^v1\./);
  const keyring = await keyringFromSecret(kubeConfig(), ns.name, 'platform-keyring');
  const context = `${ns.name}/agent-planner-oauth-client/client_secret`;
  expect(decrypt(keyring, stored, context).length).toBeGreaterThan(20);
  expect(Buffer.from(secret.data?.client_id ?? '', 'base64').toString()).toBe(clientId);
}

describe('PlatformAgent → ServiceAccount, OAuth client Secret and pod', () => {
  it('creates the ServiceAccount, an encrypted OAuth client Secret and the secured pod', async () => {
    await p.create('PlatformAgent', 'planner', { owners: alice, model, auditMode: 'observe' });
    const agent = await eventually(() => p.inPhase('PlatformAgent', 'planner', 'pending'), 'pending');
    const sa = await eventually(
      () =>
        p.core
          .readNamespacedServiceAccount({ namespace: ns.name, name: 'agent-planner' })
          .catch(() => undefined),
      'the ServiceAccount',
    );
    expect(sa.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'PlatformAgent',
      name: 'planner',
      controller: true,
    });

    await expectSecuredPod();

    const withClient = await eventually(async () => {
      const a = await p.get('PlatformAgent', 'planner');
      return a?.status?.oauthClientId ? a : undefined;
    }, 'the OAuth client id in status');
    await expectEncryptedOAuthClient(withClient.status?.oauthClientId);

    expect(withClient.status).toMatchObject({
      spiffeId: `spiffe://test.example/agent/${ns.name}.planner`,
      email: `planner.${ns.name}@agents.test.example`,
      handle: `${ns.name}.planner`,
      chain: ['injection', 'toxicity', 'model-context', 'llm-judge'],
      passport: {
        owners: ['alice@example.com'],
        trustTiers: {
          injection: 'unverified',
          toxicity: 'unverified',
          'model-context': 'unverified',
          'llm-judge': 'unverified',
        },
        accessCount: 0,
      },
    });
    expect(agent.status?.observedGeneration).toBe(agent.metadata.generation);
  });

  it('moves to running when the pod status (pods/status) says Running, and back to pending', async () => {
    await p.setPodPhase('agent-planner', 'Running');
    const running = await eventually(() => p.inPhase('PlatformAgent', 'planner', 'running'), 'running');
    expect(condition(running, 'Ready')).toMatchObject({ status: 'True', reason: 'PodRunning' });
    await p.setPodPhase('agent-planner', 'Failed');
    const failed = await eventually(() => p.inPhase('PlatformAgent', 'planner', 'pending'), 'pending again');
    expect(condition(failed, 'Ready')).toMatchObject({ status: 'False', reason: 'PodFailed' });
  });
});

describe('owners and suspension', () => {
  it('suspends the agent and removes its pod when its last Owner is removed, and restores both', async () => {
    await p.create('PlatformAgent', 'flip', {
      owners: [{ subject: 'bob@example.com', role: 'Owner' }],
      model,
    });
    const first = await eventually(() => p.pod('agent-flip'), 'the pod');
    await p.patch('PlatformAgent', 'flip', {
      spec: { owners: [{ subject: 'bob@example.com', role: 'Viewer' }] },
    });
    const suspended = await eventually(() => p.inPhase('PlatformAgent', 'flip', 'suspended'), 'suspended');
    expect(condition(suspended, 'OwnersMissing')).toMatchObject({ status: 'True', reason: 'NoOwner' });
    await eventually(async () => ((await p.pod('agent-flip')) ? undefined : true), 'the pod to be removed');
    expect(await p.eventReasons('flip')).toContain('OwnersMissing');

    await p.patch('PlatformAgent', 'flip', {
      spec: { owners: [{ subject: 'carol@example.com', role: 'Owner' }] },
    });
    await eventually(() => p.inPhase('PlatformAgent', 'flip', 'pending'), 'pending again');
    const again = await eventually(() => p.pod('agent-flip'), 'the pod back');
    expect(again.metadata?.uid).not.toBe(first.metadata?.uid);
  });

  it('suspends on request and brings the pod back on reactivate', async () => {
    await p.create('PlatformAgent', 'paused', { owners: alice, model });
    await eventually(() => p.pod('agent-paused'), 'the pod');
    await p.patch('PlatformAgent', 'paused', { spec: { suspend: true } });
    const suspended = await eventually(() => p.inPhase('PlatformAgent', 'paused', 'suspended'), 'suspended');
    expect(condition(suspended, 'Ready')).toMatchObject({ reason: 'SuspendRequested' });
    await eventually(async () => ((await p.pod('agent-paused')) ? undefined : true), 'the pod to be removed');
    await p.patch('PlatformAgent', 'paused', { spec: { suspend: false } });
    await eventually(() => p.pod('agent-paused'), 'the pod back');
    await eventually(() => p.inPhase('PlatformAgent', 'paused', 'pending'), 'pending');
  });
});

describe('bad input: conditions, the operator keeps running, nothing running is torn down', () => {
  it('reports an email clash on the newer agent and never overwrites the holder', async () => {
    await p.create('PlatformAgent', 'mail-a', { owners: alice, model, email: 'shared@example.com' });
    await eventually(async () => {
      const a = await p.get('PlatformAgent', 'mail-a');
      return a?.status?.email === 'shared@example.com' ? a : undefined;
    }, 'mail-a to hold the email');
    await p.create('PlatformAgent', 'mail-b', { owners: alice, model, email: 'shared@example.com' });
    const b = await eventually(
      () =>
        p.withCondition('PlatformAgent', 'mail-b', {
          type: 'IdentityConflict',
          status: 'True',
          reason: 'EmailTaken',
        }),
      'the clash condition',
    );
    expect(condition(b, 'IdentityConflict')?.message).toContain(`already held by agent ${ns.name}.mail-a`);
    expect(b.status?.email).toBeUndefined();
    expect((await p.get('PlatformAgent', 'mail-a'))?.status?.email).toBe('shared@example.com');
  });

  it('keeps the running pod when the chain names an unknown auditor', async () => {
    await p.create('PlatformAgent', 'chainy', { owners: alice, model });
    const pod = await eventually(() => p.pod('agent-chainy'), 'the pod');
    await p.setPodPhase('agent-chainy', 'Running');
    await eventually(() => p.inPhase('PlatformAgent', 'chainy', 'running'), 'running');
    await p.patch('PlatformAgent', 'chainy', {
      spec: { auditorChain: { preRequest: [{ auditorId: 'no-such-auditor' }] } },
    });
    const bad = await eventually(
      () =>
        p.withCondition('PlatformAgent', 'chainy', {
          type: 'ChainValid',
          status: 'False',
          reason: 'UnknownAuditor',
        }),
      'UnknownAuditor',
    );
    expect(condition(bad, 'ChainValid')?.message).toContain('no-such-auditor');
    expect(bad.status?.phase).toBe('running');
    expect((await p.pod('agent-chainy'))?.metadata?.uid).toBe(pod.metadata?.uid);
  });

  it('reports a missing credential reference without touching the pod', async () => {
    await p.create('PlatformAgent', 'creds', {
      owners: alice,
      model,
      environment: { credentialRouting: [{ destination: 'api.github.com', credentialRef: 'missing-cred' }] },
    });
    const agent = await eventually(
      () =>
        p.withCondition('PlatformAgent', 'creds', {
          type: 'CredentialRefsResolved',
          status: 'False',
          reason: 'CredentialNotFound',
        }),
      'CredentialNotFound',
    );
    expect(condition(agent, 'CredentialRefsResolved')?.message).toContain('missing-cred');
    expect(await p.pod('agent-creds')).toBeDefined();
    expect(operator.child.exitCode).toBeNull();
  });
});

describe('no write when nothing changed', () => {
  it('performs zero writes over several no-op resyncs (status, owned objects, events counted)', async () => {
    await eventually(
      async () => {
        const before = await totalWrites();
        await new Promise((r) => setTimeout(r, 1500));
        return (await totalWrites()) === before ? true : undefined;
      },
      'the operator to settle',
      30_000,
    );
    const writes = await totalWrites();
    const reconciles = await operator.metric('platform_controller_reconcile_total', {
      controller: 'platformagent',
    });
    const agents = 7;
    await eventually(
      async () =>
        (await operator.metric('platform_controller_reconcile_total', { controller: 'platformagent' })) >=
        reconciles + 2 * agents
          ? true
          : undefined,
      'two resync rounds',
    );
    expect(await totalWrites()).toBe(writes);
  });
});
