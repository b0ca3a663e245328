// The shipped webhook configurations say what the spec and the issue demand.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const dir = join(import.meta.dirname, '../config/webhook');
type Hook = Record<string, unknown> & {
  namespaceSelector: { matchExpressions: { key: string; operator: string; values: string[] }[] };
};
const hooks = (file: string): Hook[] =>
  (parse(readFileSync(join(dir, file), 'utf8')) as { webhooks: Hook[] }).webhooks;

describe('config/webhook', () => {
  it.each(['mutating-webhook.yaml', 'validating-webhook.yaml'])(
    '%s: Fail, no side effects, v1, short timeout, system namespaces excluded',
    (file) => {
      for (const hook of hooks(file)) {
        expect(hook).toMatchObject({
          failurePolicy: 'Fail',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        });
        expect(hook.timeoutSeconds as number).toBeLessThanOrEqual(10);
        expect(hook.namespaceSelector.matchExpressions).toContainEqual({
          key: 'kubernetes.io/metadata.name',
          operator: 'NotIn',
          values: ['platform-system', 'kube-system'],
        });
      }
    },
  );

  it('reinvokes the mutating webhook if needed and selects secured pods in enabled namespaces', () => {
    const [hook] = hooks('mutating-webhook.yaml');
    expect(hook).toMatchObject({
      reinvocationPolicy: 'IfNeeded',
      objectSelector: { matchLabels: { 'platform.io/secured': 'true' } },
    });
  });

  it('validates pods/ephemeralcontainers too', () => {
    const [hook] = hooks('validating-webhook.yaml');
    expect(JSON.stringify(hook?.rules)).toContain('pods/ephemeralcontainers');
  });

  it('validates AuditorPolicy create and update at /validate-policy, failing closed', () => {
    const hook = hooks('validating-webhook.yaml').find(
      (h) => h.name === 'validate.auditorpolicies.platform.io',
    );
    expect(hook).toMatchObject({
      failurePolicy: 'Fail',
      clientConfig: { service: { path: '/validate-policy' } },
      rules: [
        { apiGroups: ['platform.io'], operations: ['CREATE', 'UPDATE'], resources: ['auditorpolicies'] },
      ],
    });
  });

  it('listens on the pod IP only (the Service endpoint), not on every interface', () => {
    const [deployment] = parseAllDocuments(readFileSync(join(dir, '../manager/webhook.yaml'), 'utf8')).map(
      (d) => d.toJS() as { spec: { template: { spec: { containers: { env: unknown[] }[] } } } },
    );
    expect(deployment?.spec.template.spec.containers[0]?.env).toContainEqual({
      name: 'PLATFORM_WEBHOOK_HOST',
      valueFrom: { fieldRef: { fieldPath: 'status.podIP' } },
    });
  });

  it('lists every manifest in the kustomization', () => {
    const k = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
    // The Deployment is in config/manager, the RBAC in config/rbac.
    expect(k.resources.sort()).toEqual(['mutating-webhook.yaml', 'service.yaml', 'validating-webhook.yaml']);
  });
});

describe('sidecar resource defaults', () => {
  it('are the built-in ones unless set, and every bad quantity is named', async () => {
    const { loadWebhookSettings } = await import('./settings.ts');
    expect(loadWebhookSettings({}, {}).sidecarDefaults.requests).toEqual({ cpu: '100m', memory: '128Mi' });
    const set = loadWebhookSettings(
      { PLATFORM_SIDECAR_CPU_REQUEST: '10m', PLATFORM_SIDECAR_MEMORY_REQUEST: '64Mi' },
      {},
    );
    expect(set.sidecarDefaults.requests).toEqual({ cpu: '10m', memory: '64Mi' });
    expect(() => loadWebhookSettings({ PLATFORM_SIDECAR_CPU_REQUEST: 'lots' }, {})).toThrow(
      /requests.cpu "lots"/,
    );
    expect(() => loadWebhookSettings({ PLATFORM_SIDECAR_CPU_REQUEST: '2' }, {})).toThrow(/exceeds the limit/);
  });
});

describe('listen address', () => {
  it('is loopback unless set, and must be an IP address', async () => {
    const { loadWebhookSettings } = await import('./settings.ts');
    expect(loadWebhookSettings({}, {}).host).toBe('127.0.0.1');
    expect(loadWebhookSettings({ PLATFORM_WEBHOOK_HOST: '10.244.1.7' }, {}).host).toBe('10.244.1.7');
    expect(loadWebhookSettings({}, { host: 'fd00::7' }).host).toBe('fd00::7');
    expect(() => loadWebhookSettings({ PLATFORM_WEBHOOK_HOST: 'all' }, {})).toThrow(
      /PLATFORM_WEBHOOK_HOST: expected an IP address such as 127.0.0.1, got "all"/,
    );
  });

  it('locally is the loopback address the apiserver calls the webhook at', async () => {
    const { roleEnv, DEFAULT_PORTS } = await import('../hack/system/roles.ts');
    const env = roleEnv(
      'webhook',
      { namespace: 'platform-system', ports: DEFAULT_PORTS, node: true, leaderElection: false },
      '/kubeconfig',
    );
    expect(env.PLATFORM_WEBHOOK_HOST).toBe('127.0.0.1');
  });
});
