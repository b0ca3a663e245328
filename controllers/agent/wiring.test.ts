import { describe, expect, it } from 'vitest';
import type { AuditorPolicy, PlatformWorkspace } from '../../crds/generated/types.ts';
import { validateAnnotations } from '../../webhooks/mutate/annotations.ts';
import { testMutateOptions } from '../../webhooks/testing/fixtures.ts';
import { desiredPod } from './pod.ts';
import type { PlatformAgent } from './types.ts';
import { agentWiring, type WiringContext } from './wiring.ts';
import { ANNOTATION } from '../../contract/kube.ts';

const CHAIN = ['injection', 'toxicity', 'model-context', 'llm-judge'];

function agent(spec: PlatformAgent['spec']): PlatformAgent {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformAgent',
    metadata: { name: 'bot', namespace: 'team', uid: 'u-1', generation: 3 },
    spec,
  };
}

const workspace = {
  metadata: { name: 'research', namespace: 'team' },
  spec: {
    organization: 'acme',
    defaults: {
      auditorSettings: {
        injection: {
          threshold: { value: 0.8, enforced: true },
          banSubstrings: { value: ['ignore previous'] },
        },
        'acme-pii': { mode: { value: 'strict' } },
      },
    },
  },
} as unknown as PlatformWorkspace;

const policy = {
  metadata: { namespace: 'team', name: 'research-strict' },
  spec: { scope: 'workspace', scopeId: 'research' },
} as AuditorPolicy;

const context = (over: Partial<WiringContext> = {}): WiringContext => ({
  workspace,
  policies: [policy],
  models: {
    environments: [],
    registrations: [
      {
        apiVersion: 'platform.io/v1alpha1',
        kind: 'ModelRegistration',
        metadata: { name: 'llama3' },
        spec: { modelId: 'llama3', deploymentMode: 'in-cluster', endpoint: 'http://10.88.0.1:11434/v1' },
      },
    ],
    serviceIp: () => undefined,
  },
  apiKeySecret: 'agent-bot-gateway-key',
  ...over,
});

describe('agentWiring', () => {
  it("resolves the policy, the model, the workspace and the chain's settings (agent wins, locks hold)", () => {
    const member = agent({
      workspace: 'research',
      model: { id: 'llama3' },
      auditorSettings: { injection: { threshold: { value: 0.5 } }, toxicity: { threshold: { value: 0.6 } } },
    });
    const { pod, condition, blocked } = agentWiring(member, CHAIN, context());
    expect(blocked).toBeUndefined();
    expect(pod).toEqual({
      workspaceId: 'research',
      apiKeySecret: 'agent-bot-gateway-key',
      policyId: 'team.research-strict',
      modelUrl: 'http://10.88.0.1:11434/v1',
      auditorSettings: {
        injection: { banSubstrings: ['ignore previous'], threshold: 0.8 },
        toxicity: { threshold: 0.6 },
      },
    });
    expect(condition).toMatchObject({ type: 'GatewayConfigured', status: 'True' });
    expect(condition.message).toBe(
      'policy team.research-strict (the AuditorPolicy of workspace research); model http://10.88.0.1:11434/v1 (ModelRegistration llama3)',
    );
  });

  it('leaves the policy to the built-in default and the model to the webhook when nothing names them', () => {
    const { pod, condition } = agentWiring(agent({}), CHAIN, context({ workspace: undefined, policies: [] }));
    expect(pod).toEqual({ workspaceId: 'team', apiKeySecret: 'agent-bot-gateway-key', auditorSettings: {} });
    expect(condition.message).toBe(
      "policy platform:default (no AuditorPolicy governs the agent: the built-in default); model (webhook default) (the webhook's default)",
    );
  });

  it('blocks the pod (a running one is kept) on settings an auditor would refuse', () => {
    const bad = agent({ auditorSettings: { injection: { threshold: { value: 'high' } } } });
    const result = agentWiring(bad, CHAIN, context({ workspace: undefined }));
    expect(result.blocked).toMatch(/invalid/);
    expect(result.condition).toMatchObject({
      status: 'False',
      reason: 'InvalidAuditorSettings',
      message: 'injection.threshold must be of type number; the running pod is kept',
    });
  });
});

describe('the pod the wiring gives', () => {
  it('carries annotations the webhook accepts, and the model base URL for the agent', () => {
    const member = agent({ workspace: 'research', model: { id: 'llama3' } });
    const { pod: wiring } = agentWiring(member, CHAIN, context());
    const pod = desiredPod(member, CHAIN, { image: 'agent:1', trustDomain: 'td' }, wiring);
    const annotations = pod.metadata?.annotations ?? {};
    expect(annotations).toMatchObject({
      [ANNOTATION.policyId]: 'team.research-strict',
      [ANNOTATION.modelUrl]: 'http://10.88.0.1:11434/v1',
      [ANNOTATION.apiKeySecret]: 'agent-bot-gateway-key',
      [ANNOTATION.workspaceId]: 'research',
      [ANNOTATION.auditorSettings]: '{"injection":{"banSubstrings":["ignore previous"],"threshold":0.8}}',
    });
    const checked = validateAnnotations(annotations, testMutateOptions().directory);
    expect(checked.errors).toEqual([]);
    expect(checked.settings.auditorSettings).toEqual({
      injection: { banSubstrings: ['ignore previous'], threshold: 0.8 },
    });
    expect(pod.spec?.containers[0]?.env).toEqual(
      expect.arrayContaining([
        { name: 'OPENAI_BASE_URL', value: 'http://10.88.0.1:11434/v1' },
        { name: 'PLATFORM_MODEL_ID', value: 'llama3' },
        { name: 'PLATFORM_WORKSPACE_ID', value: 'research' },
      ]),
    );
  });

  it('names the annotations exactly as the webhook reads them', () => {
    expect([
      ANNOTATION.policyId,
      ANNOTATION.modelUrl,
      ANNOTATION.apiKeySecret,
      ANNOTATION.auditorSettings,
      ANNOTATION.workspaceId,
    ]).toEqual([
      ANNOTATION.policyId,
      ANNOTATION.modelUrl,
      ANNOTATION.apiKeySecret,
      ANNOTATION.auditorSettings,
      ANNOTATION.workspaceId,
    ]);
  });
});
