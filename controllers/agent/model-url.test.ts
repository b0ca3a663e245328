import { describe, expect, it } from 'vitest';
import type { ModelRegistration, PlatformEnvironment } from '../../crds/generated/types.ts';
import { agentModelUrl, type ModelSources } from './model-url.ts';

const agent = (id?: string) => ({ metadata: { namespace: 'team' }, spec: id ? { model: { id } } : {} });
const registration = (name: string, modelId: string, endpoint?: string): ModelRegistration => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'ModelRegistration',
  metadata: { name },
  spec: { modelId, deploymentMode: endpoint ? 'in-cluster' : 'sidecar', ...(endpoint ? { endpoint } : {}) },
});
const environment = (namespace: string, name: string, modelId: string): PlatformEnvironment => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformEnvironment',
  metadata: { namespace, name },
  spec: { deploymentType: 'model', model: { id: modelId } },
});

const sources = (over: Partial<ModelSources> = {}): ModelSources => ({
  environments: [environment('team', 'llama-backend', 'llama-3'), environment('other', 'gpt', 'gpt-4o')],
  registrations: [
    registration('llama3', 'llama3', 'http://10.88.0.1:11434/v1'),
    registration('llama-sidecar', 'llama-3'),
    registration('gpt-4o', 'gpt-4o', 'https://api.openai.com/v1'),
  ],
  serviceIp: (ns, name) => (ns === 'team' && name === 'model-llama-backend' ? '10.96.7.7' : undefined),
  ...over,
});

describe('agentModelUrl', () => {
  it("uses a model environment in the agent's namespace by its Service's cluster IP", () => {
    expect(agentModelUrl(agent('llama-3'), sources())).toEqual({
      url: 'http://10.96.7.7:8080',
      source: 'PlatformEnvironment llama-backend',
    });
    const noIp = sources({ serviceIp: () => undefined });
    expect(agentModelUrl(agent('llama-3'), noIp).url).toBe('http://model-llama-backend.team.svc:8080');
    const v6 = sources({ serviceIp: () => 'fd00::7' });
    expect(agentModelUrl(agent('llama-3'), v6).url).toBe('http://[fd00::7]:8080');
  });

  it("uses a ModelRegistration's endpoint, never another namespace's environment", () => {
    expect(agentModelUrl(agent('llama3'), sources())).toEqual({
      url: 'http://10.88.0.1:11434/v1',
      source: 'ModelRegistration llama3',
    });
    expect(agentModelUrl(agent('gpt-4o'), sources()).url).toBe('https://api.openai.com/v1');
  });

  it("falls back to the operator default, else leaves it to the webhook's default", () => {
    const withDefault = sources({ defaultUrl: 'http://10.0.0.9:8000/v1' });
    expect(agentModelUrl(agent('unknown'), withDefault)).toEqual({
      url: 'http://10.0.0.9:8000/v1',
      source: 'the operator default',
    });
    expect(agentModelUrl(agent(), sources())).toEqual({ source: "the webhook's default" });
  });
});
