import { describe, expect, it } from 'vitest';
import { modelBodyProblem, modelObjectName, modelRegistrationFrom } from './models.ts';

describe('modelObjectName', () => {
  it('keeps an id that is a valid object name', () => {
    expect(modelObjectName('llama3')).toBe('llama3');
  });

  it('derives a stable, distinct name for any other id', () => {
    const a = modelObjectName('meta/Llama-3');
    expect(a).toMatch(/^meta-llama-3-[a-f0-9]{10}$/);
    expect(modelObjectName('meta/Llama-3')).toBe(a);
    expect(modelObjectName('meta-llama-3')).not.toBe(a);
    expect(modelObjectName('///')).toMatch(/^model-[a-f0-9]{10}$/);
  });
});

describe('modelBodyProblem', () => {
  it.each([
    [{ model_id: 'm', deployment_mode: 'sidecar' }, /needs image/],
    [{ model_id: 'm', deployment_mode: 'external' }, /needs endpoint/],
    [
      { model_id: 'm', deployment_mode: 'in-cluster', endpoint: 'http://m', auth: { type: 'mtls' } },
      /cert_pem/,
    ],
    [
      { model_id: 'm', deployment_mode: 'in-cluster', endpoint: 'http://m', auth: { type: 'api_key' } },
      /secret_ref/,
    ],
  ] as const)('names what %j lacks', (body, problem) => {
    expect(modelBodyProblem(body)).toMatch(problem);
  });

  it('accepts a complete body', () => {
    expect(modelBodyProblem({ model_id: 'm', deployment_mode: 'sidecar', image: 'r/m@sha256:1' })).toBe('');
  });
});

describe('modelRegistrationFrom', () => {
  it('states an external model without auth as auth none, and maps the fields', () => {
    const reg = modelRegistrationFrom({
      model_id: 'gpt/x',
      deployment_mode: 'external',
      endpoint: 'https://m.example',
      model_type: 'chat',
    });
    expect(reg.metadata.name).toBe(modelObjectName('gpt/x'));
    expect(reg.spec).toEqual({
      modelId: 'gpt/x',
      deploymentMode: 'external',
      endpoint: 'https://m.example',
      modelType: 'chat',
      auth: { type: 'none' },
    });
  });
});
