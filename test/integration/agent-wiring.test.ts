// What an agent pod tells its Gateway, reconciled by a running operator
// process against the real apiserver: the built-in default chain and policy
// of a standalone agent, the per-agent gateway key (its record readable by the
// API's key store, removed with the agent), the policy an AuditorPolicy
// names, the model URL of a ModelRegistration or a model environment, and the
// resolved auditor settings (bad ones keep the running pod).
import type * as k8s from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuthenticator } from '../../api/auth/api-key-auth.ts';
import { ApiKeyStore } from '../../api/auth/key-store.ts';
import { eventually, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { Platform, condition } from './platform-client.ts';

const ns = useNamespace('agent-wiring');
const p = new Platform(() => ns.name);
let operator: OperatorProcess;

const alice = [{ subject: 'alice@example.com', role: 'Owner' }];
const annotationsOf = async (pod: string): Promise<Record<string, string>> =>
  (await p.pod(pod))?.metadata?.annotations ?? {};

beforeAll(async () => {
  operator = await startOperator({
    namespace: ns.name,
    identity: 'agent-wiring-operator',
    env: {
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
      PLATFORM_API_NAMESPACE: ns.name,
      PLATFORM_CONTROLLER_RESYNC_INTERVAL: '2s',
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
});

/** One entry of a Secret's data, decoded ('' when absent). */
const decoded = (secret: k8s.V1Secret, key: string): string =>
  Buffer.from(secret.data?.[key] ?? '', 'base64').toString();

/** The principal an authentication found, else what it answered instead. */
const principalOf = (auth: unknown): unknown =>
  auth && typeof auth === 'object' && 'principal' in auth ? auth.principal : auth;

describe('the gateway key of an agent', () => {
  it('mints a gateway key bound to the agent, names its Secret on the pod, and removes it with the agent', async () => {
    await p.create('PlatformAgent', 'keyed', { owners: alice });
    const pod = await eventually(() => p.pod('agent-keyed'), 'the pod');
    expect(pod.metadata?.annotations).toMatchObject({
      'platform.computing/auditor-chain': 'injection,toxicity,model-context,llm-judge',
      'platform.computing/api-key-secret': 'agent-keyed-gateway-key',
      'platform.computing/workspace-id': ns.name,
    });
    expect(pod.metadata?.annotations?.['platform.computing/policy-id']).toBeUndefined();
    const secret = await eventually(
      () =>
        p.core
          .readNamespacedSecret({ namespace: ns.name, name: 'agent-keyed-gateway-key' })
          .catch(() => undefined),
      'the key Secret',
    );
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'PlatformAgent', name: 'keyed' });
    const key = decoded(secret, 'api-key');
    expect(key).toMatch(/^pk_[0-9a-f]{16}_/);

    // The API authenticates it from the record the operator wrote in the key namespace.
    const store = new ApiKeyStore(p.core, ns.name, { get: () => undefined, list: () => [] });
    const auth = await apiKeyAuthenticator(store).authenticate(key);
    expect(principalOf(auth)).toMatchObject({
      subject: `gateway:${ns.name}.keyed`,
      gateway: true,
      gatewayWorkspaces: [ns.name],
      gatewayAgents: [`${ns.name}.keyed`],
    });
    const agent = await eventually(
      () =>
        p.withCondition('PlatformAgent', 'keyed', {
          type: 'GatewayKeyReady',
          status: 'True',
          reason: 'KeyMinted',
        }),
      'GatewayKeyReady',
    );
    expect(agent.metadata.finalizers).toContain('platform.io/gateway-key');
    expect(JSON.stringify(operator.logs)).not.toContain(key);

    const uid = agent.metadata.uid ?? '';
    const records = () =>
      p.core.listNamespacedSecret({ namespace: ns.name, labelSelector: `platform.io/agent-uid=${uid}` });
    expect((await records()).items).toHaveLength(1);
    await p.delete('PlatformAgent', 'keyed');
    await eventually(
      async () => ((await p.get('PlatformAgent', 'keyed')) ? undefined : true),
      'the agent gone',
    );
    expect((await records()).items).toHaveLength(0);
    expect(await store.check(key)).toEqual({ reject: 'unknown or revoked API key' });
  });
});

describe('policy, model and settings on the pod', () => {
  it('names the policy that governs the agent, and the built-in default until one does', async () => {
    await p.create('PlatformAgent', 'governed', { owners: alice });
    const first = await eventually(
      () =>
        p.withCondition('PlatformAgent', 'governed', {
          type: 'GatewayConfigured',
          status: 'True',
          reason: 'Resolved',
        }),
      'GatewayConfigured',
    );
    expect(condition(first, 'GatewayConfigured')?.message).toContain('policy platform:default');
    await p.create('AuditorPolicy', 'team-policy', { scope: 'workspace', scopeId: ns.name });
    const annotations = await eventually(async () => {
      const a = await annotationsOf('agent-governed');
      return a['platform.computing/policy-id'] ? a : undefined;
    }, 'the policy id on the rebuilt pod');
    expect(annotations['platform.computing/policy-id']).toBe(`${ns.name}.team-policy`);
  });

  it("gives the gateway and the agent the model's URL from its registration or its environment", async () => {
    const modelId = `llama-${ns.fileId}`;
    await p.create('ModelRegistration', modelId, {
      modelId,
      deploymentMode: 'in-cluster',
      endpoint: 'http://10.88.0.1:11434/v1',
    });
    try {
      await p.create('PlatformAgent', 'registered', { owners: alice, model: { id: modelId } });
      const pod = await eventually(async () => {
        const found = await p.pod('agent-registered');
        return found?.metadata?.annotations?.['platform.computing/model-url'] ? found : undefined;
      }, 'the model URL');
      expect(pod.metadata?.annotations?.['platform.computing/model-url']).toBe('http://10.88.0.1:11434/v1');
      expect(pod.spec?.containers[0]?.env).toEqual(
        expect.arrayContaining([
          { name: 'OPENAI_BASE_URL', value: 'http://10.88.0.1:11434/v1' },
          { name: 'PLATFORM_MODEL_ID', value: modelId },
        ]),
      );
    } finally {
      await p.delete('ModelRegistration', modelId);
    }

    await p.create('PlatformEnvironment', 'backend', { deploymentType: 'model', model: { id: 'llama-env' } });
    const svc = await eventually(
      () =>
        p.core.readNamespacedService({ namespace: ns.name, name: 'model-backend' }).catch(() => undefined),
      'the environment Service',
    );
    await p.create('PlatformAgent', 'caller', { owners: alice, model: { id: 'llama-env' } });
    const url = await eventually(
      async () => (await annotationsOf('agent-caller'))['platform.computing/model-url'],
      'the environment URL',
    );
    expect(url).toBe(`http://${svc.spec?.clusterIP}:8080`);
  });

  it('passes the resolved auditor settings, and keeps the running pod when they become invalid', async () => {
    await p.create('PlatformAgent', 'tuned', {
      owners: alice,
      auditorSettings: { injection: { threshold: { value: 0.65 }, banSubstrings: { value: ['a', 'b'] } } },
    });
    const pod = await eventually(() => p.pod('agent-tuned'), 'the pod');
    expect(JSON.parse(pod.metadata?.annotations?.['platform.computing/auditor-settings'] ?? '{}')).toEqual({
      injection: { banSubstrings: ['a', 'b'], threshold: 0.65 },
    });
    await p.patch('PlatformAgent', 'tuned', {
      spec: { auditorSettings: { injection: { threshold: { value: 'high' } } } },
    });
    const bad = await eventually(
      () =>
        p.withCondition('PlatformAgent', 'tuned', {
          type: 'GatewayConfigured',
          status: 'False',
          reason: 'InvalidAuditorSettings',
        }),
      'InvalidAuditorSettings',
    );
    expect(condition(bad, 'GatewayConfigured')?.message).toContain(
      'injection.threshold must be of type number',
    );
    expect((await p.pod('agent-tuned'))?.metadata?.uid).toBe(pod.metadata?.uid);
  });
});
