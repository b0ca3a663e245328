import { describe, expect, it } from 'vitest';
import type { PlatformEnvironment } from '../../crds/generated/types.ts';
import { PORT } from '../../webhooks/constants.ts';
import { validateAnnotations } from '../../webhooks/mutate/annotations.ts';
import { testMutateOptions } from '../../webhooks/testing/fixtures.ts';
import {
  desiredDeployment,
  desiredService,
  environmentEndpoint,
  environmentPodSelector,
  environmentSettings,
  GATEWAY_PORT,
  MODEL_PORT,
  uninjectedPods,
} from './desired.ts';

const env: PlatformEnvironment = {
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformEnvironment',
  metadata: { name: 'llama-backend', namespace: 'team', uid: 'u-1' },
  spec: {
    deploymentType: 'model',
    model: { id: 'llama-3' },
    auditorChain: { preRequest: [{ auditorId: 'injection' }] },
  },
};

describe('a model environment', () => {
  it("sends callers to the secured model pod's gateway, never to the model port", () => {
    const svc = desiredService(env);
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP',
      selector: { 'platform.io/environment': 'llama-backend' },
      ports: [{ name: 'http', port: MODEL_PORT, targetPort: GATEWAY_PORT }],
    });
    expect(svc.spec?.clusterIP).toBeUndefined();
    expect(GATEWAY_PORT).toBe(PORT.gateway);
    expect(environmentEndpoint(env)).toBe('http://model-llama-backend.team.svc:8080');
  });

  it('gives the model pod a gateway whose model is the server beside it, with the chain', () => {
    const template = desiredDeployment(env, { image: 'model:1' }).spec!.template;
    const annotations = template.metadata!.annotations!;
    expect(annotations).toMatchObject({
      'platform.computing/auditor-chain': 'model-context,llm-judge,injection',
      'platform.computing/model-url': 'http://127.0.0.1:8080',
      'platform.computing/workspace-id': 'team',
    });
    expect(template.metadata!.labels).toMatchObject({ 'platform.io/secured': 'true' });
    expect(validateAnnotations(annotations, testMutateOptions().directory).errors).toEqual([]);
    const [container] = template.spec!.containers;
    expect(container!.ports).toEqual([{ name: 'http', containerPort: MODEL_PORT }]);
    expect(container!.args).toBeUndefined();
  });

  it('runs the model server with its arguments, told its port and model id', () => {
    const model = desiredDeployment(env, { image: 'platform:1', args: ['run', 'model'] }).spec?.template.spec
      ?.containers[0];
    expect(model?.args).toEqual(['run', 'model']);
    expect(model?.env).toEqual(
      expect.arrayContaining([
        { name: 'PORT', value: String(MODEL_PORT) },
        { name: 'PLATFORM_MODEL_IDS', value: env.spec.model?.id },
      ]),
    );
  });

  it("passes its chain's auditor settings to the model pod, and reports those an auditor would refuse", () => {
    const tuned: PlatformEnvironment = {
      ...env,
      spec: {
        ...env.spec,
        auditorSettings: {
          injection: { threshold: { value: 0.6 } },
          toxicity: { multilingual: { value: true } },
        },
      },
    };
    const annotations = desiredDeployment(tuned, { image: 'model:1' }).spec?.template.metadata?.annotations;
    expect(annotations?.['platform.computing/auditor-settings']).toBe('{"injection":{"threshold":0.6}}');
    const bad = {
      ...env,
      spec: { ...env.spec, auditorSettings: { injection: { threshold: { value: 'x' } } } },
    };
    expect(environmentSettings(bad).problems).toEqual(['injection.threshold must be of type number']);
    expect(
      desiredDeployment(bad, { image: 'model:1' }).spec?.template.metadata?.annotations?.[
        'platform.computing/auditor-settings'
      ],
    ).toBeUndefined();
  });
});

describe('pods the webhook never saw', () => {
  const pod = (name: string, containers: string[], deleting = false) => ({
    metadata: { name, ...(deleting ? { deletionTimestamp: new Date() } : {}) },
    spec: { containers: containers.map((c) => ({ name: c })) },
  });

  it('are the ones without the gateway, not already going', () => {
    const pods = [
      pod('bare', ['model']),
      pod('secured', ['model', 'platform-gateway', 'injection']),
      pod('bare-going', ['model'], true),
    ];
    expect(uninjectedPods(pods).map((p) => p.metadata?.name)).toEqual(['bare']);
  });

  it("are found by the Deployment's own selector", () => {
    expect(environmentPodSelector(env)).toBe(
      `${Object.keys(desiredDeployment(env, { image: 'i' }).spec!.selector.matchLabels!)[0]}=llama-backend`,
    );
  });
});
